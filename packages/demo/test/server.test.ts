import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectQuestions } from '@askseam/client';
import { EventSource } from 'eventsource';
import { WebSocket } from 'ws';
import { buildConsoleBundle } from '../../web/scripts/bundle.mjs';
import { DEFAULT_PORT, startDemo } from '../src/index.js';
import { Cleanup, startTestDemo } from './helpers.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** The HTTP status a WebSocket upgrade gets, or 101 when it is accepted. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => {
      // After unexpected-response, ws may still report the aborted handshake; the status is already out.
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

async function tempBundle(code: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'askseam-demo-'));
  cleanup.add(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'askseam-questions.js');
  await writeFile(file, code);
  return file;
}

describe('the demo server', () => {
  it('serves the operator console to its own token only, not to the page\'s', async () => {
    // The console's bundle on disk, as `pnpm demo` builds it (a clean checkout has none until then).
    await buildConsoleBundle();
    const { demo } = await startTestDemo(cleanup);
    const page = await fetch(demo.consoleUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<askseam-console');
    const pending = await fetch(`http://127.0.0.1:${demo.port}/askseam/console/api/pending?token=${demo.token}`);
    expect(pending.status).toBe(403);
    expect((await fetch(`http://127.0.0.1:${demo.port}/askseam/console/askseam-console.js`)).status).toBe(200);
  });

  it('serves a page that loads the bundle and the page script, and carries no token', async () => {
    const { demo } = await startTestDemo(cleanup);
    const response = await fetch(demo.url);
    const html = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('<script type="module" src="/askseam-questions.js"></script>');
    expect(html).toContain('<script type="module" src="/demo.js"></script>');
    expect(html).toContain('<askseam-questions lang="en">');
    expect(html).not.toContain(demo.token);
  });

  it('locks the page down with a Content-Security-Policy that allows only its own scripts and socket', async () => {
    const { demo } = await startTestDemo(cleanup);
    const policy = (await fetch(demo.url)).headers.get('content-security-policy') ?? '';

    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain(`connect-src 'self' ws://127.0.0.1:${demo.port}`);
    expect(policy).toContain("img-src 'self' data:");
  });

  it('serves the page in Chinese for ?lang=zh', async () => {
    const { demo } = await startTestDemo(cleanup);
    const html = await (await fetch(`${demo.url}&lang=zh`)).text();

    expect(html).toContain('<html lang="zh">');
    expect(html).toContain('<askseam-questions lang="zh">');
    expect(html).toContain('askseam 演示');
  });

  it('serves the page script that reads the token from the address and points the element at the socket', async () => {
    const { demo } = await startTestDemo(cleanup);
    const response = await fetch(`http://127.0.0.1:${demo.port}/demo.js`);
    const script = await response.text();

    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script).toContain("params.get('token')");
    expect(script).toContain('ws://${location.host}/askseam');
  });

  it('serves the web component bundle from its file', async () => {
    const bundlePath = await tempBundle('customElements.define("askseam-questions", class extends HTMLElement {});\n');
    const { demo } = await startTestDemo(cleanup, { bundlePath });
    const response = await fetch(`http://127.0.0.1:${demo.port}/askseam-questions.js`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await response.text()).toContain('customElements.define("askseam-questions"');
  });

  it('says to run pnpm build when the bundle has not been built', async () => {
    const { demo } = await startTestDemo(cleanup, { bundlePath: join(tmpdir(), 'askseam-demo-missing', 'askseam-questions.js') });
    const response = await fetch(`http://127.0.0.1:${demo.port}/askseam-questions.js`);

    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Run `pnpm build` first');
  });

  it('answers unknown paths with 404 and other methods with 405', async () => {
    const { demo } = await startTestDemo(cleanup);
    const base = `http://127.0.0.1:${demo.port}`;

    expect((await fetch(`${base}/secret.txt`)).status).toBe(404);
    const post = await fetch(`${base}/`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('accepts a WebSocket with the printed token and refuses a wrong one with 401', async () => {
    const { demo } = await startTestDemo(cleanup);

    expect(await upgradeStatus(`${demo.socketUrl}?token=${demo.token}`)).toBe(101);
    expect(await upgradeStatus(`${demo.socketUrl}?token=wrong-${demo.token}`)).toBe(401);
    expect(await upgradeStatus(demo.socketUrl)).toBe(401);
  });

  it('refuses a WebSocket from a page of another origin even with the token', async () => {
    const { demo } = await startTestDemo(cleanup);
    const url = `${demo.socketUrl}?token=${demo.token}`;

    expect(await upgradeStatus(url, { origin: 'http://evil.example' })).toBe(403);
    expect(await upgradeStatus(url, { origin: `http://127.0.0.1:${demo.port}` })).toBe(101);
  });

  it('uses a new random token for every start', async () => {
    const { demo: a } = await startTestDemo(cleanup);
    const { demo: b } = await startTestDemo(cleanup);

    expect(a.token).not.toBe(b.token);
    expect(a.token.length).toBeGreaterThanOrEqual(32);
  });

  it('falls back to a free port when the default port is taken', async () => {
    // Hold the default port ourselves; if something else already holds it, it is taken all the same.
    const blocker = createServer();
    await new Promise<void>((resolve) => {
      blocker.once('error', () => resolve());
      blocker.listen(DEFAULT_PORT, '127.0.0.1', () => resolve());
    });
    cleanup.add(() => new Promise((resolve) => blocker.close(resolve)));

    const demo = await startDemo({ print: () => {} });
    cleanup.add(() => demo.close());
    expect(demo.port).not.toBe(DEFAULT_PORT);
    expect((await fetch(demo.url)).status).toBe(200);
  });

  it('fails to start when an explicitly chosen port is taken', async () => {
    const { demo } = await startTestDemo(cleanup);

    await expect(startDemo({ port: demo.port, print: () => {} })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('stops serving after close', async () => {
    const { demo } = await startTestDemo(cleanup);
    await demo.close();

    await expect(fetch(demo.url)).rejects.toThrow();
  });
});

describe('the demo server with --transport sse', () => {
  it('tells the page to use SSE and serves the event stream and respond routes, ahead of the HTTP API', async () => {
    const { demo } = await startTestDemo(cleanup, { transport: 'sse' });
    expect(demo.transport).toBe('sse');
    expect(demo.hostUrl).toBe(`http://127.0.0.1:${demo.port}/askseam`);
    const html = await (await fetch(demo.url)).text();
    expect(html).toContain('<meta name="askseam-transport" content="sse">');
    const script = await (await fetch(`http://127.0.0.1:${demo.port}/demo.js`)).text();
    expect(script).toContain('${location.protocol}//${location.host}/askseam');

    // The stream is the host's, not the API's 404: refused without the token, open with it.
    expect((await fetch(`${demo.hostUrl}/events`)).status).toBe(401);
    const client = connectQuestions({ url: demo.hostUrl, token: demo.token, EventSource, reconnect: false });
    cleanup.add(() => client.close());
    // The scripted agent's first question, replayed on the fresh stream and answered by POST.
    const question = await new Promise<import('@askseam/client').PendingQuestion>((resolve) => client.on('requested', resolve));
    expect(question.questions[0]?.question).toBe('Which framework should the new website use?');
    const answer = { answers: question.questions.map((item) => ({ id: item.id, selected: [item.options?.[0]?.label ?? ''] })) };
    await expect(question.answer(answer)).resolves.toEqual({ rpcId: question.rpcId, accepted: true });
  });

  it('keeps the page on the WebSocket by default', async () => {
    const { demo } = await startTestDemo(cleanup);
    expect(demo.transport).toBe('ws');
    expect(demo.hostUrl).toBe(demo.socketUrl);
    expect(await (await fetch(demo.url)).text()).toContain('<meta name="askseam-transport" content="ws">');
  });
});
