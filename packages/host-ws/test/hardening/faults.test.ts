// Faults below the protocol: peers that vanish mid-frame, stop answering pings, stop reading, or
// never speak HTTP at all, and a host closed with everything in flight. The host must not crash,
// must not lose or double-settle a question, and must leave nothing running behind.
import type { Socket } from 'node:net';
import { hasUserQuestionErrorCode, type AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostLogger, Principal } from '../../src/index.js';
import { cleanup, colourQuestion, redAnswer, startHost, TOKEN, track, type TestHost } from '../fixture.js';
import { RawClient } from '../raw-client.js';
import { clientFrame, seededRandom, sendUpgrade, statusOf, tcpConnect, upgradeRequest, until, type UpgradedSocket } from './wire.js';

const bareSockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of bareSockets) socket.destroy();
  bareSockets.clear();
  await cleanup();
});

/** Keep a bare socket for the afterEach, whatever the test does with it. */
function own<T extends { socket: Socket }>(value: T): T {
  bareSockets.add(value.socket);
  return value;
}

/** `?session=sN` connections see session sN only (the shared token still sees everything). */
function bySession(req: { url?: string }): Principal | undefined {
  const session = new URL(req.url ?? '/', 'http://upgrade.invalid').searchParams.get('session');
  return session === null ? undefined : { id: `user-of-${session}`, canSee: (id) => id === session, sessions: [session] };
}

/** Prove the host still works: a fresh client answers a fresh question and the ask resolves. */
async function stillServes(testHost: TestHost, session = 'agent-a'): Promise<void> {
  const client = await testHost.connect();
  const asking = testHost.ask(session);
  const requested = await client.next('question/requested');
  expect(await client.answer(requested.rpcId, session, redAnswer)).toMatchObject({ accepted: true });
  await expect(asking).resolves.toEqual(redAnswer);
  await client.close();
}

/** The rpcId of the host's pending question number `index` (in ask order). */
function pendingRpcId(testHost: TestHost, index = 0): string {
  const entry = testHost.host.pending()[index];
  if (entry === undefined) throw new Error(`the host has no pending question #${index}`);
  return entry.rpcId;
}

function countResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

describe('peers that vanish mid-frame', () => {
  it('survives a client cut off at every byte of a valid answer, and the question stays pending', async () => {
    const testHost = await startHost();
    const { host, ask, events } = testHost;
    const asking = ask('agent-a');
    const rpcId = pendingRpcId(testHost);
    const frame = clientFrame(
      JSON.stringify({ type: 'question/respond', id: 'cut', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } }),
    );

    // One connection per cut: inside the 2-byte header, the mask, and the payload, up to its last byte.
    const cuts = Array.from({ length: frame.length - 1 }, (_, index) => index + 1);
    const sockets = await Promise.all(cuts.map(() => sendUpgrade(`${host.url}?token=${TOKEN}`).then(own)));
    expect(sockets.map((socket) => statusOf(socket.head))).toEqual(cuts.map(() => 101));
    await until(() => events.filter((event) => event.type === 'connected').length === cuts.length);
    // Gone once the fragment has left: half of them with a FIN, half with a reset.
    sockets.forEach(({ socket }, index) =>
      socket.write(frame.subarray(0, cuts[index]), () => (index % 2 === 0 ? socket.destroy() : socket.resetAndDestroy())),
    );
    await until(
      () => events.filter((event) => event.type === 'disconnected').length === cuts.length,
      () => `${events.filter((event) => event.type === 'disconnected').length} of ${cuts.length} disconnects seen`,
    );

    // No partial frame was taken for an answer: nothing was settled, nothing was refused.
    expect(events.filter((event) => event.type === 'answered' || event.type === 'response-rejected')).toEqual([]);
    expect(events.filter((event) => event.type === 'disconnected').map((event) => 'code' in event && event.code)).toEqual(cuts.map(() => 1006));
    expect(host.pending().map((entry) => entry.rpcId)).toEqual([rpcId]);

    const client = await testHost.connect();
    const replayed = await client.next('question/requested');
    expect(replayed.rpcId).toBe(rpcId);
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('ignores the rest of a frame that never comes when the peer closes its half of the connection', async () => {
    const testHost = await startHost();
    const asking = testHost.ask('agent-a');
    const rpcId = pendingRpcId(testHost);
    const upgraded = own(await sendUpgrade(`${testHost.host.url}?token=${TOKEN}`));
    const frame = clientFrame(JSON.stringify({ type: 'question/respond', rpcId, result: { ok: false, error: { code: 'cancelled' } } }));
    // A polite FIN after half a cancel: the host must not treat the fragment as a dismissal.
    upgraded.socket.end(frame.subarray(0, frame.length - 3));
    await upgraded.closed;
    await testHost.event('disconnected');
    expect(testHost.host.pending().map((entry) => entry.rpcId)).toEqual([rpcId]);
    expect(testHost.events.some((event) => event.type === 'cancelled')).toBe(false);
    void asking.settled;
  });
});

describe('half-open sockets', () => {
  it('terminates every socket that stops answering pings, keeps the question pending and replays it to the next connection', async () => {
    const testHost = await startHost({ heartbeatMs: 50 });
    const { host, ask, events } = testHost;
    const asking = ask('agent-b');
    const silent = await Promise.all(Array.from({ length: 20 }, () => testHost.connect({ autoPong: false })));
    const rpcIds = await Promise.all(silent.map(async (client) => (await client.next('question/requested')).rpcId));
    const rpcId = pendingRpcId(testHost);
    expect(new Set(rpcIds)).toEqual(new Set([rpcId]));

    // Terminated, not closed: a peer that does not answer pings will not finish a closing handshake.
    const closes = await Promise.all(silent.map((client) => client.closed));
    expect(closes.map((close) => close.code)).toEqual(silent.map(() => 1006));
    await until(() => events.filter((event) => event.type === 'disconnected').length === silent.length);
    expect(host.pending().map((entry) => entry.rpcId)).toEqual([rpcId]);

    // A healthy client gets the same question again. On a very busy machine even a healthy client
    // can miss one 50 ms heartbeat, so it tries again rather than make the test depend on timing.
    let accepted = false;
    for (let attempt = 0; attempt < 5 && !accepted; attempt++) {
      const client = await testHost.connect();
      const replayed = await Promise.race([client.next('question/requested'), client.closed.then(() => undefined)]);
      if (replayed === undefined) continue;
      expect(replayed.rpcId).toBe(rpcId);
      const receipt = await Promise.race([client.answer(rpcId, 'agent-b', redAnswer), client.closed.then(() => undefined)]);
      accepted = receipt?.accepted === true;
    }
    expect(accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
  });
});

describe('a slow reader', () => {
  it('is closed at maxBufferedBytes while the other clients keep receiving and answering every question', async () => {
    const slowConsumers: string[] = [];
    const logger: HostLogger = {
      debug() {},
      info() {},
      warn: (message, fields) => {
        if (message === 'closing a slow consumer') slowConsumers.push(String(fields?.connectionId));
      },
      error() {},
    };
    const testHost = await startHost({ maxBufferedBytes: 64 * 1024, logger });
    const { host, ask, events } = testHost;
    const healthy = await Promise.all([testHost.connect(), testHost.connect(), testHost.connect()]);
    // The slow reader completes its upgrade and then never reads another byte.
    const slow = own(await sendUpgrade(`${host.url}?token=${TOKEN}`));
    slow.socket.pause();
    await until(() => events.filter((event) => event.type === 'connected').length === 4);
    const slowId = (events.filter((event) => event.type === 'connected').at(-1) as { connectionId: string }).connectionId;

    // The first healthy client answers everything as it comes; all three must see every question.
    const answerer = healthy[0]!;
    const big: AskUserQuestionItem = { ...colourQuestion, detail: 'y'.repeat(256 * 1024) };
    const asks: ReturnType<TestHost['ask']>[] = [];
    // Until the kernel buffers in between are full the host cannot tell a slow reader from a fast
    // one; how many questions that takes depends on the OS, so ask until it tells (bounded).
    for (let n = 0; n < 400 && !slowConsumers.includes(slowId); n++) {
      asks.push(ask('agent-a', [big]));
      const requested = await answerer.next('question/requested');
      expect(await answerer.answer(requested.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    }
    expect(slowConsumers).toEqual([slowId]);
    await until(() => events.some((event) => event.type === 'disconnected' && event.connectionId === slowId));

    // Nobody else was cut off, every ask was answered, and everyone saw every question settle (the
    // answerer by its accepted receipts, protocol 2; the others by question/resolved).
    await Promise.all(asks);
    expect(events.filter((event) => event.type === 'disconnected')).toHaveLength(1);
    for (const client of healthy.slice(1)) {
      await until(() => client.all('question/resolved').length === asks.length);
      expect(client.all('question/requested')).toHaveLength(asks.length);
    }
    expect(answerer.all('question/requested')).toHaveLength(asks.length);
    expect(answerer.all('receipt').filter((receipt) => receipt.accepted)).toHaveLength(asks.length);
    await answerer.caughtUp();
    expect(answerer.all('question/resolved')).toEqual([]);
    expect(host.pending()).toEqual([]);
  });
});

describe('host close() under load', () => {
  it('rejects every pending ask ASK_ABORTED, closes every socket and leaves no handle or timer behind', async () => {
    const before = countResources();
    const sessions = Array.from({ length: 10 }, (_, index) => `s${index}`);
    const testHost = await startHost({ authenticate: bySession, closeTimeoutMs: 200 }, sessions);
    const { host, ask, events } = testHost;

    // 100 sockets, 10 per session, each seeing its session's 30 questions.
    const clients = await Promise.all(Array.from({ length: 100 }, (_, index) => testHost.connect({ query: `session=s${index % 10}` })));
    const asks = sessions.flatMap((session) => Array.from({ length: 30 }, () => ask(session, [colourQuestion])));
    await Promise.all(clients.map((client) => until(() => client.all('question/requested').length === 30)));
    // A reader that stopped reading (it will not finish a closing handshake) and a request whose
    // headers never end: neither may hold close() up.
    const stalled = own(await sendUpgrade(`${host.url}?session=s0`));
    stalled.socket.pause();
    const unfinished = own(await tcpConnect(host.url));
    unfinished.socket.write(upgradeRequest(`${host.url}?session=s1`).slice(0, 60));

    // Close while the clients of five sessions are sending answers (some have landed, more are on
    // the wire) and new connections are on their way in. The other five sessions never answer.
    const answering = new Set(['s0', 's1', 's2', 's3', 's4']);
    for (const [index, client] of clients.entries()) {
      const session = `s${index % 10}`;
      if (!answering.has(session)) continue;
      for (const frame of client.all('question/requested')) {
        client.send({ type: 'question/respond', rpcId: frame.rpcId, result: { ok: true, value: { sessionId: session, answer: redAnswer } } });
      }
    }
    const latecomers = Array.from({ length: 10 }, () => RawClient.connect(`${host.url}?session=s2`).then(track, () => undefined));
    await until(() => events.filter((event) => event.type === 'answered').length >= 10);
    await host.close();

    const settled = await Promise.allSettled(asks);
    expect(settled.filter((result) => result.status === 'rejected' && !hasUserQuestionErrorCode(result.reason, 'ASK_ABORTED'))).toEqual([]);
    // Each question settled exactly once: answered before the close, or aborted by it.
    const outcomes = new Map<string, string[]>();
    for (const event of events) {
      if (event.type !== 'answered' && event.type !== 'aborted' && event.type !== 'cancelled') continue;
      outcomes.set(event.rpcId, [...(outcomes.get(event.rpcId) ?? []), event.type]);
    }
    expect(outcomes.size).toBe(asks.length);
    expect([...outcomes.values()].filter((types) => types.length !== 1)).toEqual([]);
    const answered = settled.filter((result) => result.status === 'fulfilled').length;
    expect([...outcomes.values()].filter(([type]) => type === 'answered')).toHaveLength(answered);
    // Both sides of the race happened: answers that won, and (at least) the silent sessions' aborts.
    expect(answered).toBeGreaterThanOrEqual(10);
    expect(asks.length - answered).toBeGreaterThanOrEqual(150);
    expect(host.pending()).toEqual([]);

    // Every greeted socket was closed with 1001; the stalled and unfinished ones were cut (the
    // stalled one reads again only now, to see that it was).
    expect((await Promise.all(clients.map((client) => client.closed))).filter((close) => close.code !== 1001)).toEqual([]);
    stalled.socket.resume();
    await Promise.all([stalled.closed, unfinished.closed]);
    for (const late of await Promise.all(latecomers)) if (late !== undefined) expect([1001, 1006]).toContain((await late.closed).code);

    // Handles go a turn or two after their close callbacks; vitest's own are in `before` too.
    const leftover = () => {
      const now = countResources();
      return ['TCPSocketWrap', 'TCPServerWrap', 'Timeout'].filter((name) => (now[name] ?? 0) > (before[name] ?? 0));
    };
    await until(() => leftover().length === 0, () => `more ${leftover().join(', ')} than before: ${JSON.stringify(countResources())} vs ${JSON.stringify(before)}`);
  });
});

describe('upgrades that are still being authenticated', () => {
  it('reads frames a client pipelined behind its upgrade request once an async authenticate accepts it', async () => {
    const testHost = await startHost({
      token: undefined,
      authenticate: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { id: 'eager', canSee: () => true };
      },
    });
    const url = testHost.host.url;
    const ping = clientFrame('{"type":"ping"}');
    const eager = own(await sendUpgrade(url, Buffer.concat([Buffer.from(upgradeRequest(url)), ping, ping])));
    expect(statusOf(eager.head)).toBe(101);
    let received = eager.rest.toString('latin1');
    eager.socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    await until(() => received.split('{"type":"pong"}').length === 3, () => `received ${JSON.stringify(received)}`);
    expect(received.indexOf('"hello"')).toBeLessThan(received.indexOf('"pong"'));
  });

  // An upgrade socket was once not tracked while `authenticate` ran, so close() (server.close())
  // waited for it: for as long as the lookup took, forever if it never settled.
  it('closes without waiting for an authenticate that has not answered yet', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lookups = 0;
    const testHost = await startHost({
      token: undefined,
      closeTimeoutMs: 0,
      authenticate: async () => {
        lookups++;
        await released; // a session store that does not answer
        return { id: 'late', canSee: () => true };
      },
    });
    const waiting = own(await tcpConnect(testHost.host.url));
    waiting.socket.write(upgradeRequest(testHost.host.url));
    await until(() => lookups === 1);

    const closing = testHost.host.close();
    // close() needs a few milliseconds; the lookup is released after a second either way, so a
    // host that waits for it still finishes (and this test fails) instead of hanging.
    const oneSecond = new Promise<'still closing'>((resolve) => setTimeout(() => resolve('still closing'), 1_000));
    const outcome = await Promise.race([closing.then(() => 'closed' as const), oneSecond]);
    release();
    await closing;
    await waiting.closed;
    expect(outcome).toBe('closed');
  });
  it('answers 503 to an upgrade still being authenticated when the host closes, and the late principal never connects', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lookups = 0;
    const testHost = await startHost({
      token: undefined,
      authenticate: async () => {
        lookups++;
        await released;
        return { id: 'late', canSee: () => true };
      },
    });
    const url = testHost.host.url;
    const waiting = own(await tcpConnect(url));
    let received = '';
    waiting.socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    waiting.socket.write(upgradeRequest(url));
    await until(() => lookups === 1);
    // A host that waits for the lookup would hang: release it after two seconds, and fail.
    let releasedByGuard = false;
    const guard = setTimeout(() => {
      releasedByGuard = true;
      release();
    }, 2_000);
    await testHost.host.close();
    clearTimeout(guard);
    await waiting.closed;
    expect(releasedByGuard).toBe(false);
    expect(statusOf(received)).toBe(503);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(testHost.events.filter((event) => event.type === 'connected')).toEqual([]);
  });
});

describe('garbage where an HTTP upgrade belongs', () => {
  it('drops connections that send random bytes instead of HTTP and keeps serving', async () => {
    const testHost = await startHost();
    const random = seededRandom(7);
    const inputs: Buffer[] = [
      // A TLS ClientHello sent to a plain-text port, a lone NUL, and raw binary.
      Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]),
      Buffer.from([0]),
      ...Array.from({ length: 30 }, () => {
        const bytes = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 2048) }, () => Math.floor(random() * 256)));
        // A control byte first, so the parser cannot read it as the start of a method and wait for more.
        bytes[0] = Math.floor(random() * 9);
        return bytes;
      }),
      // A request line, then header bytes no HTTP parser accepts.
      Buffer.concat([Buffer.from('GET /askseam HTTP/1.1\r\nHost: x\r\n'), Buffer.from([0x7f, 0x00, 0x0d, 0x0a, 0xff, 0x3a, 0x0d, 0x0a, 0x0d, 0x0a])]),
    ];
    const sockets = await Promise.all(inputs.map(() => tcpConnect(testHost.host.url).then(own)));
    sockets.forEach(({ socket }, index) => socket.write(inputs[index]!));
    // The host hangs up on every one of them by itself (our side never ends the connection).
    await Promise.all(sockets.map(({ closed }) => closed));
    expect(testHost.events.filter((event) => event.type === 'connected')).toEqual([]);
    await stillServes(testHost);
  });

  it('refuses an upgrade whose headers are bigger than Node accepts with 431, and keeps serving', async () => {
    const testHost = await startHost();
    const url = `${testHost.host.url}?token=${TOKEN}`;
    const hugeHeader = own(await sendUpgrade(url, upgradeRequest(url, [`X-Junk: ${'a'.repeat(64 * 1024)}`])));
    const hugeUrl = own(await sendUpgrade(url, upgradeRequest(`${url}&pad=${'b'.repeat(64 * 1024)}`)));
    const manyHeaders = own(await sendUpgrade(url, upgradeRequest(url, Array.from({ length: 4000 }, (_, index) => `X-H${index}: v`))));
    expect([hugeHeader, hugeUrl, manyHeaders].map((upgraded: UpgradedSocket) => statusOf(upgraded.head))).toEqual([431, 431, 431]);
    await Promise.all([hugeHeader.closed, hugeUrl.closed, manyHeaders.closed]);
    expect(testHost.events.filter((event) => event.type === 'connected')).toEqual([]);

    // Large but within the limit is an ordinary upgrade.
    const largeCookie = own(await sendUpgrade(url, upgradeRequest(url, [`Cookie: c=${'c'.repeat(8 * 1024)}`])));
    expect(statusOf(largeCookie.head)).toBe(101);
    await stillServes(testHost);
  });
});
