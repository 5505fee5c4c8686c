// Over 400 lines: one suite of end-to-end host behaviours (real host, real sockets) that share one fixture; split by behaviour when it next grows.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROTOCOL_VERSION } from '@askseam/protocol';
import type { JsonValue, QuestionRecord, QuestionStore } from '@askseam/store';
import { UserQuestions, hasUserQuestionErrorCode, type UserQuestionProvider } from '@askseam/user-questions';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { colourQuestion, cleanup, redAnswer, rootAgents, startHost, TOKEN, type TestHost } from '../test/fixture.js';
import { RawClient } from '../test/raw-client.js';
import {
  createWebSocketHost,
  type DetachedAskRequest,
  type HostPendingQuestion,
  type Principal,
  type WebSocketHost,
  type WebSocketHostOptions,
} from './index.js';

afterEach(cleanup);

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Principals that each see exactly one session, named by `?as=<session>` (a stand-in for real auth). */
function perSessionAuth(req: import('node:http').IncomingMessage): Principal | undefined {
  const session = new URL(req.url ?? '/', 'http://x').searchParams.get('as');
  if (session === null) return undefined;
  return { id: `user-of-${session}`, canSee: (id) => id === session, sessions: [session] };
}

async function startPerSessionHost(): Promise<TestHost> {
  return startHost({ token: undefined, authenticate: perSessionAuth });
}

describe('provider registration', () => {
  it('registers itself as the provider of the seam and unregisters on close', async () => {
    const { host, userQuestions } = await startHost();
    expect(userQuestions.hasProvider).toBe(true);
    await host.close();
    expect(userQuestions.hasProvider).toBe(false);
  });

  it('fails with DUPLICATE_PROVIDER when the seam already has a provider, without opening a port', async () => {
    const userQuestions = new UserQuestions();
    userQuestions.registerProvider({ ask: async () => ({ answers: [] }) });
    const error = await createWebSocketHost({ userQuestions, token: TOKEN }).catch((e: unknown) => e);
    expect(hasUserQuestionErrorCode(error, 'DUPLICATE_PROVIDER')).toBe(true);
  });

  it('reports its ws:// url without the token, on 127.0.0.1 and the chosen port', async () => {
    const { host } = await startHost();
    expect(host.url).toBe(`ws://127.0.0.1:${host.port}/askseam`);
    expect(host.port).toBeGreaterThan(0);
  });
});

describe('asking and answering', () => {
  it('greets a new connection with hello carrying the protocol version and an empty pending list', async () => {
    const { connect } = await startHost();
    const client = await connect();
    expect(await client.next('hello')).toEqual({ type: 'hello', protocol: PROTOCOL_VERSION, pending: [] });
  });

  it('delivers a question to a connected client and resolves the ask with its answer', async () => {
    const { connect, ask } = await startHost();
    const client = await connect();
    const watcher = await connect();
    await client.next('hello');
    const asking = ask('agent-a');

    const requested = await client.next('question/requested');
    expect(requested.rpcId).toMatch(uuid);
    expect(requested.sessionId).toBe('agent-a');
    expect(requested.questions).toEqual([colourQuestion]);
    expect(new Date(requested.askedAt).toISOString()).toBe(requested.askedAt);

    const receipt = await client.answer(requested.rpcId, 'agent-a', redAnswer);
    expect(receipt).toEqual({ type: 'receipt', id: receipt.id, rpcId: requested.rpcId, accepted: true });
    // Every other connection of the session is told; the answering one has its receipt instead (protocol 2).
    expect(await watcher.next('question/resolved')).toEqual({ type: 'question/resolved', rpcId: requested.rpcId, sessionId: 'agent-a', outcome: 'answered' });
    await client.caughtUp();
    expect(client.all('question/resolved')).toEqual([]);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('lists pending questions with rpcId, session, questions and askedAt until they are answered', async () => {
    const { host, connect, ask } = await startHost();
    const asking = ask('agent-b');
    const client = await connect();
    const requested = await client.next('question/requested');
    expect(host.pending()).toEqual([{ rpcId: requested.rpcId, sessionId: 'agent-b', questions: [colourQuestion], askedAt: requested.askedAt }]);
    await client.answer(requested.rpcId, 'agent-b', redAnswer);
    await asking;
    expect(host.pending()).toEqual([]);
  });

  it('sends only the contract fields of a question on the wire', async () => {
    const { connect, ask } = await startHost();
    const client = await connect();
    const extra = { ...colourQuestion, secret: 'internal' } as typeof colourQuestion;
    void ask('agent-a', [extra]).settled;
    const requested = await client.next('question/requested');
    expect(requested.questions[0]).not.toHaveProperty('secret');
  });

  it('rejects a request without an agent with ASK_MISSING_AGENT and queues nothing', async () => {
    const { host, userQuestions, events } = await startHost();
    const error = await userQuestions.ask({ questions: [colourQuestion] }).catch((e: unknown) => e);
    expect(hasUserQuestionErrorCode(error, 'ASK_MISSING_AGENT')).toBe(true);
    expect(host.pending()).toEqual([]);
    expect(events.filter((event) => event.type === 'asked')).toEqual([]);
  });

  it('rejects the ask with ASK_CANCELLED when the user dismisses it, and tells every other client it is resolved', async () => {
    const { connect, ask } = await startHost();
    const client = await connect();
    const watcher = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    const receipt = await client.respond(rpcId, { ok: false, error: { code: 'cancelled', message: 'not now' } });
    expect(receipt.accepted).toBe(true);
    expect(await watcher.next('question/resolved')).toMatchObject({ rpcId, outcome: 'cancelled' });
    await client.caughtUp();
    expect(client.all('question/resolved')).toEqual([]);
    const settled = await asking.settled;
    expect(settled.ok).toBe(false);
    expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_CANCELLED')).toBe(true);
  });

  it('on abort while waiting, tells clients the question is cancelled and rejects ASK_ABORTED', async () => {
    const { host, connect, ask } = await startHost();
    const client = await connect();
    const controller = new AbortController();
    const asking = ask('agent-a', [colourQuestion], { signal: controller.signal });
    const { rpcId } = await client.next('question/requested');
    controller.abort();
    expect(await client.next('question/resolved')).toMatchObject({ rpcId, outcome: 'cancelled' });
    const settled = await asking.settled;
    expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_ABORTED')).toBe(true);
    expect(host.pending()).toEqual([]);
    expect((await client.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } })).accepted).toBe(false);
  });

  it('on the seam timeout, withdraws the question from clients and the ask rejects ASK_TIMEOUT', async () => {
    const { host, connect, ask } = await startHost();
    const client = await connect();
    const asking = ask('agent-a', [colourQuestion], { timeoutMs: 50 });
    const { rpcId } = await client.next('question/requested');
    expect(await client.next('question/resolved')).toMatchObject({ rpcId, outcome: 'cancelled' });
    const settled = await asking.settled;
    expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_TIMEOUT')).toBe(true);
    expect(host.pending()).toEqual([]);
  });

  it('reports asked, delivered and answered events for one exchange', async () => {
    const { connect, ask, event } = await startHost();
    const client = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    await client.answer(rpcId, 'agent-a', redAnswer);
    await asking;
    expect(await event('asked')).toMatchObject({ rpcId, sessionId: 'agent-a', questions: [colourQuestion] });
    expect(await event('delivered')).toMatchObject({ rpcId, replay: false });
    expect(await event('answered')).toMatchObject({ rpcId, sessionId: 'agent-a', principalId: 'token', answer: redAnswer });
  });
});

describe('replay', () => {
  it('replays a pending question with its original rpcId to a client that reconnects', async () => {
    const { connect, ask } = await startHost();
    const asking = ask('agent-a');
    const first = await connect();
    const original = await first.next('question/requested');
    await first.close();

    const second = await connect();
    expect(await second.next('hello')).toMatchObject({ pending: [original.rpcId] });
    const replayed = await second.next('question/requested');
    expect(replayed).toEqual(original);
    await second.answer(replayed.rpcId, 'agent-a', redAnswer);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('keeps a question pending when its client vanishes mid-question, and replays it to the next connection', async () => {
    const { host, connect, ask, event } = await startHost();
    const first = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await first.next('question/requested');
    first.socket.terminate();
    await event('disconnected');
    expect(host.pending().map((question) => question.rpcId)).toEqual([rpcId]);

    const next = await connect();
    expect((await next.next('question/requested')).rpcId).toBe(rpcId);
    await next.answer(rpcId, 'agent-a', redAnswer);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('replays pending questions in the order they were asked, after a hello that lists them', async () => {
    const { connect, ask } = await startHost();
    void ask('agent-b').settled;
    void ask('agent-a').settled;
    void ask('agent-b').settled;
    await new Promise((resolve) => setImmediate(resolve));
    const client = await connect();
    const hello = await client.next('hello');
    const replayed = [await client.next('question/requested'), await client.next('question/requested'), await client.next('question/requested')];
    expect(replayed.map((frame) => frame.sessionId)).toEqual(['agent-b', 'agent-a', 'agent-b']);
    expect(hello.pending).toEqual(replayed.map((frame) => frame.rpcId));
  });
});

describe('sessions', () => {
  it('lets the first of two clients of one session answer; the second gets not-pending and resolved, the first its receipt alone', async () => {
    const { connect, ask } = await startHost();
    const one = await connect();
    const two = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await one.next('question/requested');
    await two.next('question/requested');

    // Sent back to back: the second is judged after the first has claimed the question.
    one.send({ type: 'question/respond', id: 'first', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } });
    two.send({ type: 'question/respond', id: 'second', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: ['Blue'] }] } } } });
    expect(await one.next('receipt')).toMatchObject({ id: 'first', accepted: true });
    expect(await two.next('receipt')).toMatchObject({ id: 'second', accepted: false, reason: 'not-pending' });
    expect(await two.next('question/resolved')).toMatchObject({ rpcId, outcome: 'answered' });
    await one.caughtUp();
    expect(one.all('question/resolved')).toEqual([]);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('delivers a question only to connections whose principal may see its session', async () => {
    const { connect, ask } = await startPerSessionHost();
    const ofA = await connect({ query: 'as=agent-a' });
    const ofB = await connect({ query: 'as=agent-b' });
    void ask('agent-a').settled;
    void ask('agent-b').settled;
    const forA = await ofA.next('question/requested');
    const forB = await ofB.next('question/requested');
    expect(forA.sessionId).toBe('agent-a');
    expect(forB.sessionId).toBe('agent-b');
    // Both asks were delivered in order before B's own question arrived, so nothing else can still be in flight.
    expect(ofB.all('question/requested')).toEqual([forB]);
    expect(ofA.all('question/requested')).toEqual([forA]);
  });

  it('greets a principal with its sessions and replays only the questions of those sessions', async () => {
    const { connect, ask } = await startPerSessionHost();
    void ask('agent-a').settled;
    void ask('agent-b').settled;
    await new Promise((resolve) => setImmediate(resolve));
    const ofB = await connect({ query: 'as=agent-b' });
    const hello = await ofB.next('hello');
    const replayed = await ofB.next('question/requested');
    expect(hello).toEqual({ type: 'hello', protocol: PROTOCOL_VERSION, sessions: ['agent-b'], pending: [replayed.rpcId] });
    expect(replayed.sessionId).toBe('agent-b');
  });

  it('replays every question canSee accepts even when principal.sessions leaves one out (sessions is a hint)', async () => {
    // Sees both sessions, but lists only one, as an app that forgot a shared session might.
    const { connect, ask } = await startHost({ token: undefined, authenticate: () => ({ id: 'partial', canSee: () => true, sessions: ['agent-a'] }) });
    void ask('agent-b').settled;
    void ask('agent-a').settled;
    await new Promise((resolve) => setImmediate(resolve));
    const client = await connect({ query: '' });
    const hello = await client.next('hello');
    const replayed = [await client.next('question/requested'), await client.next('question/requested')];
    expect(replayed.map((frame) => frame.sessionId)).toEqual(['agent-b', 'agent-a']);
    expect(hello).toEqual({ type: 'hello', protocol: PROTOCOL_VERSION, sessions: ['agent-a'], pending: replayed.map((frame) => frame.rpcId) });
  });

  it('replays only the listed sessions of a principal that declares them exhaustive, and still asks canSee', async () => {
    const { connect, ask } = await startHost({
      token: undefined,
      authenticate: () => ({ id: 'listed', canSee: (id) => id !== 'agent-c', sessions: ['agent-a', 'agent-c'], sessionsExhaustive: true }),
    }, ['agent-a', 'agent-b', 'agent-c']);
    void ask('agent-b').settled;
    void ask('agent-c').settled;
    void ask('agent-a').settled;
    await new Promise((resolve) => setImmediate(resolve));
    const client = await connect({ query: '' });
    const hello = await client.next('hello');
    const replayed = await client.next('question/requested');
    expect(replayed.sessionId).toBe('agent-a');
    expect(hello).toMatchObject({ pending: [replayed.rpcId] });
  });

  it('refuses an answer from a connection that cannot see the session (forbidden) and keeps the question pending', async () => {
    const { host, connect, ask } = await startPerSessionHost();
    const ofA = await connect({ query: 'as=agent-a' });
    const ofB = await connect({ query: 'as=agent-b' });
    const asking = ask('agent-a');
    const { rpcId } = await ofA.next('question/requested');
    expect(await ofB.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ rpcId, accepted: false, reason: 'forbidden' });
    expect(host.pending()).toHaveLength(1);
    await ofA.answer(rpcId, 'agent-a', redAnswer);
    await expect(asking).resolves.toEqual(redAnswer);
    // The outsider was never told about the question, not even that it was resolved.
    expect(ofB.frames.map((frame) => frame.type)).toEqual(['hello', 'receipt']);
  });

  it('treats a principal whose canSee throws as seeing nothing', async () => {
    const { connect, ask } = await startHost({
      token: undefined,
      authenticate: () => ({
        id: 'broken',
        canSee: () => {
          throw new Error('directory down');
        },
      }),
    });
    const client = await connect({ query: '' });
    void ask('agent-a').settled;
    const other = await connect({ query: '' });
    expect(await other.next('hello')).toMatchObject({ pending: [] });
    expect(client.all('question/requested')).toEqual([]);
  });
});

describe('delivery cost', () => {
  it('asks canSee only of the connections whose exhaustive sessions include the question\'s session', async () => {
    const sessions = Array.from({ length: 20 }, (_, index) => `s${index}`);
    const asked: string[] = [];
    const { connect, ask } = await startHost(
      {
        token: undefined,
        authenticate: (req) => {
          const session = new URL(req.url ?? '/', 'http://x').searchParams.get('as') ?? '';
          return {
            id: `user-of-${session}`,
            canSee: (id) => {
              asked.push(`${session}:${id}`);
              return id === session;
            },
            sessions: [session],
            sessionsExhaustive: true,
          };
        },
      },
      sessions,
    );
    const clients = await Promise.all(sessions.map((session) => connect({ query: `as=${session}` })));
    await Promise.all(clients.map((client) => client.next('hello')));
    asked.length = 0;
    const asking = ask('s7');
    const { rpcId } = await clients[7]!.next('question/requested');
    expect(await clients[7]!.answer(rpcId, 's7', redAnswer)).toMatchObject({ accepted: true });
    await asking;
    // Delivery, the respond check and the resolution: each asked the one connection of s7.
    expect(new Set(asked)).toEqual(new Set(['s7:s7']));
    expect(asked).toHaveLength(3);
  });

  it('sends the answering socket its receipt alone, in one write (protocol 2: no question/resolved after it)', async () => {
    const server = createServer();
    const writes: string[] = [];
    let watching = false;
    server.prependListener('upgrade', (_req, socket: import('node:net').Socket) => {
      // Node's own write entry points on this very socket, counted while the answer is judged.
      const write = socket._write.bind(socket);
      const writev = socket._writev?.bind(socket);
      socket._write = (chunk, encoding, callback) => {
        if (watching) writes.push('write');
        write(chunk, encoding, callback);
      };
      if (writev !== undefined) {
        socket._writev = (chunks, callback) => {
          if (watching) writes.push(`writev(${chunks.length})`);
          writev(chunks, callback);
        };
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { connect, ask } = await startHost({ server, port: undefined });
      const client = await connect();
      const asking = ask('agent-a');
      const { rpcId } = await client.next('question/requested');
      watching = true;
      client.send({ type: 'question/respond', id: 'one-write', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } });
      await client.next('receipt');
      await asking;
      watching = false;
      await client.caughtUp();
      expect(writes).toHaveLength(1);
      expect(client.frames.slice(-2).map((frame) => frame.type)).toEqual(['receipt', 'pong']);
    } finally {
      await cleanup();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('close', () => {
  it('rejects every pending ask with ASK_ABORTED and closes sockets with 1001', async () => {
    const { host, connect, ask } = await startHost();
    const client = await connect();
    const first = ask('agent-a');
    const second = ask('agent-b');
    await client.next('question/requested');
    await client.next('question/requested');
    await host.close();
    for (const asking of [first, second]) {
      const settled = await asking.settled;
      expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_ABORTED')).toBe(true);
    }
    expect((await client.closed).code).toBe(1001);
    expect(host.pending()).toEqual([]);
  });

  it('stops listening on its own port, so a new connection is refused', async () => {
    const { host } = await startHost();
    const url = `${host.url}?token=${TOKEN}`;
    await host.close();
    await expect(RawClient.connect(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('leaves no server socket or timer behind', async () => {
    const count = (name: string) => process.getActiveResourcesInfo().filter((resource) => resource === name).length;
    // Let handles of earlier tests finish closing before counting.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = { servers: count('TCPServerWrap'), sockets: count('TCPSocketWrap'), timers: count('Timeout') };
    const { host, connect, ask } = await startHost();
    const client = await connect();
    void ask('agent-a').settled;
    await client.next('question/requested');
    await host.close();
    await client.closed;
    // Handles are released a loop turn or two after their close callbacks.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect({ servers: count('TCPServerWrap'), sockets: count('TCPSocketWrap'), timers: count('Timeout') }).toEqual(before);
  });

  it('is idempotent: every call settles with the one close, and nothing is closed or rejected twice', async () => {
    const { host, connect, ask, events, userQuestions } = await startHost();
    const client = await connect();
    const asking = ask('agent-a');
    await client.next('question/requested');

    const first = host.close();
    const second = host.close();
    expect(second).toBe(first);
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
    const third = host.close();
    expect(third).toBe(first);
    await expect(third).resolves.toBeUndefined();

    const settled = await asking.settled;
    expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_ABORTED')).toBe(true);
    expect(events.filter((event) => event.type === 'aborted')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'disconnected')).toHaveLength(1);
    expect((await client.closed).code).toBe(1001);
    expect(client.all('question/resolved')).toHaveLength(1);
    expect(userQuestions.hasProvider).toBe(false);
  });

  it('rejects an ask made through a provider reference after close with ASK_ABORTED', async () => {
    const agents = rootAgents('agent-a');
    // A seam that keeps the provider it was given, like a caller holding on to it past close().
    class KeepingSeam extends UserQuestions {
      provider: UserQuestionProvider | undefined;
      override registerProvider(provider: UserQuestionProvider): () => void {
        this.provider = provider;
        return super.registerProvider(provider);
      }
    }
    const seam = new KeepingSeam({ agents: agents.registry });
    const host = await createWebSocketHost({ userQuestions: seam, token: TOKEN });
    const provider = seam.provider;
    await host.close();
    const error = await provider!.ask({ questions: [colourQuestion], agent: agents.agent('agent-a') }).catch((e: unknown) => e);
    expect(hasUserQuestionErrorCode(error, 'ASK_ABORTED')).toBe(true);
  });
});

describe('attached to an existing http.Server', () => {
  let server: Server;
  let other: WebSocketServer;

  async function startAppServer(): Promise<string> {
    server = createServer((req, res) => res.end(`page ${req.url}`));
    other = new WebSocketServer({ noServer: true });
    other.on('connection', (socket) => socket.send('from the other endpoint'));
    server.on('upgrade', (req, socket, head) => {
      if (req.url === '/other') other.handleUpgrade(req, socket, head, (ws) => other.emit('connection', ws, req));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  afterEach(async () => {
    // The host and its clients first: the app server's close waits for their sockets.
    await cleanup();
    for (const client of other.clients) client.terminate();
    await new Promise((resolve) => other.close(resolve));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('serves questions on its path while other upgrade paths and plain requests keep working', async () => {
    const base = await startAppServer();
    const { host, connect, ask } = await startHost({ server, port: undefined, path: '/questions' });
    expect(host.url).toBe(`ws://${base}/questions`);

    const client = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    await client.answer(rpcId, 'agent-a', redAnswer);
    await expect(asking).resolves.toEqual(redAnswer);

    const otherSocket = new WebSocket(`ws://${base}/other`);
    const greeting = await new Promise<string>((resolve, reject) => {
      otherSocket.once('message', (data) => resolve(data.toString()));
      otherSocket.once('error', reject);
    });
    otherSocket.terminate();
    expect(greeting).toBe('from the other endpoint');
    expect(await (await fetch(`http://${base}/page`)).text()).toBe('page /page');
  });

  it('reads its url from an attached server that starts listening after the host was created', async () => {
    server = createServer();
    other = new WebSocketServer({ noServer: true });
    const { host } = await startHost({ server, port: undefined });
    expect(() => host.url).toThrow(expect.objectContaining({ code: 'NOT_LISTENING' }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    expect(host.url).toBe(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/askseam`);
  });

  it('on close removes its upgrade listener and leaves the server listening', async () => {
    const base = await startAppServer();
    const listenersBefore = server.listenerCount('upgrade');
    const { host, connect } = await startHost({ server, port: undefined });
    expect(server.listenerCount('upgrade')).toBe(listenersBefore + 1);
    const client = await connect();
    await host.close();
    expect((await client.closed).code).toBe(1001);
    expect(server.listenerCount('upgrade')).toBe(listenersBefore);
    expect(server.listening).toBe(true);
    expect(await (await fetch(`http://${base}/page`)).text()).toBe('page /page');
  });
});

describe('public types', () => {
  it('keeps the agreed shape of WebSocketHost', () => {
    expectTypeOf<WebSocketHost['url']>().toEqualTypeOf<string>();
    expectTypeOf<WebSocketHost['port']>().toEqualTypeOf<number>();
    expectTypeOf<WebSocketHost['pending']>().returns.toEqualTypeOf<HostPendingQuestion[]>();
    expectTypeOf<WebSocketHost['close']>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf<Principal['canSee']>().toEqualTypeOf<(sessionId: string) => boolean>();
    expectTypeOf<Principal['sessions']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Principal['sessionsExhaustive']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf(createWebSocketHost).returns.resolves.toEqualTypeOf<WebSocketHost>();
  });

  it('keeps the agreed shape of the durable additions', () => {
    expectTypeOf<WebSocketHost['askDetached']>().parameter(0).toEqualTypeOf<DetachedAskRequest>();
    expectTypeOf<WebSocketHost['askDetached']>().returns.toEqualTypeOf<Promise<{ rpcId: string }>>();
    expectTypeOf<WebSocketHost['handleRequest']>().returns.toEqualTypeOf<boolean>();
    expectTypeOf<WebSocketHost['store']>().toEqualTypeOf<QuestionStore>();
    expectTypeOf<NonNullable<WebSocketHostOptions['onResume']>>().parameter(0).toEqualTypeOf<QuestionRecord>();
    expectTypeOf<NonNullable<WebSocketHostOptions['notify']>>().parameter(0).toEqualTypeOf<QuestionRecord>();
    expectTypeOf<DetachedAskRequest['state']>().toEqualTypeOf<JsonValue | undefined>();
  });
});
