import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, colourQuestion, redAnswer, startHost } from '../test/fixture.js';
import { until } from '../test/hardening/wire.js';
import type { HostLogger } from './index.js';

afterEach(cleanup);

describe('unreadable frames', () => {
  it('answers each kind of unreadable frame with an error frame and keeps the connection', async () => {
    const { connect } = await startHost();
    const client = await connect();
    client.send('{not json');
    client.send({ type: 'question/explode' });
    client.send({ type: 'question/respond', result: {} });
    client.send([1, 2]);
    expect((await client.next('error')).code).toBe('malformed-json');
    expect(await client.next('error')).toEqual({ type: 'error', code: 'unknown-type', message: 'Unknown frame type "question/explode".' });
    expect((await client.next('error')).code).toBe('invalid-frame');
    expect((await client.next('error')).code).toBe('invalid-frame');
    client.send({ type: 'ping' });
    await client.next('pong');
  });

  it('answers a binary frame with a binary-frame error', async () => {
    const { connect } = await startHost();
    const client = await connect();
    client.socket.send(Buffer.from(JSON.stringify({ type: 'ping' })), { binary: true });
    expect((await client.next('error')).code).toBe('binary-frame');
  });

  it('closes a connection with 1008 once it has sent maxBadFrames unreadable frames', async () => {
    const { connect } = await startHost({ maxBadFrames: 3 });
    const client = await connect();
    for (let i = 0; i < 3; i++) client.send('garbage');
    expect(await client.closed).toEqual({ code: 1008, reason: 'too many bad frames' });
    expect(client.all('error')).toHaveLength(3);
  });

  it('forgets unreadable frames older than badFrameWindowMs, so a long-lived connection is not closed for rare mistakes', async () => {
    // Only Date is faked: sockets and timers run for real.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { connect } = await startHost({ maxBadFrames: 3, badFrameWindowMs: 60_000 });
      const client = await connect();
      for (let round = 0; round < 4; round++) {
        client.send('garbage');
        client.send('garbage');
        await client.next('error');
        await client.next('error');
        // Two bad frames a minute and more apart never add up to three within one window.
        vi.setSystemTime(Date.now() + 61_000);
      }
      client.send({ type: 'ping' });
      await client.next('pong');
      // Three within one window still close it.
      for (let i = 0; i < 3; i++) client.send('garbage');
      expect(await client.closed).toEqual({ code: 1008, reason: 'too many bad frames' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not let good frames between bad ones reset the count', async () => {
    const { connect } = await startHost({ maxBadFrames: 3 });
    const client = await connect();
    for (let i = 0; i < 3; i++) {
      client.send('garbage');
      client.send({ type: 'ping' });
    }
    expect(await client.closed).toEqual({ code: 1008, reason: 'too many bad frames' });
    expect(client.all('pong')).toHaveLength(2);
  });

  it('counts forbidden and bad-response answers as bad frames, but not not-pending (two tabs racing cannot avoid it)', async () => {
    // `?as=<session>` sees that one session; the fixture's token still sees every session.
    const { connect, ask } = await startHost({
      maxBadFrames: 3,
      authenticate: (req) => {
        const session = new URL(req.url ?? '/', 'http://x').searchParams.get('as');
        return session === null ? undefined : { id: `user-of-${session}`, canSee: (id) => id === session, sessions: [session] };
      },
    });
    const ofB = await connect({ query: 'as=agent-b' });
    void ask('agent-a').settled;
    void ask('agent-b').settled;
    const { rpcId: own } = await ofB.next('question/requested');
    const watcher = await connect();
    const { rpcId: foreign } = await watcher.next('question/requested', (frame) => frame.sessionId === 'agent-a');
    const wrong = { answers: [{ id: 'colour', selected: ['Green'] }] };
    const reasons: string[] = [];
    for (let i = 0; i < 5; i++) reasons.push(((await ofB.answer('unknown', 'agent-b', redAnswer)) as { reason?: string }).reason ?? 'accepted');
    reasons.push(((await ofB.answer(foreign, 'agent-a', redAnswer)) as { reason?: string }).reason ?? 'accepted');
    reasons.push(((await ofB.answer(own, 'agent-b', wrong)) as { reason?: string }).reason ?? 'accepted');
    expect(reasons).toEqual([...Array.from({ length: 5 }, () => 'not-pending'), 'forbidden', 'bad-response']);
    // The third counted rejection closes the connection, like the third unreadable frame would.
    ofB.send({ type: 'question/respond', rpcId: own, result: { ok: true, value: { sessionId: 'agent-b', answer: wrong } } });
    expect(await ofB.closed).toEqual({ code: 1008, reason: 'too many bad frames' });
  });

  it('closes the connection with 1009 on a frame bigger than maxPayload', async () => {
    const { connect } = await startHost({ maxPayload: 1024 });
    const client = await connect();
    client.send({ type: 'ping', padding: 'x'.repeat(2048) });
    expect((await client.closed).code).toBe(1009);
  });

  it('answers an application-level ping with a pong', async () => {
    const { connect } = await startHost();
    const client = await connect();
    client.send({ type: 'ping' });
    expect(await client.next('pong')).toEqual({ type: 'pong' });
  });
});

describe('slow consumers', () => {
  it('closes with 1008 a client that leaves more than maxBufferedBytes unread', async () => {
    const warnings: string[] = [];
    const logger: HostLogger = { debug() {}, info() {}, warn: (message) => warnings.push(message), error() {} };
    const { connect, ask, events } = await startHost({ maxBufferedBytes: 64 * 1024, closeTimeoutMs: 20_000, logger });
    const client = await connect();
    await client.next('hello');
    const tcp = (client.socket as unknown as { _socket: import('node:net').Socket })._socket;
    // Stop reading, then keep asking until the kernel buffers on both sides are full and the
    // host's own send buffer grows past the limit (how many asks that takes depends on the OS).
    tcp.pause();
    const big = { ...colourQuestion, detail: 'x'.repeat(512 * 1024) };
    for (let asked = 0; asked < 400 && !warnings.includes('closing a slow consumer'); asked++) {
      void ask('agent-a', [big]).settled;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(warnings).toContain('closing a slow consumer');
    const delivered = events.filter((event) => event.type === 'delivered').length;
    tcp.resume();
    expect(await client.closed).toEqual({ code: 1008, reason: 'slow consumer' });
    // Everything sent before the limit was hit still arrives, then the close; nothing after it.
    expect(client.all('question/requested')).toHaveLength(delivered);
  });
});

describe('replay', () => {
  it('sends a replay only as fast as the client reads, so a client that never reads holds at most maxBufferedBytes until it is let go', async () => {
    const maxBufferedBytes = 256 * 1024;
    const { host, connect, ask, events } = await startHost({ maxBufferedBytes, heartbeatMs: 500, closeTimeoutMs: 100 });
    // 40 questions of 250 KB: far more than the kernel buffers of a loopback connection hold.
    const big = { ...colourQuestion, detail: 'x'.repeat(250 * 1024) };
    for (let asked = 0; asked < 40; asked++) void ask('agent-a', [big]).settled;
    await until(() => events.filter((event) => event.type === 'asked').length === 40);
    const saved = await host.store.listPending('all');
    expect(saved).toHaveLength(40);

    const stalled = await connect();
    (stalled.socket as unknown as { _socket: import('node:net').Socket })._socket.pause();
    const held = () => host.connections()[0];
    await until(() => (held()?.bufferedBytes ?? 0) > 0);
    // The rest of the replay waits in the pending table (shared), not in this connection's buffers.
    expect(held()!.bufferedBytes).toBeLessThanOrEqual(maxBufferedBytes);
    expect(held()!.heldFrames).toBeGreaterThan(0);

    // It never echoes a ping: the heartbeat lets it go, and everything the host held for it with it.
    await until(() => host.connections().length === 0);
    expect(events.filter((event) => event.type === 'disconnected')).toHaveLength(1);
    expect(host.pending()).toHaveLength(40);
  });
});

describe('hooks that throw', () => {
  it('keeps delivering and answering when onEvent and the logger throw', async () => {
    const explode = () => {
      throw new Error('hook failure');
    };
    const { connect, ask } = await startHost({ onEvent: explode, logger: { debug: explode, info: explode, warn: explode, error: explode } });
    const client = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    await client.answer(rpcId, 'agent-a', redAnswer);
    await expect(asking).resolves.toEqual(redAnswer);
  });
});

describe('connection events', () => {
  it('reports connected and disconnected with the principal and the close code', async () => {
    const { connect, event } = await startHost();
    const client = await connect();
    const connected = await event('connected');
    expect(connected.principalId).toBe('token');
    await client.close();
    expect(await event('disconnected')).toMatchObject({ connectionId: connected.connectionId, principalId: 'token', code: 1005 });
  });
});
