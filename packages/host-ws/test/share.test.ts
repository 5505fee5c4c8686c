// Nodes that hold only their share (`holds: 'share'`, docs/scaling.md): several hosts in this
// process on one MemoryQuestionStore, each with its own bus on one MemoryQuestionBusHub (whose
// buses follow sessions, as the Redis bus does). What a node holds is read through host.pending(),
// what it hears through hub.received(nodeId).
import { MemoryQuestionStore, QuestionStoreError, type QuestionBus } from '@askseam/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/index.js';
import { api } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost, TOKEN, track } from './fixture.js';
import { RawClient } from './raw-client.js';
import { askedOnA, cluster, ids, pendingInStore, personOf, settle, waitFor } from './share-fixture.js';
import { cleanupSse, mount, SseClient } from './sse-fixture.js';

afterEach(async () => {
  await cleanupSse();
  await cleanup();
});

describe("a node holding its share", () => {
  it("holds none of a session's questions while nobody there may see it, and hears none of its news", async () => {
    const { hub, a, other: b, asking, rpcId } = await askedOnA('b');
    await settle();
    // The asker's node keeps the question of its waiting asker; the other node holds nothing.
    expect(ids(a)).toEqual([rpcId]);
    expect(ids(b)).toEqual([]);
    expect(hub.received('b')).toBe(0);
    await api(a.host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it("reads a session's pending questions from the store when its first connection arrives, replays them, and forgets them when the last one leaves", async () => {
    const { store, node } = await cluster();
    const a = await node('a');
    // Asked before node b even started: b reads nothing at start, and everything once someone connects.
    const first = a.ask('agent-a');
    const other = a.ask('agent-b');
    await pendingInStore(store, 2);
    const b = await node('b');
    expect(ids(b)).toEqual([]);

    const firstTab = await personOf(b, 'agent-a');
    const hello = await firstTab.next('hello');
    const replayed = await firstTab.next('question/requested');
    expect(hello.pending).toEqual([replayed.rpcId]);
    expect(replayed).toMatchObject({ sessionId: 'agent-a', questions: [colourQuestion] });
    expect(ids(b)).toEqual([replayed.rpcId]);

    // A second tab of the same session is replayed from memory; the first leaving keeps the session held.
    const secondTab = await personOf(b, 'agent-a');
    expect((await secondTab.next('hello')).pending).toEqual([replayed.rpcId]);
    await firstTab.close();
    await settle();
    expect(ids(b)).toEqual([replayed.rpcId]);
    await secondTab.close();
    await waitFor(() => ids(b).length === 0, 'node b to forget the session once its last connection left');
    // Forgotten, not settled: still pending in the store, and the asker still waits.
    expect((await store.get(replayed.rpcId))?.outcome).toBeUndefined();

    const again = await personOf(b, 'agent-a');
    expect((await again.next('question/requested')).rpcId).toBe(replayed.rpcId);
    expect((await again.answer(replayed.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(first).resolves.toEqual(redAnswer);
    other.settled.catch(() => {});
  });

  it('shows a question asked while a session is held live, and hears its news only while it is held', async () => {
    const { hub, node } = await cluster();
    const a = await node('a');
    const b = await node('b');
    const c = await node('c');
    const onB = await personOf(b, 'agent-a');
    const onC = await personOf(c, 'agent-b');
    await onB.next('hello');
    await onC.next('hello');
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
    await settle();
    // b heard the `asked` of its session, a the `settled` of its asker, c (another session) nothing.
    expect([hub.received('a'), hub.received('b'), hub.received('c')]).toEqual([1, 1, 0]);
    expect(ids(c)).toEqual([]);
    await onC.caughtUp();
    expect(onC.all('question/requested')).toEqual([]);
  });

  it('judges an answer sent over HTTP to a node that does not hold the question: the same refusal as its own node gives, then one acceptance', async () => {
    const { store, a, other: c, asking, rpcId } = await askedOnA('c');
    const wrong = { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: ['Green'] }] } };

    const refusedOnC = await api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: wrong });
    const refusedOnA = await api(a.host, 'POST', `/questions/${rpcId}/answer`, { body: wrong });
    expect(refusedOnC.status).toBe(422);
    expect(refusedOnC.body).toEqual(refusedOnA.body);
    // The visit left nothing behind on c, and the question is pending as before.
    expect(ids(c)).toEqual([]);
    expect((await store.get(rpcId))?.outcome).toBeUndefined();

    const right = { sessionId: 'agent-a', answer: redAnswer };
    const [one, two] = await Promise.all([api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: right }), api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: right })]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    await expect(asking).resolves.toEqual(redAnswer);
    expect((await api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: right })).status).toBe(409);
    expect(ids(c)).toEqual([]);
  });

  it('asks for the answer again, never says "not pending", when a node that does not hold the question cannot read the store', async () => {
    const { store, a, other: c, asking, rpcId } = await askedOnA('c');
    const right = { sessionId: 'agent-a', answer: redAnswer };
    // The store is away for exactly the one read c makes for the question it does not hold.
    const get = store.get.bind(store);
    let failNextRead = true;
    store.get = async (id: string) => {
      if (failNextRead && id === rpcId) {
        failNextRead = false;
        throw new QuestionStoreError('STORE_UNAVAILABLE', 'the store is restarting');
      }
      return get(id);
    };

    const refused = await api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: right });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.stringMatching(/send the response again/) });
    expect((await store.get(rpcId))?.outcome).toBeUndefined();
    expect(ids(c)).toEqual([]);

    // Sent again once the store answers: taken, once.
    expect((await api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: right })).status).toBe(200);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('refuses an answer to a question the store does not hold pending, whatever the node was told', async () => {
    const { a, other: c, asking, rpcId } = await askedOnA('c');
    await api(a.host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    await expect(asking).resolves.toEqual(redAnswer);
    const late = await api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    expect(late.status).toBe(409);
    expect((await api(c.host, 'POST', '/questions/no-such-question/answer', { body: { sessionId: 'agent-a', answer: redAnswer } })).status).toBe(409);
  });

  it('holds every question while a connection that may see every session stays, and only its own share after it leaves', async () => {
    const { store, node } = await cluster();
    const a = await node('a');
    const c = await node('c');
    const asking = [a.ask('agent-a'), a.ask('agent-b')];
    const stored = await pendingInStore(store, 2);
    const operator = track(await RawClient.connect(`${c.host.url}?token=${TOKEN}`));
    expect([...((await operator.next('hello')).pending ?? [])].sort()).toEqual([...stored].sort());
    expect(ids(c).sort()).toEqual([...stored].sort());
    // Asked while it is there: shown live.
    const third = a.ask('agent-b');
    const live = await operator.next('question/requested', (frame) => !stored.includes(frame.rpcId));
    await operator.close();
    await waitFor(() => ids(c).length === 0, 'node c to forget everything once the see-everything connection left');
    for (const ask of [...asking, third]) ask.settled.catch(() => {});
    expect(live.sessionId).toBe('agent-b');
  });

  it('holds everything with a route, whose tiers escalate on timers whether or not anyone is connected', async () => {
    const { store, node } = await cluster({ route: () => [{ answerers: [{ principal: 'person-of-agent-a' }] }] });
    const a = await node('a');
    const b = await node('b');
    const asking = a.ask('agent-a');
    const rpcId = (await pendingInStore(store, 1))[0]!;
    await waitFor(() => ids(b).includes(rpcId), 'node b to hold the routed question');
    const onB = await personOf(b, 'agent-a');
    expect((await onB.next('question/requested')).rpcId).toBe(rpcId);
    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('holds every question while a channel that sees every session is open, and a channel of one session holds that session', async () => {
    const { store, node } = await cluster();
    const a = await node('a');
    const c = await node('c');
    const asking = [a.ask('agent-a'), a.ask('agent-b')];
    const stored = await pendingInStore(store, 2);
    const shown: string[] = [];
    const everything = c.host.openChannel({ via: 'chat', onQuestion: (question) => shown.push(question.rpcId), onSettled: () => {} });
    await waitFor(() => shown.length === 2, 'the channel to be shown both questions');
    expect(ids(c).sort()).toEqual([...stored].sort());
    everything.close();
    expect(ids(c)).toEqual([]);
    const oneSession: string[] = [];
    const principal: Principal = { id: 'chat-agent-b', canSee: (sessionId) => sessionId === 'agent-b', sessions: ['agent-b'], sessionsExhaustive: true };
    const narrow = c.host.openChannel({ via: 'chat', principal, onQuestion: (question) => oneSession.push(question.sessionId), onSettled: () => {} });
    await waitFor(() => oneSession.length === 1, 'the one-session channel to be shown its question');
    expect(oneSession).toEqual(['agent-b']);
    expect(c.host.pending().map((entry) => entry.sessionId)).toEqual(['agent-b']);
    narrow.close();
    for (const ask of asking) ask.settled.catch(() => {});
  });

  it('replays a session to an event stream from the store, its hello first', async () => {
    const { a, other: b, asking, rpcId } = await askedOnA('b', 'agent-b');
    const handler = b.host.fetchHandler({
      authenticate: (request) => (request.headers.get('x-session') === 'agent-b' ? { id: 'bee', canSee: (session) => session === 'agent-b', sessions: ['agent-b'], sessionsExhaustive: true } : undefined),
    });
    const base = await mount(handler, 'node');
    const stream = await SseClient.open(`${base}/events`, { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, 'x-session': 'agent-b' } }) });
    await stream.waitFor((frame) => frame.type === 'question/requested');
    expect(stream.frames().map((frame) => frame.type)).toEqual(['hello', 'question/requested']);
    expect(stream.frames()[0]).toMatchObject({ type: 'hello', pending: [rpcId] });
    expect(ids(b)).toEqual([rpcId]);
    asking.settled.catch(() => {});
  });

  it('judges an answer sent as the connection opens against the store, once, and never shows the question after its receipt', async () => {
    const { store, a, other: b, asking, rpcId } = await askedOnA('b');
    const early = track(await RawClient.connect(`${b.host.url}?as=agent-a`));
    // Sent at once, before (or while) b reads the session from the store.
    const receipt = await early.answer(rpcId, 'agent-a', redAnswer);
    expect(receipt.accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
    await early.caughtUp();
    // Whichever came first, the replay or the answer: the question is never shown after its receipt.
    const receiptAt = early.frames.findIndex((frame) => frame.type === 'receipt');
    const shownAt = early.frames.flatMap((frame, index) => (frame.type === 'question/requested' && frame.rpcId === rpcId ? [index] : []));
    for (const index of shownAt) expect(index).toBeLessThan(receiptAt);
    expect(shownAt.length).toBeLessThanOrEqual(1);
    expect(ids(b)).toEqual([]);
  });

  it("refuses holds 'share' with a bus that cannot follow sessions, naming the option", async () => {
    // Only its shape is read: a bus of the QuestionBus contract before follow existed.
    const bus: QuestionBus = {
      nodeId: 'no-follow',
      subscribe: () => Promise.resolve(),
      publish: () => Promise.resolve(),
      isNodeAlive: () => Promise.resolve(false),
      acquireLease: () => Promise.resolve(true),
      close: () => Promise.resolve(),
    };
    await expect(startHost({ store: new MemoryQuestionStore(), bus, holds: 'share' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining("holds 'share'") });
  });
});
