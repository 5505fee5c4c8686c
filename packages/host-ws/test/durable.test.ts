// Questions that outlive the process that asked them: blocking asks are saved while they wait,
// detached asks return at once, and every answer reaches its asker or onResume exactly once —
// across host restarts on the same store (in memory and in a real SQLite file).
import { MemoryQuestionStore, type QuestionStore } from '@askseam/store';
import { UserQuestions, hasUserQuestionErrorCode } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketHostError, type WebSocketHostOptions } from '../src/index.js';
import { api, cleanupDurable, openSqlite, resumeRecorder, SwitchableStore, tempDbFile } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost } from './fixture.js';

afterEach(async () => {
  await cleanup();
  await cleanupDurable();
});

const blue = { answers: [{ id: 'colour', selected: ['Blue'] }] };

describe('a blocking ask with a store', () => {
  it('is in the store before any client is sent it', async () => {
    const store = new SwitchableStore();
    store.hold('save');
    const { connect, ask, host } = await startHost({ store });
    const client = await connect();
    await client.next('hello');
    const asking = ask('agent-a');
    const rpcId = host.pending()[0]!.rpcId;
    await expect.poll(() => store.parked('save')).toBe(1);
    // Round trip on the socket: had the question been delivered, it would have arrived first.
    client.send({ type: 'ping' });
    await client.next('pong');
    expect(client.all('question/requested')).toEqual([]);

    store.release('save');
    expect((await client.next('question/requested')).rpcId).toBe(rpcId);
    expect(await store.inner.get(rpcId)).toMatchObject({ rpcId, sessionId: 'agent-a', askedBy: 'agent-a', mode: 'blocking' });
    await client.answer(rpcId, 'agent-a', redAnswer);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('is settled in the store with the validated answer, and counts as resumed (its asker got it)', async () => {
    const store = new MemoryQuestionStore();
    const { connect, ask } = await startHost({ store });
    const client = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    await client.answer(rpcId, 'agent-a', redAnswer);
    await asking;
    await expect.poll(async () => (await store.get(rpcId))?.resumedAt).toBeDefined();
    expect(await store.get(rpcId)).toMatchObject({ outcome: 'answered', answer: redAnswer, settledAt: expect.any(String) });
    expect(await store.listAwaitingResume()).toEqual([]);
  });

  it('is recorded as timed_out on the seam timeout and as aborted on the asker\'s abort', async () => {
    const store = new MemoryQuestionStore();
    const { connect, ask } = await startHost({ store });
    const client = await connect();
    const timingOut = ask('agent-a', [colourQuestion], { timeoutMs: 30 });
    const first = await client.next('question/requested');
    const controller = new AbortController();
    const aborting = ask('agent-b', [colourQuestion], { signal: controller.signal });
    const second = await client.next('question/requested');
    controller.abort();
    await Promise.all([timingOut.settled, aborting.settled]);
    await expect.poll(async () => (await store.get(first.rpcId))?.outcome).toBe('timed_out');
    await expect.poll(async () => (await store.get(second.rpcId))?.outcome).toBe('aborted');
  });

  it('stays pending in a store the app passed when the host closes, and its answer goes to the next host\'s onResume', async () => {
    const store = new MemoryQuestionStore();
    const first = await startHost({ store });
    const asking = first.ask('agent-a');
    const rpcId = first.host.pending()[0]!.rpcId;
    await expect.poll(async () => (await store.listPending('all')).length).toBe(1);
    await first.host.close();
    const settled = await asking.settled;
    expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_ABORTED')).toBe(true);
    expect(!settled.ok && (settled.error as Error).message).toMatch(/stays pending in the store/);
    expect((await store.get(rpcId))?.outcome).toBeUndefined();

    const resumed = resumeRecorder();
    const second = await startHost({ store, onResume: resumed.onResume });
    const client = await second.connect();
    expect(await client.next('hello')).toMatchObject({ pending: [rpcId] });
    await client.next('question/requested');
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await resumed.next()).toMatchObject({ rpcId, mode: 'blocking', outcome: 'answered', answer: redAnswer });
  });
});

describe('urgency', () => {
  it('keeps a blocking ask\'s urgency in the record and sends it on the question frame (an unknown level as medium)', async () => {
    const { host, connect, ask } = await startHost();
    const client = await connect();
    void ask('agent-a', [colourQuestion], { urgency: 'high' }).settled;
    void ask('agent-b', [colourQuestion], { urgency: 'someday' as never }).settled;
    const high = await client.next('question/requested');
    const unknown = await client.next('question/requested');
    expect(high.urgency).toBe('high');
    expect(unknown.urgency).toBe('medium');
    expect((await host.store.get(high.rpcId))?.urgency).toBe('high');
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion], urgency: 'low' });
    expect((await client.next('question/requested', (frame) => frame.rpcId === rpcId)).urgency).toBe('low');
    void ask('agent-a').settled;
    expect(await client.next('question/requested', (frame) => frame.rpcId !== rpcId && frame.rpcId !== high.rpcId && frame.rpcId !== unknown.rpcId)).not.toHaveProperty('urgency');
  });
});

describe('restart on a SQLite file', () => {
  async function hostOn(file: string, extra: Partial<WebSocketHostOptions> = {}) {
    const store = openSqlite(file);
    const resumed = resumeRecorder();
    const testHost = await startHost({ store, onResume: resumed.onResume, ...extra });
    return { ...testHost, store, resumed };
  }

  it('replays pending questions with the same rpcIds after a restart, and hands their answers to onResume once', async () => {
    const file = tempDbFile();
    const before = await hostOn(file);
    void before.ask('agent-a').settled;
    const { rpcId: detachedId } = await before.host.askDetached({ sessionId: 'agent-b', questions: [colourQuestion], state: { step: 'deploy', args: { version: '1.2.3' } } });
    const blockingId = before.host.pending()[0]!.rpcId;
    await expect.poll(async () => (await before.store.listPending('all')).length).toBe(2);
    await before.host.close();
    await before.store.close();

    const after = await hostOn(file);
    expect(after.host.pending().map((question) => question.rpcId)).toEqual([blockingId, detachedId]);
    const client = await after.connect();
    expect(await client.next('hello')).toMatchObject({ pending: [blockingId, detachedId] });
    expect(await client.answer(blockingId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await client.answer(detachedId, 'agent-b', blue)).toMatchObject({ accepted: true });
    const records = [await after.resumed.next(), await after.resumed.next()];
    expect(records).toEqual([
      expect.objectContaining({ rpcId: blockingId, mode: 'blocking', outcome: 'answered', answer: redAnswer }),
      expect.objectContaining({ rpcId: detachedId, mode: 'detached', outcome: 'answered', answer: blue, state: { step: 'deploy', args: { version: '1.2.3' } } }),
    ]);
    await after.host.close();

    // A third start finds nothing left to replay or resume.
    const again = await hostOn(file);
    expect(again.host.pending()).toEqual([]);
    await again.host.close();
    expect(again.resumed.records).toEqual([]);
    expect(after.resumed.records).toHaveLength(2);
  });

  it('hands a settled record to the next host\'s onResume when this host had no handler, or its handler threw', async () => {
    const file = tempDbFile();
    const noHandler = await hostOn(file, { onResume: undefined });
    const { rpcId: first } = await noHandler.host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    expect((await api(noHandler.host, 'POST', `/questions/${first}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } })).status).toBe(200);
    await noHandler.host.close();
    await noHandler.store.close();

    let calls = 0;
    const throwing = await hostOn(file, {
      onResume: () => {
        calls++;
        throw new Error('the agent loop is down');
      },
    });
    await expect.poll(() => calls).toBe(1);
    await throwing.host.close();
    await throwing.store.close();

    const working = await hostOn(file);
    expect(await working.resumed.next()).toMatchObject({ rpcId: first, outcome: 'answered', answer: redAnswer });
    await working.host.close();
    const last = await hostOn(file);
    await last.host.close();
    expect(last.resumed.records).toEqual([]);
  });
});

describe('askDetached', () => {
  it('returns the rpcId at once and hands the answer, the outcome and the state to onResume once', async () => {
    const resumed = resumeRecorder();
    const { host, connect } = await startHost({ onResume: resumed.onResume });
    const state = { tool: 'deploy', args: { service: 'api' }, missing: ['version'] };
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion], state, urgency: 'high' });
    const client = await connect();
    const requested = await client.next('question/requested');
    expect(requested).toMatchObject({ rpcId, sessionId: 'agent-a' });
    expect(JSON.stringify(requested)).not.toContain('missing');

    await client.answer(rpcId, 'agent-a', redAnswer);
    expect(await resumed.next()).toMatchObject({ rpcId, mode: 'detached', outcome: 'answered', answer: redAnswer, state, urgency: 'high', askedBy: 'agent-a' });
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
    await host.close();
    expect(resumed.records).toHaveLength(1);
  });

  it('hands a dismissal to onResume as outcome cancelled', async () => {
    const resumed = resumeRecorder();
    const { host, connect } = await startHost({ onResume: resumed.onResume });
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    const client = await connect();
    await client.respond(rpcId, { ok: false, error: { code: 'cancelled', message: 'ask me tomorrow' } });
    expect(await resumed.next()).toMatchObject({ rpcId, outcome: 'cancelled' });
    expect(await resumed.records[0]).not.toHaveProperty('answer');
  });

  it('takes the session from a live agent', async () => {
    const { host } = await startHost();
    const { rpcId } = await host.askDetached({ agent: { id: 'agent-b' }, questions: [colourQuestion] });
    expect(host.pending()).toEqual([expect.objectContaining({ rpcId, sessionId: 'agent-b' })]);
  });

  it.each([
    ['no session', { questions: [colourQuestion] }, 'ASK_MISSING_AGENT'],
    ['no questions', { sessionId: 's', questions: [] }, 'EMPTY_QUESTIONS'],
    ['duplicate question ids', { sessionId: 's', questions: [colourQuestion, colourQuestion] }, 'INVALID_QUESTIONS'],
    ['an intent approving no option', { sessionId: 's', questions: [{ ...colourQuestion, detail: '', intent: { kind: 'plan-review', approve: 'Go' } }] }, 'BAD_INTENT'],
    ['a state that is not JSON', { sessionId: 's', questions: [colourQuestion], state: { at: new Date() } }, 'INVALID_REQUEST'],
    ['an unknown urgency', { sessionId: 's', questions: [colourQuestion], urgency: 'urgent' }, 'INVALID_REQUEST'],
    ['an agent and a different sessionId', { agent: { id: 'a' }, sessionId: 'b', questions: [colourQuestion] }, 'INVALID_REQUEST'],
  ])('refuses a request with %s (%s) and asks nothing', async (_name, request, code) => {
    const { host } = await startHost();
    const error = await host.askDetached(request as never).catch((e: unknown) => e);
    expect(error).toMatchObject({ code });
    expect(host.pending()).toEqual([]);
  });

  it('rejects with STORE_FAILED when the question cannot be saved, leaving nothing pending', async () => {
    const store = new SwitchableStore();
    store.fail('save');
    const { host } = await startHost({ store });
    const error = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] }).catch((e: unknown) => e);
    expect(WebSocketHostError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect(host.pending()).toEqual([]);
  });

  it('resumes exactly once when a socket and the HTTP API answer at the same moment', async () => {
    const file = tempDbFile();
    const resumed = resumeRecorder();
    const { host, connect } = await startHost({ store: openSqlite(file), onResume: resumed.onResume });
    const client = await connect();
    for (let round = 0; round < 10; round++) {
      const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
      await client.next('question/requested', (frame) => frame.rpcId === rpcId);
      const [overSocket, overHttp] = await Promise.all([
        client.answer(rpcId, 'agent-a', redAnswer),
        api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: blue } }),
      ]);
      const winners = [overSocket.accepted, overHttp.status === 200].filter(Boolean);
      expect(winners).toHaveLength(1);
      expect(overSocket.accepted ? overHttp : { status: 409, body: overSocket }).toMatchObject({ status: 409, body: { accepted: false, reason: 'not-pending' } });
      const record = await resumed.next();
      expect(record.answer).toEqual(overSocket.accepted ? redAnswer : blue);
    }
    await host.close();
    expect(resumed.records).toHaveLength(10);
  });
});

describe('a store that fails', () => {
  it('keeps a question pending when its answer cannot be recorded, and accepts the answer sent again', async () => {
    const store = new SwitchableStore();
    const { connect, ask, host } = await startHost({ store });
    const client = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    store.fail('claim');
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringMatching(/could not record/) });
    expect((await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } })).status).toBe(503);
    expect(host.pending()).toHaveLength(1);
    store.heal('claim');
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('rejects a blocking ask whose question cannot be saved with ASK_ABORTED', async () => {
    const store = new SwitchableStore();
    store.fail('save');
    const { ask, host } = await startHost({ store });
    const settled = await ask('agent-a').settled;
    expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_ABORTED')).toBe(true);
    expect(host.pending()).toEqual([]);
  });

  it('does not start on a store it cannot read, and leaves the seam free', async () => {
    const store = new SwitchableStore();
    store.fail('listPending');
    const userQuestions = new UserQuestions();
    const error = await startHost({ store, userQuestions }).catch((e: unknown) => e);
    expect(WebSocketHostError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect(userQuestions.hasProvider).toBe(false);
  });

  it('refuses an options.store that is not a QuestionStore', async () => {
    const error = await startHost({ store: { save() {} } as unknown as QuestionStore }).catch((e: unknown) => e);
    expect(WebSocketHostError.isInstance(error) && error.code).toBe('INVALID_OPTIONS');
  });
});
