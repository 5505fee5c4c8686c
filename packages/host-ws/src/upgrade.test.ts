import { request, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, startHost, TOKEN, track } from '../test/fixture.js';
import { RawClient } from '../test/raw-client.js';

afterEach(cleanup);

describe('shared-token mode', () => {
  it('refuses a wrong token with HTTP 401', async () => {
    const { host } = await startHost();
    expect(await RawClient.refusal(`${host.url}?token=wrong`)).toBe(401);
  });

  it('refuses a missing token with HTTP 401 and reports auth-failed', async () => {
    const { host, event } = await startHost();
    expect(await RawClient.refusal(host.url)).toBe(401);
    expect(await event('auth-failed')).toMatchObject({ status: 401, reason: 'no token was presented', remoteAddress: '127.0.0.1' });
  });

  it('accepts the token in an Authorization: Bearer header (for clients that can set headers)', async () => {
    const { host } = await startHost();
    const client = await RawClient.connect(host.url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect((await client.next('hello')).type).toBe('hello');
    await client.close();
  });

  it('refuses a token that only shares a prefix with the real one', async () => {
    const { host } = await startHost();
    expect(await RawClient.refusal(`${host.url}?token=${TOKEN.slice(0, -1)}`)).toBe(401);
    expect(await RawClient.refusal(`${host.url}?token=${TOKEN}x`)).toBe(401);
  });
});

describe('authenticate(req)', () => {
  it('refuses with 401 when authenticate returns undefined', async () => {
    const { host } = await startHost({ token: undefined, authenticate: () => undefined });
    expect(await RawClient.refusal(host.url)).toBe(401);
  });

  it('refuses with 401 when authenticate throws or rejects', async () => {
    const { host: throwing } = await startHost({
      token: undefined,
      authenticate: () => {
        throw new Error('session store down');
      },
    });
    expect(await RawClient.refusal(throwing.url)).toBe(401);
    await throwing.close();
    const { host: rejecting } = await startHost({ token: undefined, authenticate: async () => Promise.reject(new Error('nope')) });
    expect(await RawClient.refusal(rejecting.url)).toBe(401);
  });

  it('accepts the principal an async authenticate resolves to, reading the request it was given', async () => {
    const { host, event } = await startHost({
      token: undefined,
      authenticate: async (req) => (req.headers.cookie === 'sid=alice' ? { id: 'alice', canSee: () => true } : undefined),
    });
    const client = await RawClient.connect(host.url, { headers: { Cookie: 'sid=alice' } });
    expect(await event('connected')).toMatchObject({ principalId: 'alice' });
    await client.close();
    expect(await RawClient.refusal(host.url, { headers: { Cookie: 'sid=mallory' } })).toBe(401);
  });

  it('falls back to authenticate when a token is configured but not presented', async () => {
    const { host, event } = await startHost({ authenticate: () => ({ id: 'by-cookie', canSee: () => false }) });
    const client = await RawClient.connect(host.url);
    expect(await event('connected')).toMatchObject({ principalId: 'by-cookie' });
    await client.close();
  });
});

describe('Origin allow-list', () => {
  it('refuses a page from an origin that is not listed with HTTP 403', async () => {
    const { host, event } = await startHost({ origins: ['http://app.example'] });
    expect(await RawClient.refusal(`${host.url}?token=${TOKEN}`, { origin: 'http://evil.example' })).toBe(403);
    expect(await event('auth-failed')).toMatchObject({ status: 403 });
  });

  it('checks the Origin before the token, so a foreign page cannot probe tokens', async () => {
    const { host } = await startHost({ origins: ['http://app.example'] });
    expect(await RawClient.refusal(`${host.url}?token=wrong`, { origin: 'http://evil.example' })).toBe(403);
  });

  it('accepts a listed origin, compared without case or trailing slashes', async () => {
    const { host, events } = await startHost({ origins: ['http://App.example/'] });
    for (const origin of ['http://app.example', 'HTTP://APP.EXAMPLE//', ' http://app.example/ ']) {
      const client = await RawClient.connect(`${host.url}?token=${TOKEN}`, { origin });
      expect((await client.next('hello')).type, origin).toBe('hello');
      await client.close();
    }
    expect(events.filter((event) => event.type === 'connected')).toHaveLength(3);
    expect(events.filter((event) => event.type === 'auth-failed')).toEqual([]);
  });

  it('accepts a request without Origin (not a browser page)', async () => {
    const { connect, event } = await startHost({ origins: ['http://app.example'] });
    const client = await connect();
    expect(await client.next('hello')).toMatchObject({ type: 'hello', pending: [] });
    expect(await event('connected')).toMatchObject({ principalId: 'token' });
  });
});

describe('Origin without an allow-list (the default)', () => {
  // A cookie-based authenticate: the browser sends the cookie whichever site opened the socket.
  const byCookie = { token: undefined, authenticate: (req: IncomingMessage) => (req.headers.cookie === 'sid=alice' ? { id: 'alice', canSee: () => true } : undefined) };

  it('refuses a page from another site with 403 before authenticate sees its cookie (cross-site WebSocket hijacking)', async () => {
    const { host, event } = await startHost(byCookie);
    expect(await RawClient.refusal(host.url, { origin: 'http://evil.example', headers: { Cookie: 'sid=alice' } })).toBe(403);
    expect(await event('auth-failed')).toMatchObject({ status: 403, reason: expect.stringContaining('http://evil.example') });
  });

  it('refuses a page from the same machine on another port, or an opaque "null" Origin', async () => {
    const { host } = await startHost(byCookie);
    const headers = { Cookie: 'sid=alice' };
    expect(await RawClient.refusal(host.url, { origin: `http://127.0.0.1:${host.port + 1}`, headers })).toBe(403);
    expect(await RawClient.refusal(host.url, { origin: `http://localhost:${host.port}`, headers })).toBe(403);
    expect(await RawClient.refusal(host.url, { origin: 'null', headers })).toBe(403);
    expect(await RawClient.refusal(host.url, { origin: 'not a url', headers })).toBe(403);
  });

  it('accepts a page served by the host\'s own server: its Origin names the Host it connects to', async () => {
    const { host, event } = await startHost(byCookie);
    for (const origin of [`http://127.0.0.1:${host.port}`, `HTTP://127.0.0.1:${host.port}/`, `https://127.0.0.1:${host.port}`]) {
      const client = await RawClient.connect(host.url, { origin, headers: { Cookie: 'sid=alice' } });
      expect((await client.next('hello')).type, origin).toBe('hello');
      await client.close();
    }
    expect(await event('connected')).toMatchObject({ principalId: 'alice' });
  });

  it('accepts a request without Origin (not from a browser page)', async () => {
    const { host } = await startHost(byCookie);
    const client = await RawClient.connect(host.url, { headers: { Cookie: 'sid=alice' } });
    expect((await client.next('hello')).type).toBe('hello');
    await client.close();
  });

  it('accepts any Origin with origins: ["*"]', async () => {
    const { host } = await startHost({ ...byCookie, origins: ['*'] });
    const client = await RawClient.connect(host.url, { origin: 'http://anywhere.example', headers: { Cookie: 'sid=alice' } });
    expect((await client.next('hello')).type).toBe('hello');
    await client.close();
  });
});

describe('anonymous mode', () => {
  it('accepts any connection as one principal that sees every session when allowAnonymous is set', async () => {
    const { host, event } = await startHost({ token: undefined, allowAnonymous: true });
    const client = await RawClient.connect(host.url);
    expect(await event('connected')).toMatchObject({ principalId: 'anonymous' });
    await client.close();
  });
});

describe('paths of the own listener', () => {
  it('refuses an upgrade on another path with 404', async () => {
    const { host } = await startHost();
    expect(await RawClient.refusal(host.url.replace('/askseam', '/elsewhere') + `?token=${TOKEN}`)).toBe(404);
  });

  it('answers a plain HTTP request on the WebSocket path with 426 Upgrade Required', async () => {
    const { host } = await startHost();
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request(host.url.replace('ws:', 'http:'), (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(426);
  });
});

describe('connection caps', () => {
  /** `?as=<user>` is that user, who sees session agent-a. */
  const asUser = (req: IncomingMessage) => {
    const user = new URL(req.url ?? '/', 'http://x').searchParams.get('as');
    return user === null ? undefined : { id: user, canSee: (session: string) => session === 'agent-a' };
  };

  it('refuses one connection more than maxConnectionsPerPrincipal with HTTP 429, before any socket exists, and takes it once one closes', async () => {
    const { host, event } = await startHost({ authenticate: asUser, maxConnectionsPerPrincipal: 2 });
    const first = track(await RawClient.connect(`${host.url}?as=ann`));
    track(await RawClient.connect(`${host.url}?as=ann`));
    expect(await RawClient.refusal(`${host.url}?as=ann`)).toBe(429);
    // Another principal is not held back by ann's connections.
    expect((await track(await RawClient.connect(`${host.url}?as=bob`)).next('hello')).type).toBe('hello');
    await first.close();
    await event('disconnected');
    expect((await track(await RawClient.connect(`${host.url}?as=ann`)).next('hello')).type).toBe('hello');
  });

  it('refuses one connection more than maxConnections with HTTP 503, whoever asks', async () => {
    const { host } = await startHost({ authenticate: asUser, maxConnections: 2 });
    track(await RawClient.connect(`${host.url}?as=ann`));
    track(await RawClient.connect(`${host.url}?as=bob`));
    expect(await RawClient.refusal(`${host.url}?as=cy`)).toBe(503);
    expect(await RawClient.refusal(`${host.url}?token=${TOKEN}`)).toBe(503);
    expect(host.connections().map((info) => info.principalId)).toEqual(['ann', 'bob']);
  });

  it('does not hold the shared token to maxConnectionsPerPrincipal: every holder of the token is that one principal', async () => {
    const { host, connect } = await startHost({ maxConnectionsPerPrincipal: 1 });
    await connect();
    await connect();
    expect(host.connections()).toHaveLength(2);
  });
});
