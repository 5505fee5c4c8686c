// The client over HTTP + Server-Sent Events: a real `eventsource` EventSource and Node's fetch
// against the wire's test double (fake-sse-host.ts; the lead re-runs these against the real handler).
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { EventSource } from 'eventsource';
import { afterEach, describe, expect, it } from 'vitest';
import { QuestionClientError, connectQuestions, type ConnectQuestionsOptions, type QuestionClient } from '../src/index.js';
import { nextEvent, record, recordStatuses, statusReached } from './events.js';
import { startFakeSseHost, type FakeSseHost, type FakeSseHostOptions } from './fake-sse-host.js';

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

async function fakeHost(options: Partial<FakeSseHostOptions> = {}): Promise<FakeSseHost> {
  const host = await startFakeSseHost({ token, ...options });
  cleanups.push(() => host.close());
  return host;
}

function connect(host: FakeSseHost, options: Partial<ConnectQuestionsOptions> = {}): QuestionClient {
  const client = connectQuestions({ url: host.url, token, EventSource, reconnect: { initialDelayMs: 10, maxDelayMs: 40 }, ...options });
  cleanups.push(() => client.close());
  return client;
}

async function openClient(host: FakeSseHost, options: Partial<ConnectQuestionsOptions> = {}): Promise<QuestionClient> {
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
async function ask(host: FakeSseHost, client: QuestionClient, rpcId: string) {
  const seen = nextEvent(client, 'requested', (question) => question.rpcId === rpcId);
  host.ask(rpcId, questions);
  return seen;
}

describe('choosing SSE from the URL', () => {
  it('opens <url>/events with the token (other query parameters kept) and posts to <url>/respond', async () => {
    const host = await fakeHost();
    const client = await openClient(host, { url: `${host.url}/?room=blue%20team` });
    const stream = await host.nextStream();
    expect(stream.url.pathname).toBe('/askseam/events');
    expect(stream.url.searchParams.get('token')).toBe(token);
    expect(stream.url.searchParams.get('room')).toBe('blue team');

    await ask(host, client, 'rpc-1');
    await client.answer('rpc-1', goodAnswer);
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
    const host = await fakeHost();
    host.ask('rpc-1', questions);
    host.ask('rpc-2', questions, 'agent-2');
    const client = connect(host);
    const requested = record(client, 'requested');
    const replayed = nextEvent(client, 'requested', (question) => question.rpcId === 'rpc-2');
    await statusReached(client, 'open');
    await replayed;
    expect([...client.pending.keys()]).toEqual(['rpc-1', 'rpc-2']);
    expect(requested.map((question) => [question.rpcId, question.sessionId])).toEqual([
      ['rpc-1', 'agent-1'],
      ['rpc-2', 'agent-2'],
    ]);
  });

  it('resolves an answer with the receipt from the POST response; question/resolved then drops it', async () => {
    const host = await fakeHost();
    const client = await openClient(host);
    await ask(host, client, 'rpc-1');
    const resolved = nextEvent(client, 'resolved');
    await expect(client.answer('rpc-1', goodAnswer)).resolves.toEqual({ rpcId: 'rpc-1', accepted: true });
    const { frame, receipt } = await host.nextRespond();
    expect(frame).toMatchObject({ type: 'question/respond', rpcId: 'rpc-1', result: { ok: true, value: { sessionId: 'agent-1', answer: goodAnswer } } });
    expect(receipt).toEqual({ type: 'receipt', id: frame.id, rpcId: 'rpc-1', accepted: true });
    expect(await resolved).toEqual({ rpcId: 'rpc-1', sessionId: 'agent-1', outcome: 'answered' });
    expect(client.pending.has('rpc-1')).toBe(false);
  });

  it('keeps a question pending when the host refuses the answer with bad-response', async () => {
    const host = await fakeHost();
    const client = await openClient(host);
    const question = await ask(host, client, 'rpc-1');
    host.refuseNextAnswer('The host holds another version of this question.');
    const refused = await client.answer('rpc-1', goodAnswer).catch((error: unknown) => error);
    expect(QuestionClientError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'bad-response', rpcId: 'rpc-1', detail: 'The host holds another version of this question.' });
    expect(client.pending.get('rpc-1')).toBe(question);
    expect(host.pending).toEqual(['rpc-1']);
    // Still answerable: the next try is accepted.
    await expect(question.answer(goodAnswer)).resolves.toEqual({ rpcId: 'rpc-1', accepted: true });
  });

  it('cancels a question: accepted receipt, then resolved with outcome cancelled', async () => {
    const host = await fakeHost();
    const client = await openClient(host);
    await ask(host, client, 'rpc-1');
    const resolved = nextEvent(client, 'resolved');
    await expect(client.cancel('rpc-1')).resolves.toEqual({ rpcId: 'rpc-1', accepted: true });
    expect((await host.nextRespond()).frame.result).toEqual({ ok: false, error: { code: 'cancelled' } });
    expect(await resolved).toMatchObject({ rpcId: 'rpc-1', outcome: 'cancelled' });
    expect(client.pending.size).toBe(0);
  });

  it('rejects not-pending when the question was settled elsewhere while the POST was on its way', async () => {
    const host = await fakeHost();
    const release = holdPosts();
    const client = await openClient(host, { fetch: release.fetch });
    await ask(host, client, 'rpc-1');
    const answer = client.answer('rpc-1', goodAnswer);
    const resolved = nextEvent(client, 'resolved');
    host.settle('rpc-1', 'answered'); // another tab was quicker
    await resolved;
    release.go();
    await expect(answer).rejects.toMatchObject({ code: 'not-pending', rpcId: 'rpc-1' });
    expect((await host.nextRespond()).receipt).toMatchObject({ accepted: false, reason: 'not-pending' });
  });
});

describe('reconnecting over SSE', () => {
  it('dials a fresh stream after the host drops it, keeping the same question objects and dropping what was settled meanwhile', async () => {
    const host = await fakeHost();
    const client = await openClient(host);
    await host.nextStream();
    const kept = await ask(host, client, 'rpc-kept');
    await ask(host, client, 'rpc-settled');
    const requested = record(client, 'requested');
    const statuses = recordStatuses(client);

    const reconnecting = statusReached(client, 'reconnecting');
    host.dropStreams();
    await reconnecting;
    // Settled while the client was away: no resolved frame ever reaches it; the next hello says so.
    host.settle('rpc-settled', 'answered');
    const gone = nextEvent(client, 'resolved');
    await statusReached(client, 'open');
    expect(await gone).toEqual({ rpcId: 'rpc-settled', sessionId: 'agent-1', outcome: 'gone' });

    expect(statuses).toEqual(['reconnecting', 'open']);
    expect(requested).toEqual([]); // the replay of rpc-kept is not news
    expect(client.pending.get('rpc-kept')).toBe(kept);
    expect([...client.pending.keys()]).toEqual(['rpc-kept']);
    await expect(kept.answer(goodAnswer)).resolves.toEqual({ rpcId: 'rpc-kept', accepted: true });
  });

  it('refuses to answer while reconnecting, as over a socket', async () => {
    const host = await fakeHost();
    const client = await openClient(host, { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 } });
    await ask(host, client, 'rpc-1');
    const reconnecting = statusReached(client, 'reconnecting');
    host.dropStreams();
    await reconnecting;
    await expect(client.answer('rpc-1', goodAnswer)).rejects.toMatchObject({ code: 'not-connected', rpcId: 'rpc-1' });
    expect(host.requests.filter((url) => url.pathname.endsWith('/respond'))).toEqual([]);
  });

  it('stays closed after a drop with reconnect: false', async () => {
    const host = await fakeHost();
    const client = await openClient(host, { reconnect: false });
    const closed = statusReached(client, 'closed');
    host.dropStreams();
    await closed;
    expect(client.status).toBe('closed');
  });
});

describe('failures over SSE', () => {
  it('reports a refused stream as connection-failed with the HTTP status, and keeps retrying', async () => {
    const host = await fakeHost();
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
    const host = await fakeHost();
    const client = await openClient(host);
    const question = await ask(host, client, 'rpc-1');
    host.token = 'rotated'; // the open stream carries on; the next request with the old token is refused
    const refused = await client.answer('rpc-1', goodAnswer).catch((error: unknown) => error);
    expect(QuestionClientError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'not-connected', rpcId: 'rpc-1' });
    expect((refused as Error).message).toContain('HTTP 401');
    expect(client.pending.get('rpc-1')).toBe(question);
    expect(host.pending).toEqual(['rpc-1']);
  });

  it('turns a POST over the size limit into not-connected with HTTP 413', async () => {
    const host = await fakeHost({ maxPayload: 64 });
    const client = await openClient(host);
    await ask(host, client, 'rpc-1');
    await expect(client.answer('rpc-1', goodAnswer)).rejects.toThrow(/HTTP 413/);
    expect(host.pending).toEqual(['rpc-1']);
  });

  it('rejects not-connected when a 200 response is not the receipt of this POST', async () => {
    const host = await fakeHost();
    // A proxy that answers the POST itself with a page of its own instead of passing it on.
    const client = await openClient(host, { fetch: async () => ({ status: 200, text: async () => '{"type":"pong"}' }) });
    const question = await ask(host, client, 'rpc-1');
    await expect(client.answer('rpc-1', goodAnswer)).rejects.toMatchObject({
      code: 'not-connected',
      rpcId: 'rpc-1',
      message: expect.stringContaining("without this response's receipt"),
    });
    expect(client.pending.get('rpc-1')).toBe(question);
  });

  it('rejects a POST still waiting when the client is closed with closed', async () => {
    const host = await fakeHost();
    const release = holdPosts();
    const client = await openClient(host, { fetch: release.fetch });
    await ask(host, client, 'rpc-1');
    const answer = client.answer('rpc-1', goodAnswer);
    client.close();
    release.go();
    await expect(answer).rejects.toMatchObject({ code: 'closed', rpcId: 'rpc-1' });
  });
});
