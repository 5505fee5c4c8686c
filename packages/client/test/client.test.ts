// The client against a real `ws` server on 127.0.0.1:0 that plays the host's part frame by frame.
import { DEFAULT_CLIENT_HEARTBEAT_MS, DEFAULT_HOST_HEARTBEAT_MS, PROTOCOL_VERSION } from '@askseam/protocol';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import {
  QuestionClientError,
  connectQuestions,
  type ConnectQuestionsOptions,
  type PendingQuestion,
  type QuestionClient,
  type QuestionResolvedEvent,
} from '../src/index.js';
import { nextEvent, recordStatuses } from './events.js';
import { startScriptedHost, type ScriptedConnection, type ScriptedHost } from './scripted-host.js';

const questions: AskUserQuestionItem[] = [
  {
    id: 'db',
    question: 'Which database should the service use?',
    options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }],
  },
];
const goodAnswer = { answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }] };

function requested(rpcId: string, sessionId = 'agent-1') {
  return { type: 'question/requested', rpcId, sessionId, questions, askedAt: '2026-01-02T03:04:05.000Z' };
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function scriptedHost(options?: Parameters<typeof startScriptedHost>[0]): Promise<ScriptedHost> {
  const host = await startScriptedHost(options);
  cleanups.push(() => host.close());
  return host;
}

function connect(host: ScriptedHost, options: Partial<ConnectQuestionsOptions> = {}): QuestionClient {
  const client = connectQuestions({ url: host.url, WebSocket, reconnect: { initialDelayMs: 10, maxDelayMs: 40 }, ...options });
  cleanups.push(() => client.close());
  return client;
}

/** Connect, greet with `hello`, and wait until the client reports `open`. */
async function openClient(
  host: ScriptedHost,
  options: Partial<ConnectQuestionsOptions> = {},
): Promise<{ client: QuestionClient; connection: ScriptedConnection }> {
  const client = connect(host, options);
  const connection = await host.nextConnection();
  const open = nextEvent(client, 'status', (status) => status === 'open');
  connection.send({ type: 'hello', protocol: PROTOCOL_VERSION, pending: [] });
  await open;
  return { client, connection };
}

/** Send a requested frame and wait until the client holds the question. */
async function ask(client: QuestionClient, connection: ScriptedConnection, rpcId: string): Promise<PendingQuestion> {
  const seen = nextEvent(client, 'requested', (question) => question.rpcId === rpcId);
  connection.send(requested(rpcId));
  return seen;
}

/** Drop the connection from the host side and greet the client's next one with `pending`. */
async function reconnectWith(host: ScriptedHost, client: QuestionClient, old: ScriptedConnection, pending?: string[]): Promise<ScriptedConnection> {
  old.terminate();
  const connection = await host.nextConnection();
  const open = nextEvent(client, 'status', (status) => status === 'open');
  connection.send(pending === undefined ? { type: 'hello', protocol: PROTOCOL_VERSION } : { type: 'hello', protocol: PROTOCOL_VERSION, pending });
  await open;
  return connection;
}

describe('connecting', () => {
  it('puts the token on the URL, encoded, and keeps the other query parameters', async () => {
    const host = await scriptedHost();
    connect(host, { url: `${host.url}?room=blue%20team`, token: 'sé cret&x=1' });
    const connection = await host.nextConnection();
    expect(connection.url.pathname).toBe('/askseam');
    expect(connection.url.searchParams.get('token')).toBe('sé cret&x=1');
    expect(connection.url.searchParams.get('room')).toBe('blue team');
    expect(connection.url.searchParams.has('x')).toBe(false);
  });

  it('reports connecting, then open once the host says hello', async () => {
    const host = await scriptedHost();
    const client = connect(host);
    const statuses = recordStatuses(client);
    expect(client.status).toBe('connecting');
    const connection = await host.nextConnection();
    expect(client.status).toBe('connecting');
    const open = nextEvent(client, 'status', (status) => status === 'open');
    connection.send({ type: 'hello', protocol: PROTOCOL_VERSION });
    await open;
    expect(statuses).toEqual(['open']);
  });

  it('answers a ping from the host with a pong', async () => {
    const host = await scriptedHost();
    const { connection } = await openClient(host);
    connection.send({ type: 'ping' });
    expect(await connection.nextFrameOfType('pong')).toEqual({ type: 'pong' });
  });

  it('refuses a URL that is not a WebSocket URL', () => {
    expect(() => connectQuestions({ url: 'ftp://127.0.0.1/askseam', WebSocket })).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
    expect(() => connectQuestions({ url: '/askseam', WebSocket })).toThrow(expect.objectContaining({ code: 'invalid-options' }));
  });

  it.skipIf(typeof (globalThis as { WebSocket?: unknown }).WebSocket !== 'undefined')(
    'asks for a WebSocket constructor on a runtime without a global one',
    () => {
      expect(() => connectQuestions({ url: 'ws://127.0.0.1:1/askseam' })).toThrow(expect.objectContaining({ code: 'invalid-options' }));
    },
  );

  it('reports a refused upgrade (wrong token) as connection-failed and keeps retrying', async () => {
    const host = await scriptedHost({ token: 'right' });
    const client = connect(host, { token: 'wrong' });
    const statuses = recordStatuses(client);
    const failure = await nextEvent(client, 'error');
    expect(failure.code).toBe('connection-failed');
    expect(failure.detail).toContain('401');
    await vi.waitFor(() => expect(host.requests.length).toBeGreaterThanOrEqual(2));
    expect(host.connectionCount).toBe(0);
    expect(client.status).toBe('reconnecting');
    expect(statuses).not.toContain('open');
  });
});

describe('the pending map', () => {
  it('adds a requested question and fires requested with it', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const question = await ask(client, connection, 'rpc-1');
    expect(question).toMatchObject({ rpcId: 'rpc-1', sessionId: 'agent-1', questions, askedAt: '2026-01-02T03:04:05.000Z' });
    expect(client.pending.get('rpc-1')).toBe(question);
  });

  it('carries the urgency the host sent on the pending question', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const seen = nextEvent(client, 'requested', (question) => question.rpcId === 'rpc-urgent');
    connection.send({ ...requested('rpc-urgent'), urgency: 'high' });
    expect((await seen).urgency).toBe('high');
  });

  it('leaves urgency out when the host sent none, and reads a level it does not know as medium', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const plain = await ask(client, connection, 'rpc-plain');
    expect('urgency' in plain).toBe(false);
    const seen = nextEvent(client, 'requested', (question) => question.rpcId === 'rpc-newer');
    connection.send({ ...requested('rpc-newer'), urgency: 'critical' });
    expect((await seen).urgency).toBe('medium');
  });

  it('keeps the same object and fires nothing when a known rpcId is replayed after a reconnect', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const question = await ask(client, connection, 'rpc-1');
    const requestedIds: string[] = [];
    client.on('requested', (q) => requestedIds.push(q.rpcId));

    const again = await reconnectWith(host, client, connection, ['rpc-1']);
    again.send(requested('rpc-1'));
    await ask(client, again, 'rpc-2'); // frames arrive in order: once rpc-2 is in, the replay was handled

    expect(client.pending.get('rpc-1')).toBe(question);
    expect(requestedIds).toEqual(['rpc-2']);
  });

  it('removes a question on question/resolved and fires resolved with its outcome', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await ask(client, connection, 'rpc-1');
    const resolved = nextEvent(client, 'resolved');
    connection.send({ type: 'question/resolved', rpcId: 'rpc-1', sessionId: 'agent-1', outcome: 'cancelled' });
    expect(await resolved).toEqual({ rpcId: 'rpc-1', sessionId: 'agent-1', outcome: 'cancelled' });
    expect(client.pending.has('rpc-1')).toBe(false);
  });

  it('ignores question/resolved for an rpcId it never held', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const outcomes: QuestionResolvedEvent[] = [];
    client.on('resolved', (event) => outcomes.push(event));
    connection.send({ type: 'question/resolved', rpcId: 'stranger', sessionId: 'agent-1', outcome: 'answered' });
    await ask(client, connection, 'rpc-1');
    expect(outcomes).toEqual([]);
  });

  it('drops held questions the hello after a reconnect no longer lists, with outcome gone', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const kept = await ask(client, connection, 'rpc-kept');
    await ask(client, connection, 'rpc-gone');
    const outcomes: QuestionResolvedEvent[] = [];
    client.on('resolved', (event) => outcomes.push(event));

    await reconnectWith(host, client, connection, ['rpc-kept']);

    expect(outcomes).toEqual([{ rpcId: 'rpc-gone', sessionId: 'agent-1', outcome: 'gone' }]);
    expect([...client.pending.keys()]).toEqual(['rpc-kept']);
    expect(client.pending.get('rpc-kept')).toBe(kept);
  });

  it('keeps every held question when the hello after a reconnect has no pending list', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await ask(client, connection, 'rpc-1');
    const outcomes: QuestionResolvedEvent[] = [];
    client.on('resolved', (event) => outcomes.push(event));

    await reconnectWith(host, client, connection, undefined);

    expect([...client.pending.keys()]).toEqual(['rpc-1']);
    expect(outcomes).toEqual([]);
  });

  it('keeps the questions it holds while it is disconnected', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await ask(client, connection, 'rpc-1');
    const reconnecting = nextEvent(client, 'status', (status) => status === 'reconnecting');
    connection.terminate();
    await reconnecting;
    expect([...client.pending.keys()]).toEqual(['rpc-1']);
  });
});

describe('answer and cancel', () => {
  it('sends the answer with the session and an id, and resolves with the accepted receipt', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await ask(client, connection, 'rpc-1');

    const result = client.answer('rpc-1', goodAnswer);
    const frame = await connection.nextFrameOfType('question/respond');
    expect(frame).toEqual({
      type: 'question/respond',
      id: expect.any(String),
      rpcId: 'rpc-1',
      result: { ok: true, value: { sessionId: 'agent-1', answer: goodAnswer } },
    });
    connection.send({ type: 'receipt', id: frame.id, rpcId: 'rpc-1', accepted: true });
    await expect(result).resolves.toEqual({ rpcId: 'rpc-1', accepted: true });
  });

  it('drops the question on the accepted receipt of its own answer and fires resolved once (protocol 2: no question/resolved follows)', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const question = await ask(client, connection, 'rpc-1');
    const resolved: unknown[] = [];
    client.on('resolved', (event) => resolved.push(event));
    const result = question.answer(goodAnswer);
    const frame = await connection.nextFrameOfType('question/respond');
    expect(client.pending.get('rpc-1')).toBe(question);
    connection.send({ type: 'receipt', id: frame.id, rpcId: 'rpc-1', accepted: true });
    await result;
    expect(client.pending.has('rpc-1')).toBe(false);
    expect(resolved).toEqual([{ rpcId: 'rpc-1', sessionId: 'agent-1', outcome: 'answered' }]);
    // A host that sends question/resolved anyway (another path, a race) changes nothing more.
    connection.send({ type: 'question/resolved', rpcId: 'rpc-1', sessionId: 'agent-1', outcome: 'answered' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resolved).toHaveLength(1);
  });

  it('drops a cancelled question on the accepted receipt of its own cancel, as cancelled', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const question = await ask(client, connection, 'rpc-1');
    const resolved = nextEvent(client, 'resolved');
    const result = question.cancel();
    const frame = await connection.nextFrameOfType('question/respond');
    connection.send({ type: 'receipt', id: frame.id, rpcId: 'rpc-1', accepted: true });
    await result;
    expect(await resolved).toEqual({ rpcId: 'rpc-1', sessionId: 'agent-1', outcome: 'cancelled' });
    expect(client.pending.has('rpc-1')).toBe(false);
  });

  it('keeps the question in the map after a refused receipt', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const question = await ask(client, connection, 'rpc-1');
    const result = question.answer(goodAnswer);
    const frame = await connection.nextFrameOfType('question/respond');
    connection.send({ type: 'receipt', id: frame.id, rpcId: 'rpc-1', accepted: false, reason: 'bad-response', detail: 'no' });
    await result.catch(() => undefined);
    expect(client.pending.get('rpc-1')).toBe(question);
  });

  it('sends a cancel as a cancelled error result', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const question = await ask(client, connection, 'rpc-1');
    const result = question.cancel();
    const frame = await connection.nextFrameOfType('question/respond');
    expect(frame).toEqual({ type: 'question/respond', id: expect.any(String), rpcId: 'rpc-1', result: { ok: false, error: { code: 'cancelled' } } });
    connection.send({ type: 'receipt', id: frame.id, rpcId: 'rpc-1', accepted: true });
    await expect(result).resolves.toEqual({ rpcId: 'rpc-1', accepted: true });
  });

  it.each([
    ['not-pending', undefined],
    ['bad-response', 'Question "db" has no option labelled "MySQL"; send the label exactly as offered.'],
    ['forbidden', undefined],
  ] as const)('rejects with the receipt reason %s and its detail', async (reason, detail) => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await ask(client, connection, 'rpc-1');
    const result = client.answer('rpc-1', goodAnswer);
    const frame = await connection.nextFrameOfType('question/respond');
    connection.send({ type: 'receipt', id: frame.id, rpcId: 'rpc-1', accepted: false, reason, ...(detail ? { detail } : {}) });
    const error = await result.catch((caught: unknown) => caught);
    expect(QuestionClientError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: reason, rpcId: 'rpc-1', detail });
  });

  it('matches each receipt to its send by id, whatever order they come back in', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await ask(client, connection, 'rpc-1');
    await ask(client, connection, 'rpc-2');
    const first = client.answer('rpc-1', goodAnswer);
    const second = client.cancel('rpc-2');
    const firstFrame = await connection.nextFrameOfType('question/respond');
    const secondFrame = await connection.nextFrameOfType('question/respond');
    expect(firstFrame.id).not.toBe(secondFrame.id);
    connection.send({ type: 'receipt', id: secondFrame.id, rpcId: 'rpc-2', accepted: false, reason: 'not-pending' });
    connection.send({ type: 'receipt', id: firstFrame.id, rpcId: 'rpc-1', accepted: true });
    await expect(first).resolves.toEqual({ rpcId: 'rpc-1', accepted: true });
    await expect(second).rejects.toMatchObject({ code: 'not-pending', rpcId: 'rpc-2' });
  });

  it('rejects an answer that does not fit with invalid-answer and sends nothing', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const question = await ask(client, connection, 'rpc-1');
    const wrong = { answers: [{ id: 'db', selected: ['MySQL'] }] };
    expect(question.check(wrong)).toMatchObject({ rule: 'unknown-label', questionId: 'db' });
    expect(question.check(goodAnswer)).toBeUndefined();

    const error = await client.answer('rpc-1', wrong).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid-answer', rpcId: 'rpc-1', detail: question.check(wrong)?.message });

    // The next frame the host sees is the pong below, so the bad answer never went out.
    connection.send({ type: 'ping' });
    expect(await connection.nextFrame()).toEqual({ type: 'pong' });
  });

  it('hands the whole mismatch of an invalid answer to the caller, so a UI can point at the question without checking again', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const question = await ask(client, connection, 'rpc-1');
    const wrong = { answers: [{ id: 'db', selected: ['MySQL'] }] };

    const error = await question.answer(wrong).catch((caught: unknown) => caught);
    expect(QuestionClientError.isInstance(error)).toBe(true);
    expect((error as QuestionClientError).mismatch).toEqual({ rule: 'unknown-label', questionId: 'db', message: (error as QuestionClientError).detail });
  });

  it('refuses locally an answer with fields the host would refuse, as the host does', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const question = await ask(client, connection, 'rpc-1');
    const padded = { answers: [{ ...goodAnswer.answers[0]!, note: 'extra' }] } as unknown as typeof goodAnswer;
    expect(question.check(padded)).toMatchObject({ rule: 'not-an-answer' });

    const error = await client.answer('rpc-1', padded).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid-answer', rpcId: 'rpc-1' });
    connection.send({ type: 'ping' });
    expect(await connection.nextFrame()).toEqual({ type: 'pong' });
  });

  it('rejects an rpcId it does not hold with not-pending and sends nothing', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await expect(client.answer('nobody', goodAnswer)).rejects.toMatchObject({ code: 'not-pending', rpcId: 'nobody' });
    await expect(client.cancel('nobody')).rejects.toMatchObject({ code: 'not-pending', rpcId: 'nobody' });
    connection.send({ type: 'ping' });
    expect(await connection.nextFrame()).toEqual({ type: 'pong' });
  });

  it('rejects with not-connected when the socket drops before the receipt', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await ask(client, connection, 'rpc-1');
    const result = client.answer('rpc-1', goodAnswer);
    await connection.nextFrameOfType('question/respond');
    connection.terminate();
    await expect(result).rejects.toMatchObject({ code: 'not-connected', rpcId: 'rpc-1' });
  });

  it('rejects with not-connected while it is reconnecting', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host, { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 } });
    await ask(client, connection, 'rpc-1');
    const reconnecting = nextEvent(client, 'status', (status) => status === 'reconnecting');
    connection.terminate();
    await reconnecting;
    await expect(client.answer('rpc-1', goodAnswer)).rejects.toMatchObject({ code: 'not-connected', rpcId: 'rpc-1' });
  });

  it('ignores a receipt that matches no send of its own', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await ask(client, connection, 'rpc-1');
    const result = client.answer('rpc-1', goodAnswer);
    const frame = await connection.nextFrameOfType('question/respond');
    connection.send({ type: 'receipt', id: 'someone-else', rpcId: 'rpc-1', accepted: false, reason: 'forbidden' });
    connection.send({ type: 'receipt', rpcId: 'rpc-1', accepted: false, reason: 'forbidden' });
    connection.send({ type: 'receipt', id: frame.id, rpcId: 'rpc-1', accepted: true });
    await expect(result).resolves.toEqual({ rpcId: 'rpc-1', accepted: true });
  });
});

describe('errors', () => {
  it('reports a host error frame as a protocol error event', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const error = nextEvent(client, 'error');
    connection.send({ type: 'error', code: 'invalid-frame', message: 'Invalid "question/respond" frame at rpcId: expected string.' });
    expect(await error).toMatchObject({ code: 'protocol', detail: 'Invalid "question/respond" frame at rpcId: expected string.' });
  });

  it.each([
    ['text that is not JSON', 'not json {'],
    ['an unknown frame type', JSON.stringify({ type: 'question/teleported' })],
    ['a frame that fails its schema', JSON.stringify({ type: 'question/requested', rpcId: 7 })],
  ])('reports %s as a protocol error and keeps working', async (_what, text) => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const error = nextEvent(client, 'error');
    connection.sendRaw(text);
    const reported = await error;
    expect(QuestionClientError.isInstance(reported)).toBe(true);
    expect(reported.code).toBe('protocol');
    await ask(client, connection, 'rpc-1');
    expect(client.status).toBe('open');
  });

  it('keeps calling other listeners, and keeps working, when a listener throws', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const reported: unknown[] = [];
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void reported.push(args[1]));
    cleanups.push(() => consoleError.mockRestore());
    const boom = new Error('listener bug');
    client.on('requested', () => {
      throw boom;
    });
    const seen: string[] = [];
    client.on('requested', (question) => seen.push(question.rpcId));

    await ask(client, connection, 'rpc-1');
    await ask(client, connection, 'rpc-2');

    expect(seen).toEqual(['rpc-1', 'rpc-2']);
    expect(reported).toEqual([boom, boom]);
  });

  it('stops listening once a listener unsubscribes', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const seen: string[] = [];
    const off = client.on('requested', (question) => seen.push(question.rpcId));
    await ask(client, connection, 'rpc-1');
    off();
    await ask(client, connection, 'rpc-2');
    expect(seen).toEqual(['rpc-1']);
  });

  it('closes for good when the host speaks another protocol version', async () => {
    const host = await scriptedHost();
    const client = connect(host);
    const connection = await host.nextConnection();
    const error = nextEvent(client, 'error');
    const closed = nextEvent(client, 'status', (status) => status === 'closed');
    connection.send({ type: 'hello', protocol: 99 });
    expect(await error).toMatchObject({ code: 'protocol' });
    await closed;
    await connection.closed;
    expect(host.connectionCount).toBe(1);
  });
});

describe('reconnecting', () => {
  it('reconnects after the host drops the socket, and is open again after the next hello', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    const statuses = recordStatuses(client);
    await reconnectWith(host, client, connection, []);
    expect(statuses).toEqual(['reconnecting', 'open']);
    expect(host.connectionCount).toBe(2);
  });

  it('waits about twice as long after each failed attempt', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const host = await scriptedHost({ token: 'right' });
    const client = connect(host, { token: 'wrong', reconnect: { initialDelayMs: 1_000, maxDelayMs: 60_000 } });
    // Jitter puts each wait in the upper half of its window: [500, 1000], then [1000, 2000], then [2000, 4000].
    for (const window of [1_000, 2_000, 4_000]) {
      await nextEvent(client, 'error'); // this attempt failed; the next one is now scheduled
      vi.advanceTimersByTime(window / 2 - 1);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(window / 2 + 1);
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it('starts the backoff over after a successful hello', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const host = await scriptedHost();
    const { client, connection } = await openClient(host, { reconnect: { initialDelayMs: 1_000, maxDelayMs: 60_000 } });
    let current = connection;
    for (let drop = 0; drop < 3; drop++) {
      const reconnecting = nextEvent(client, 'status', (status) => status === 'reconnecting');
      current.terminate();
      await reconnecting;
      // Had the attempt count survived the hello, this wait would be 1000–2000 ms or more.
      vi.advanceTimersByTime(1_000);
      expect(vi.getTimerCount()).toBe(0);
      current = await host.nextConnection();
      const open = nextEvent(client, 'status', (status) => status === 'open');
      current.send({ type: 'hello', protocol: PROTOCOL_VERSION });
      await open;
    }
  });

  it('closes instead of reconnecting when reconnect is false', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host, { reconnect: false });
    const closed = nextEvent(client, 'status', (status) => status === 'closed');
    connection.terminate();
    await closed;
    await expect(client.answer('rpc-1', goodAnswer)).rejects.toMatchObject({ code: 'closed' });
  });

  it('sends an app-level ping every heartbeat and stays connected while the host replies', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host, { heartbeatMs: 30 });
    for (let beat = 0; beat < 3; beat++) {
      expect(await connection.nextFrameOfType('ping')).toEqual({ type: 'ping' });
      connection.send({ type: 'pong' });
    }
    expect(host.connectionCount).toBe(1);
    expect(client.status).toBe('open');
  });

  it('drops the socket and reconnects when nothing arrives within a heartbeat after a ping', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host, { heartbeatMs: 30 });
    const reconnecting = nextEvent(client, 'status', (status) => status === 'reconnecting');
    await connection.nextFrameOfType('ping'); // and the host stays silent
    await reconnecting;
    expect(await connection.closed).toMatchObject({ code: 4000 });
    const next = await host.nextConnection();
    next.send({ type: 'hello', protocol: PROTOCOL_VERSION });
    await vi.waitFor(() => expect(client.status).toBe('open'));
  });
});

describe('default heartbeat', () => {
  it('pings every DEFAULT_CLIENT_HEARTBEAT_MS, half the host\'s default heartbeat, unless heartbeatMs says otherwise', async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    try {
      const host = await scriptedHost();
      await openClient(host);
      expect(setIntervalSpy).toHaveBeenCalledTimes(1);
      expect(setIntervalSpy.mock.calls[0]?.[1]).toBe(DEFAULT_CLIENT_HEARTBEAT_MS);
      expect(DEFAULT_CLIENT_HEARTBEAT_MS).toBe(DEFAULT_HOST_HEARTBEAT_MS / 2);
    } finally {
      setIntervalSpy.mockRestore();
    }
  });
});

describe('close()', () => {
  it('rejects sends waiting for a receipt with closed and reports status closed', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host);
    await ask(client, connection, 'rpc-1');
    const statuses = recordStatuses(client);
    const result = client.answer('rpc-1', goodAnswer);
    await connection.nextFrameOfType('question/respond');
    client.close();
    await expect(result).rejects.toMatchObject({ code: 'closed', rpcId: 'rpc-1' });
    expect(statuses).toEqual(['closed']);
    expect(await connection.closed).toMatchObject({ code: 1000 });
    await expect(client.answer('rpc-1', goodAnswer)).rejects.toMatchObject({ code: 'closed' });
  });

  it('leaves no heartbeat timer behind', async () => {
    // Only the client uses setInterval here (ws uses setTimeout), so its heartbeat can be counted alone.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const host = await scriptedHost();
    const { client } = await openClient(host, { heartbeatMs: 60_000 });
    expect(vi.getTimerCount()).toBe(1);
    client.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cancels a scheduled reconnect', async () => {
    const host = await scriptedHost();
    const { client, connection } = await openClient(host, { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 } });
    const reconnecting = nextEvent(client, 'status', (status) => status === 'reconnecting');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    connection.terminate();
    await reconnecting;
    expect(vi.getTimerCount()).toBe(1);
    client.close();
    expect(vi.getTimerCount()).toBe(0);
    expect(client.status).toBe('closed');
  });

  it('closes a socket that is still connecting and never dials again', async () => {
    const host = await scriptedHost();
    const client = connect(host);
    client.close();
    expect(client.status).toBe('closed');
    // Give a would-be reconnect every chance to happen (its delay is at most 40 ms here).
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(host.requests.length).toBeLessThanOrEqual(1);
  });
});
