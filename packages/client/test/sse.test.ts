// The client over HTTP + Server-Sent Events: a real `eventsource` EventSource and Node's fetch
// against the REAL host: `createWebSocketHost` with its `fetchHandler()` on a Node http server (sse-stage.ts).
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { EventSource } from 'eventsource';
import { afterEach, describe, expect, it } from 'vitest';
import { QuestionClientError, connectQuestions, type ConnectQuestionsOptions, type QuestionClient } from '../src/index.js';
import { nextEvent, record, recordStatuses, statusReached } from './events.js';
import { startSseStage, type SseStage, type SseStageOptions } from './sse-stage.js';

const questions: AskUserQuestionItem[] = [
  {
    id: 'db',
    question: 'Which database should the service use?',
    options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }],
  },
];
const goodAnswer = { answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }] };
const token = 'sse-secret';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function realHost(options: Partial<SseStageOptions> = {}): Promise<SseStage> {
  const host = await startSseStage({ token, ...options });
  cleanups.push(() => host.close());
  return host;
}

function connect(host: SseStage, options: Partial<ConnectQuestionsOptions> = {}): QuestionClient {
  const client = connectQuestions({ url: host.url, token, EventSource, reconnect: { initialDelayMs: 10, maxDelayMs: 40 }, ...options });
  cleanups.push(() => client.close());
  return client;
}

async function openClient(host: SseStage, options: Partial<ConnectQuestionsOptions> = {}): Promise<QuestionClient> {
  const client = connect(host, options);
  await statusReached(client, 'open');
  return client;
}

/** A fetch that holds every POST back, as a slow network would, until `go()`. */
function holdPosts(): { fetch: NonNullable<ConnectQuestionsOptions['fetch']>; go(): void } {
  let go: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (go = resolve));
  return {
    fetch: async (url, init) => {
      await released;
      return fetch(url, init);
    },
    go: () => go(),
  };
}

/** Ask on the host and wait until the client holds the question. */
async function ask(host: SseStage, client: QuestionClient, sessionId = 'agent-1') {
  const seen = nextEvent(client, 'requested', (question) => question.sessionId === sessionId);
  await host.ask(questions, sessionId);
  return seen;
}

describe('choosing SSE from the URL', () => {
  it('opens <url>/events with the token (other query parameters kept) and posts to <url>/respond', async () => {
    const host = await realHost();
    const client = await openClient(host, { url: `${host.url}/?room=blue%20team` });
    const stream = await host.nextStream();
    expect(stream.url.pathname).toBe('/askseam/events');
    expect(stream.url.searchParams.get('token')).toBe(token);
    expect(stream.url.searchParams.get('room')).toBe('blue team');

    const { rpcId } = await ask(host, client);
    await client.answer(rpcId, goodAnswer);
    const post = host.requests.at(-1);
    expect(post?.pathname).toBe('/askseam/respond');
    expect(post?.searchParams.get('token')).toBe(token);
    expect(post?.searchParams.get('room')).toBe('blue team');
  });

  it.skipIf(typeof (globalThis as { EventSource?: unknown }).EventSource !== 'undefined')(
    'asks for an EventSource constructor on a runtime without a global one',
    () => {
      expect(() => connectQuestions({ url: 'http://127.0.0.1:1/askseam' })).toThrow(
        expect.objectContaining({ code: 'invalid-options', message: expect.stringContaining('"eventsource" package') }),
      );
    },
  );

  it('still refuses a URL that is neither ws(s) nor http(s)', () => {
    expect(() => connectQuestions({ url: 'ftp://127.0.0.1/askseam', EventSource })).toThrow(expect.objectContaining({ code: 'invalid-options' }));
  });
});

describe('the pending map over SSE', () => {
  it('builds the pending map from hello and the replay of a fresh stream', async () => {
    const host = await realHost();
    const rpc1 = await host.ask(questions);
    const rpc2 = await host.ask(questions, 'agent-2');
    const client = connect(host);
    const requested = record(client, 'requested');
    const replayed = nextEvent(client, 'requested', (question) => question.rpcId === rpc2);
    await statusReached(client, 'open');
    await replayed;
    expect([...client.pending.keys()]).toEqual([rpc1, rpc2]);
    expect(requested.map((question) => [question.rpcId, question.sessionId])).toEqual([
      [rpc1, 'agent-1'],
      [rpc2, 'agent-2'],
    ]);
  });

  it('resolves an answer with the receipt from the POST response; question/resolved then drops it', async () => {
    const host = await realHost();
    const client = await openClient(host);
    const { rpcId } = await ask(host, client);
    const resolved = nextEvent(client, 'resolved');
    await expect(client.answer(rpcId, goodAnswer)).resolves.toEqual({ rpcId, accepted: true });
    const { frame, receipt } = await host.nextRespond();
    expect(frame).toMatchObject({ type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-1', answer: goodAnswer } } });
    expect(receipt).toEqual({ type: 'receipt', id: frame.id, rpcId, accepted: true });
    expect(await resolved).toEqual({ rpcId, sessionId: 'agent-1', outcome: 'answered' });
    expect(client.pending.has(rpcId)).toBe(false);
  });

  it('keeps a question pending when the host refuses the answer with bad-response', async () => {
    const host = await realHost();
    // The host's copy of the question disagrees with what reaches it: a proxy that rewrites the
    // first POST's answer to a label the host never offered (the client's own check passed).
    let rewritten = false;
    const client = await openClient(host, {
      fetch: async (url, init) => {
        if (rewritten || typeof init?.body !== 'string') return fetch(url, init);
        rewritten = true;
        return fetch(url, { ...init, body: init.body.replace('Postgres (Recommended)', 'MySQL') });
      },
    });
    const question = await ask(host, client);
    const { rpcId } = question;
    const refused = await client.answer(rpcId, goodAnswer).catch((error: unknown) => error);
    const { receipt } = await host.nextRespond();
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringContaining('MySQL') });
    expect(QuestionClientError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'bad-response', rpcId, detail: receipt.accepted ? undefined : receipt.detail });
    expect(client.pending.get(rpcId)).toBe(question);
    expect(host.pending).toEqual([rpcId]);
    // Still answerable: the next try is accepted.
    await expect(question.answer(goodAnswer)).resolves.toEqual({ rpcId, accepted: true });
  });

  it('cancels a question: accepted receipt, then resolved with outcome cancelled', async () => {
    const host = await realHost();
    const client = await openClient(host);
    const { rpcId } = await ask(host, client);
    const resolved = nextEvent(client, 'resolved');
    await expect(client.cancel(rpcId)).resolves.toEqual({ rpcId, accepted: true });
    expect((await host.nextRespond()).frame.result).toEqual({ ok: false, error: { code: 'cancelled' } });
    expect(await resolved).toMatchObject({ rpcId, outcome: 'cancelled' });
    expect(client.pending.size).toBe(0);
  });

  it('rejects not-pending when the question was settled elsewhere while the POST was on its way', async () => {
    const host = await realHost();
    const release = holdPosts();
    const client = await openClient(host, { fetch: release.fetch });
    const { rpcId } = await ask(host, client);
    const answer = client.answer(rpcId, goodAnswer);
    const resolved = nextEvent(client, 'resolved');
    await host.settle(rpcId, 'answered', goodAnswer); // another tab was quicker
    await resolved;
    release.go();
    await expect(answer).rejects.toMatchObject({ code: 'not-pending', rpcId });
    expect((await host.nextRespond()).receipt).toMatchObject({ accepted: false, reason: 'not-pending' });
  });
});

describe('reconnecting over SSE', () => {
  it('dials a fresh stream after the host drops it, keeping the same question objects and dropping what was settled meanwhile', async () => {
    const host = await realHost();
    const client = await openClient(host);
    await host.nextStream();
    const kept = await ask(host, client);
    const { rpcId: settledId } = await ask(host, client);
    const requested = record(client, 'requested');
    const statuses = recordStatuses(client);

    // New streams wait (a slow network) until the question below is settled, so the client is away.
    const releaseStreams = host.holdStreams();
    const reconnecting = statusReached(client, 'reconnecting');
    host.dropStreams();
    await reconnecting;
    // Settled while the client was away: no resolved frame ever reaches it; the next hello says so.
    await host.settle(settledId, 'answered', goodAnswer);
    const gone = nextEvent(client, 'resolved');
    releaseStreams();
    await statusReached(client, 'open');
    expect(await gone).toEqual({ rpcId: settledId, sessionId: 'agent-1', outcome: 'gone' });

    expect(statuses).toEqual(['reconnecting', 'open']);
    expect(requested).toEqual([]); // the replay of the kept question is not news
    expect(client.pending.get(kept.rpcId)).toBe(kept);
    expect([...client.pending.keys()]).toEqual([kept.rpcId]);
    await expect(kept.answer(goodAnswer)).resolves.toEqual({ rpcId: kept.rpcId, accepted: true });
  });

  it('refuses to answer while reconnecting, as over a socket', async () => {
    const host = await realHost();
    const client = await openClient(host, { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 } });
    const { rpcId } = await ask(host, client);
    const reconnecting = statusReached(client, 'reconnecting');
    host.dropStreams();
    await reconnecting;
    await expect(client.answer(rpcId, goodAnswer)).rejects.toMatchObject({ code: 'not-connected', rpcId });
    expect(host.requests.filter((url) => url.pathname.endsWith('/respond'))).toEqual([]);
  });

  it('stays closed after a drop with reconnect: false', async () => {
    const host = await realHost();
    const client = await openClient(host, { reconnect: false });
    const closed = statusReached(client, 'closed');
    host.dropStreams();
    await closed;
    expect(client.status).toBe('closed');
  });
});

describe('failures over SSE', () => {
  it('reports a refused stream as connection-failed with the HTTP status, and keeps retrying', async () => {
    const host = await realHost();
    const client = connect(host, { token: 'wrong' });
    const error = await nextEvent(client, 'error');
    expect(error).toMatchObject({ code: 'connection-failed' });
    expect(error.message).toContain('HTTP 401');
    await statusReached(client, 'reconnecting');
    // The next attempt is refused too: the client is still trying, with its own backoff.
    await nextEvent(client, 'error');
    expect(host.requests.filter((url) => url.pathname.endsWith('/events')).length).toBeGreaterThanOrEqual(2);
  });

  it('turns a refused POST into not-connected with the HTTP status; the question stays pending', async () => {
    const host = await realHost();
    host.grant('session-token');
    const client = await openClient(host, { token: 'session-token' });
    const question = await ask(host, client);
    const { rpcId } = question;
    host.revoke('session-token'); // the open stream carries on; the next request with it is refused
    const refused = await client.answer(rpcId, goodAnswer).catch((error: unknown) => error);
    expect(QuestionClientError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'not-connected', rpcId });
    expect((refused as Error).message).toContain('HTTP 401');
    expect(client.pending.get(rpcId)).toBe(question);
    expect(host.pending).toEqual([rpcId]);
  });

  it('turns a POST over the size limit into not-connected with HTTP 413', async () => {
    const host = await realHost({ maxPayload: 64 });
    const client = await openClient(host);
    const { rpcId } = await ask(host, client);
    await expect(client.answer(rpcId, goodAnswer)).rejects.toThrow(/HTTP 413/);
    expect(host.pending).toEqual([rpcId]);
  });

  it('rejects not-connected when a 200 response is not the receipt of this POST', async () => {
    const host = await realHost();
    // A proxy that answers the POST itself with a page of its own instead of passing it on.
    const client = await openClient(host, { fetch: async () => ({ status: 200, text: async () => '{"type":"pong"}' }) });
    const question = await ask(host, client);
    const { rpcId } = question;
    await expect(client.answer(rpcId, goodAnswer)).rejects.toMatchObject({
      code: 'not-connected',
      rpcId,
      message: expect.stringContaining("without this response's receipt"),
    });
    expect(client.pending.get(rpcId)).toBe(question);
  });

  it('rejects a POST still waiting when the client is closed with closed', async () => {
    const host = await realHost();
    const release = holdPosts();
    const client = await openClient(host, { fetch: release.fetch });
    const { rpcId } = await ask(host, client);
    const answer = client.answer(rpcId, goodAnswer);
    client.close();
    release.go();
    await expect(answer).rejects.toMatchObject({ code: 'closed', rpcId });
  });
});
