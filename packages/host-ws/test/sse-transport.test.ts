import type { QuestionRequestedFrame, ServerFrame } from '@askseam/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupDurable, openSqlite, tempDbFile } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost, TOKEN } from './fixture.js';
import { cleanupSse, mount, post, SseClient } from './sse-fixture.js';

afterEach(async () => {
  await cleanupSse();
  await cleanup();
  await cleanupDurable();
});

const requested = (frame: ServerFrame): frame is QuestionRequestedFrame => frame.type === 'question/requested';

describe.each(['node', 'hono'] as const)('the event stream mounted in %s', (how) => {
  it('greets with hello, replays pending questions with their original rpcIds, then goes live; a POST answer resolves it', async () => {
    const t = await startHost();
    const first = t.ask('agent-a');
    const [{ rpcId: firstId }] = [await t.event('asked')];
    const base = await mount(t.host.fetchHandler(), how);

    const client = await SseClient.open(`${base}/events?token=${TOKEN}`);
    await client.waitFor(requested);
    expect(client.frames()[0]).toMatchObject({ type: 'hello', pending: [firstId] });
    expect(client.frames()[1]).toMatchObject({ type: 'question/requested', rpcId: firstId, sessionId: 'agent-a' });

    const second = t.ask('agent-b');
    const [, live] = await client.waitFor(requested, 2);
    const secondId = (live!.frame as QuestionRequestedFrame).rpcId;
    expect(t.host.pending().map((q) => q.rpcId)).toEqual([firstId, secondId]);

    const reply = await post(base, { type: 'question/respond', id: 'x1', rpcId: firstId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } });
    expect(reply).toEqual({ status: 200, body: { type: 'receipt', id: 'x1', rpcId: firstId, accepted: true } });
    await expect(first).resolves.toEqual(redAnswer);
    await client.waitFor((f) => f.type === 'question/resolved' && f.rpcId === firstId && f.outcome === 'answered');
    // The receipt of a POST goes only in its response.
    expect(client.frames().some((f) => f.type === 'receipt')).toBe(false);

    const cancel = await post(base, { type: 'question/respond', rpcId: secondId, result: { ok: false, error: { code: 'cancelled' } } });
    expect(cancel.body).toMatchObject({ type: 'receipt', rpcId: secondId, accepted: true });
    await expect(second.settled).resolves.toMatchObject({ ok: false, error: { code: 'ASK_CANCELLED' } });
    await client.waitFor((f) => f.type === 'question/resolved' && f.rpcId === secondId && f.outcome === 'cancelled');
  });
});

describe('POST <path>/respond', () => {
  it('keeps a bad response pending and accepts the corrected one; refuses what the principal may not see and what is not pending', async () => {
    const t = await startHost();
    const asking = t.ask('agent-a');
    const { rpcId } = await t.event('asked');
    const handler = t.host.fetchHandler({
      authenticate: (request) => (request.headers.get('x-user') === 'bee' ? { id: 'bee', canSee: (session) => session === 'agent-b' } : undefined),
    });
    const base = await mount(handler, 'node');

    const bad = await post(base, { type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: ['Green'] }] } } } });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ type: 'receipt', rpcId, accepted: false, reason: 'bad-response' });
    expect(t.host.pending().map((q) => q.rpcId)).toEqual([rpcId]);

    const forbidden = await post(base, { type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } }, { token: 'wrong', headers: { 'x-user': 'bee' } });
    expect(forbidden.body).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect(t.host.pending().map((q) => q.rpcId)).toEqual([rpcId]);

    const good = await post(base, { type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } });
    expect(good.body).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);

    const late = await post(base, { type: 'question/respond', rpcId, result: { ok: false, error: { code: 'cancelled' } } });
    expect(late.body).toMatchObject({ accepted: false, reason: 'not-pending' });

    const unreadable = await post(base, '{not json');
    expect(unreadable).toEqual({ status: 400, body: { type: 'error', code: 'malformed-json', message: expect.any(String) } });
  });

  it('refuses without credentials (401), from a foreign Origin (403) and over maxPayload (413), changing nothing', async () => {
    const t = await startHost({ maxPayload: 2048 });
    t.ask('agent-a');
    const { rpcId } = await t.event('asked');
    const base = await mount(t.host.fetchHandler(), 'node');
    const frame = { type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } };

    expect((await post(base, frame, { token: 'wrong' })).status).toBe(401);
    expect((await fetch(`${base}/events`)).status).toBe(401);
    expect((await fetch(`${base}/events?token=${TOKEN}`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await post(base, frame, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const big = { ...frame, id: 'x'.repeat(4096) };
    expect((await post(base, big)).status).toBe(413);
    expect(t.host.pending().map((q) => q.rpcId)).toEqual([rpcId]);
  });
});

describe('the event stream', () => {
  it('authenticates a Web Request with the handler\'s authenticate, and replays only what the principal may see', async () => {
    const t = await startHost();
    t.ask('agent-a');
    t.ask('agent-b');
    const { rpcId: bId } = await t.event('asked', (e) => e.sessionId === 'agent-b');
    const handler = t.host.fetchHandler({
      authenticate: (request) => (request.headers.get('cookie') === 'user=bee' ? { id: 'bee', canSee: (session) => session === 'agent-b' } : undefined),
    });
    const base = await mount(handler, 'node');
    expect((await fetch(`${base}/events`, { headers: { cookie: 'user=wasp' } })).status).toBe(401);
    const client = await SseClient.open(`${base}/events`, { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, cookie: 'user=bee' } }) });
    await client.waitFor(requested);
    expect(client.frames()[0]).toMatchObject({ type: 'hello', pending: [bId] });
    expect(client.frames().filter(requested).map((f) => f.rpcId)).toEqual([bId]);
  });

  it('resumes from Last-Event-ID with only the frames after it (no hello, no replay, no duplicates); an unknown id starts fresh', async () => {
    const t = await startHost();
    t.ask('agent-a');
    const { rpcId: firstId } = await t.event('asked');
    const base = await mount(t.host.fetchHandler(), 'node');
    const client = await SseClient.open(`${base}/events?token=${TOKEN}`);
    const [seen] = await client.waitFor(requested);
    client.source.close();
    // Asked while the client is away: kept for its resume.
    t.ask('agent-b');
    const { rpcId: secondId } = await t.event('asked', (e) => e.rpcId !== firstId);

    const resumed = await SseClient.open(`${base}/events?token=${TOKEN}&lastEventId=${encodeURIComponent(seen!.id)}`);
    await resumed.waitFor(requested);
    t.ask('agent-a', undefined, {});
    await resumed.waitFor(requested, 2);
    const frames = resumed.frames();
    expect(frames.map((f) => f.type)).toEqual(['question/requested', 'question/requested']);
    expect((frames[0] as QuestionRequestedFrame).rpcId).toBe(secondId);

    const fresh = await SseClient.open(`${base}/events?token=${TOKEN}&lastEventId=nope-3`);
    await fresh.waitFor(requested, 3);
    expect(fresh.frames()[0]).toMatchObject({ type: 'hello' });
    expect(fresh.frames().filter(requested)).toHaveLength(3);
  });

  it('sends a heartbeat comment', async () => {
    const t = await startHost({ heartbeatMs: 40 });
    const base = await mount(t.host.fetchHandler(), 'node');
    const response = await fetch(`${base}/events?token=${TOKEN}`);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(': ping\n')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    expect(text.startsWith('id: ')).toBe(true);
  });
});

describe('one-question links on the event stream', () => {
  it('opens a stream and takes answers with ?link= alone: its one question only, and a settled link says so', async () => {
    const t = await startHost({ linkBaseUrl: 'https://app.example/answer' });
    const mine = t.ask('agent-a');
    const { rpcId: mineId } = await t.event('asked');
    const other = t.ask('agent-a', [{ ...colourQuestion, question: 'Which other colour?' }]);
    const { rpcId: otherId } = await t.event('asked', (event) => event.rpcId !== mineId);
    const base = await mount(t.host.fetchHandler(), 'node');
    const link = encodeURIComponent(new URL(t.host.linkFor(mineId)).searchParams.get('link') ?? '');
    const respondWithLink = async (frame: unknown): Promise<Record<string, unknown>> => {
      const response = await fetch(`${base}/respond?link=${link}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(frame) });
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };

    const client = await SseClient.open(`${base}/events?link=${link}`);
    await client.waitFor(requested);
    expect(client.frames()[0]).toMatchObject({ type: 'hello', pending: [mineId], link: { rpcId: mineId, settled: false } });
    expect(client.frames().filter(requested).map((frame) => frame.rpcId)).toEqual([mineId]);

    expect(await respondWithLink({ type: 'question/respond', rpcId: otherId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } })).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect(await respondWithLink({ type: 'question/respond', rpcId: mineId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } })).toMatchObject({ accepted: true });
    await expect(mine.settled).resolves.toEqual({ ok: true, value: redAnswer });
    await client.waitFor((frame) => frame.type === 'question/resolved' && frame.rpcId === mineId);
    expect(t.host.pending().map((question) => question.rpcId)).toEqual([otherId]);

    const reopened = await SseClient.open(`${base}/events?link=${link}`);
    const [hello] = await reopened.waitFor((frame) => frame.type === 'hello');
    expect(hello?.frame).toMatchObject({ pending: [], link: { rpcId: mineId, settled: true } });
    void other.settled;
  });
});

describe('one host, two transports', () => {
  it('a question answered over POST resolves on a WebSocket client, and one answered over the socket resolves on the event stream', async () => {
    const t = await startHost();
    const base = await mount(t.host.fetchHandler(), 'hono');
    const socket = await t.connect();
    const stream = await SseClient.open(`${base}/events?token=${TOKEN}`);

    const overPost = t.ask('agent-a');
    const asked = await socket.next('question/requested');
    const [viaStream] = await stream.waitFor(requested);
    expect((viaStream!.frame as QuestionRequestedFrame).rpcId).toBe(asked.rpcId);
    expect((await post(base, { type: 'question/respond', rpcId: asked.rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } })).body).toMatchObject({ accepted: true });
    await expect(overPost).resolves.toEqual(redAnswer);
    expect(await socket.next('question/resolved')).toMatchObject({ rpcId: asked.rpcId, outcome: 'answered' });

    const overSocket = t.ask('agent-b');
    const second = await socket.next('question/requested', (f) => f.rpcId !== asked.rpcId);
    expect(await socket.answer(second.rpcId, 'agent-b', redAnswer)).toMatchObject({ accepted: true });
    await expect(overSocket).resolves.toEqual(redAnswer);
    await stream.waitFor((f) => f.type === 'question/resolved' && f.rpcId === second.rpcId);
  });
});

describe('with the SQLite store', () => {
  it('a question left pending by one host is replayed on a fresh event stream of the next, with its rpcId, and answered over POST', async () => {
    const file = tempDbFile();
    const first = await startHost({ store: openSqlite(file) });
    const { rpcId } = await first.host.askDetached({ sessionId: 'agent-a', questions: [{ id: 'colour', question: 'Which colour?', options: [{ label: 'Red (Recommended)' }, { label: 'Blue' }] }] });
    await first.host.close();

    const resumed: string[] = [];
    const second = await startHost({ store: openSqlite(file), onResume: (record) => void resumed.push(record.rpcId) });
    const base = await mount(second.host.fetchHandler(), 'node');
    const client = await SseClient.open(`${base}/events?token=${TOKEN}`);
    await client.waitFor(requested);
    expect(client.frames()[0]).toMatchObject({ type: 'hello', pending: [rpcId] });
    expect((await post(base, { type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } } })).body).toMatchObject({ accepted: true });
    await client.waitFor((f) => f.type === 'question/resolved' && f.rpcId === rpcId);
  });
});
