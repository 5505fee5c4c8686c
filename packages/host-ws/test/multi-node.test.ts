// Several hosts sharing one store and one bus, in this process (MemoryQuestionBusHub): the rules of
// docs/scaling.md without Redis. The same scenarios across real processes and a real Redis are in
// packages/bus-redis's multi-process tests.
import { MemoryQuestionBusHub, MemoryQuestionStore, type QuestionStore } from '@askseam/store';
import { UserQuestionError } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketHostError } from '../src/index.js';
import { api, resumeRecorder } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost, type TestHost } from './fixture.js';

afterEach(cleanup);

interface Cluster {
  hub: MemoryQuestionBusHub;
  store: QuestionStore;
  node(name: string, options?: Parameters<typeof startHost>[0]): Promise<TestHost>;
}

function cluster(): Cluster {
  const hub = new MemoryQuestionBusHub();
  const store = new MemoryQuestionStore();
  return { hub, store, node: (name, options = {}) => startHost({ store, bus: hub.connect(name), ...options }) };
}

/** Nodes `a` and `b` of a fresh cluster. */
async function twoNodes(): Promise<Cluster & { a: TestHost; b: TestHost }> {
  const started = cluster();
  return { ...started, a: await started.node('a'), b: await started.node('b') };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('a question asked on one node', () => {
  it('is shown to a client of another node with the same rpcId, and that client\'s answer resolves the ask', async () => {
    const { a, b } = await twoNodes();
    const onA = await a.connect();
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const shownOnB = await onB.next('question/requested');
    const shownOnA = await onA.next('question/requested');
    expect(shownOnB.rpcId).toBe(shownOnA.rpcId);
    expect(shownOnB.questions).toEqual([colourQuestion]);

    const receipt = await onB.answer(shownOnB.rpcId, 'agent-a', redAnswer);
    expect(receipt.accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
    // Every node's clients hear that it is settled; the answering one from its receipt (protocol 2).
    expect((await onA.next('question/resolved')).outcome).toBe('answered');
    await onB.caughtUp();
    expect(onB.all('question/resolved')).toEqual([]);
    expect(a.host.pending()).toEqual([]);
    expect(b.host.pending()).toEqual([]);
  });

  it('is answered over the HTTP API of another node', async () => {
    const { a, b } = await twoNodes();
    const asking = a.ask('agent-a');
    await waitFor(() => b.host.pending().length === 1, 'node b to learn of the question');
    const rpcId = b.host.pending()[0]!.rpcId;
    const response = await api(b.host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    expect(response.status).toBe(200);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('refuses on the other node an answer that does not fit, and the question stays pending everywhere', async () => {
    const { a, b } = await twoNodes();
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    const receipt = await onB.answer(rpcId, 'agent-a', { answers: [{ id: 'colour', selected: ['Green'] }] });
    expect(receipt).toMatchObject({ accepted: false, reason: 'bad-response' });
    expect(a.host.pending().map((entry) => entry.rpcId)).toEqual([rpcId]);
    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('takes exactly one of two answers sent at once to two nodes', async () => {
    const { a, b } = await twoNodes();
    const onA = await a.connect();
    const onB = await b.connect();
    const blue = { answers: [{ id: 'colour', selected: ['Blue'] }] };
    for (let round = 0; round < 20; round += 1) {
      const asking = a.ask('agent-a');
      const { rpcId } = await onB.next('question/requested', (frame) => !onB.all('receipt').some((r) => r.rpcId === frame.rpcId));
      await onA.next('question/requested', (frame) => frame.rpcId === rpcId);
      const [viaA, viaB] = await Promise.all([onA.answer(rpcId, 'agent-a', redAnswer), onB.answer(rpcId, 'agent-a', blue)]);
      expect([viaA.accepted, viaB.accepted].filter(Boolean)).toHaveLength(1);
      const loser = viaA.accepted ? viaB : viaA;
      expect(loser).toMatchObject({ accepted: false, reason: 'not-pending' });
      await expect(asking).resolves.toEqual(viaA.accepted ? redAnswer : blue);
    }
  });

  it('rejects the ask with ASK_CANCELLED and the person\'s words when a client of another node dismisses it', async () => {
    const { a, b } = await twoNodes();
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    await onB.respond(rpcId, { ok: false, error: { code: 'cancelled', message: 'not now' } });
    const settled = await asking.settled;
    expect(settled.ok).toBe(false);
    const error = settled.ok ? undefined : settled.error;
    expect(UserQuestionError.isInstance(error) && error.code).toBe('ASK_CANCELLED');
    expect(String((error as Error).message)).toContain('not now');
  });

  it('is withdrawn from every node\'s clients when its asker aborts', async () => {
    const { a, b } = await twoNodes();
    const onB = await b.connect();
    const controller = new AbortController();
    const asking = a.ask('agent-a', [colourQuestion], { signal: controller.signal });
    const { rpcId } = await onB.next('question/requested');
    controller.abort();
    expect((await asking.settled).ok).toBe(false);
    expect(await onB.next('question/resolved')).toMatchObject({ rpcId, outcome: 'cancelled' });
    await waitFor(() => b.host.pending().length === 0, 'node b to drop the aborted question');
    expect(await onB.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
  });

  it('is replayed to a client that connects to another node later', async () => {
    const { a, b } = await twoNodes();
    const asking = a.ask('agent-a');
    await waitFor(() => b.host.pending().length === 1, 'node b to learn of the question');
    const late = await b.connect();
    const hello = await late.next('hello');
    const replayed = await late.next('question/requested');
    expect(hello.pending).toEqual([replayed.rpcId]);
    await late.answer(replayed.rpcId, 'agent-a', redAnswer);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('is known to a node that starts after it was asked', async () => {
    const { node } = cluster();
    const a = await node('a');
    const asking = a.ask('agent-a');
    await waitFor(() => a.host.pending().length === 1, 'the question to be pending');
    const c = await node('c');
    const onC = await c.connect();
    const { rpcId } = await onC.next('question/requested');
    expect((await onC.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
  });
});

describe('answers whose asker is not waiting', () => {
  it('hands a detached question answered on another node to one resume handler, once', async () => {
    const { node } = cluster();
    const resumedA = resumeRecorder();
    const resumedB = resumeRecorder();
    const a = await node('a', { onResume: resumedA.onResume });
    const b = await node('b', { onResume: resumedB.onResume });
    const onB = await b.connect();
    const { rpcId } = await a.host.askDetached({ sessionId: 'agent-b', questions: [colourQuestion], state: { step: 7 } });
    await onB.next('question/requested', (frame) => frame.rpcId === rpcId);
    await onB.answer(rpcId, 'agent-b', redAnswer);
    const record = await resumedB.next();
    expect(record).toMatchObject({ rpcId, outcome: 'answered', answer: redAnswer, state: { step: 7 } });
    await waitFor(async () => (await a.host.store.get(rpcId))?.resumedAt !== undefined, 'the record to be marked resumed');
    expect(resumedA.records).toEqual([]);
  });

  it('hands the answer to the answering node\'s resume handler when the asker\'s node is gone', async () => {
    const { node, hub } = cluster();
    const resumedB = resumeRecorder();
    const a = await node('a');
    const b = await node('b', { onResume: resumedB.onResume });
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    // Node a drops off the bus as a crashed process does: it hears nothing and counts as not alive.
    hub.interrupt('a');
    await onB.answer(rpcId, 'agent-a', redAnswer);
    const record = await resumedB.next();
    expect(record).toMatchObject({ rpcId, outcome: 'answered', answer: redAnswer, askedOn: 'a', mode: 'blocking' });
    // The asker in the cut-off process never heard of it (it would learn at its next reconcile).
    const raced = await Promise.race([asking.settled, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 50))]);
    expect(raced).toBe('still waiting');
  });

  it('gives a blocking question of a closed node to the resume handler of the node that takes its answer', async () => {
    const { node } = cluster();
    const resumedB = resumeRecorder();
    const a = await node('a');
    const b = await node('b', { onResume: resumedB.onResume });
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    await a.host.close();
    expect((await asking.settled).ok).toBe(false);
    // The store outlives node a, so the question is still pending on node b.
    expect(b.host.pending().map((entry) => entry.rpcId)).toEqual([rpcId]);
    await onB.answer(rpcId, 'agent-a', redAnswer);
    expect(await resumedB.next()).toMatchObject({ rpcId, outcome: 'answered', askedOn: 'a' });
  });
});

describe('a node cut off from the bus', () => {
  it('catches up when it is back: shows what was asked and drops what was settled meanwhile', async () => {
    const { a, b, hub } = await twoNodes();
    const onB = await b.connect();
    const first = a.ask('agent-a');
    const { rpcId: firstId } = await onB.next('question/requested');
    hub.interrupt('b');
    const onA = await a.connect();
    await onA.next('question/requested', (frame) => frame.rpcId === firstId);
    await onA.answer(firstId, 'agent-a', redAnswer);
    await expect(first).resolves.toEqual(redAnswer);
    const second = a.ask('agent-b');
    await waitFor(() => a.host.pending().length === 1, 'the second question');
    const secondId = a.host.pending()[0]!.rpcId;
    // Node b missed both: it still lists the first and not the second.
    expect(b.host.pending().map((entry) => entry.rpcId)).toEqual([firstId]);

    hub.restore('b');
    expect(await onB.next('question/resolved', (frame) => frame.rpcId === firstId)).toMatchObject({ outcome: 'answered' });
    const shown = await onB.next('question/requested', (frame) => frame.rpcId === secondId);
    expect((await onB.answer(shown.rpcId, 'agent-b', redAnswer)).accepted).toBe(true);
    await expect(second).resolves.toEqual(redAnswer);
  });

  it('hands its asker an answer given elsewhere while it was cut off', async () => {
    const { a, b, hub } = await twoNodes();
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    hub.interrupt('a');
    // While node a is away, b sees it as gone; a resume handler is not registered on b, so the record waits in the store.
    await onB.answer(rpcId, 'agent-a', redAnswer);
    hub.restore('a');
    await expect(asking).resolves.toEqual(redAnswer);
    await waitFor(async () => (await a.host.store.get(rpcId))?.resumedAt !== undefined, 'the record to be marked resumed');
  });
});

describe('options', () => {
  it('refuses a bus without a shared store', async () => {
    const hub = new MemoryQuestionBusHub();
    await expect(startHost({ bus: hub.connect('a') })).rejects.toSatisfy(
      (error: unknown) => WebSocketHostError.isInstance(error) && error.code === 'INVALID_OPTIONS' && /store/.test(error.message),
    );
  });

  it('refuses a bus that is not a QuestionBus', async () => {
    await expect(startHost({ store: new MemoryQuestionStore(), bus: { nodeId: 'x' } as never })).rejects.toSatisfy(
      (error: unknown) => WebSocketHostError.isInstance(error) && error.code === 'INVALID_OPTIONS',
    );
  });

  it('leaves the bus when it closes, so the other nodes see it gone', async () => {
    const { a, b, hub } = await twoNodes();
    const probe = hub.connect('probe');
    // Alive means subscribed: the probe itself never subscribed, but a and b did.
    expect(await probe.isNodeAlive('probe')).toBe(false);
    expect(await probe.isNodeAlive('a')).toBe(true);
    expect(await probe.isNodeAlive('b')).toBe(true);
    await a.host.close();
    expect(await probe.isNodeAlive('a')).toBe(false);
    await b.host.close();
    expect(await probe.isNodeAlive('b')).toBe(false);
  });
});

describe('the resume lease for a waiting asker', () => {
  it('is tried again while the bus refuses it, and the asker gets its answer once it is taken, with no reconcile', async () => {
    const started = cluster();
    const busOfA = started.hub.connect('a');
    // The bus cannot be reached for the first two attempts (a Redis Cluster master holding the lease's slot is down).
    let refusals = 2;
    const acquireLease = busOfA.acquireLease.bind(busOfA);
    const attempts: string[] = [];
    busOfA.acquireLease = async (key, ttlMs) => {
      attempts.push(key);
      if (refusals-- > 0) throw new Error('the bus cannot be reached');
      return acquireLease(key, ttlMs);
    };
    const a = await startHost({ store: started.store, bus: busOfA, reconcileMs: 60_000 });
    const b = await started.node('b', { reconcileMs: 60_000 });
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const shown = await onB.next('question/requested');
    expect((await onB.answer(shown.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
    expect(attempts).toEqual([`resume:${shown.rpcId}`, `resume:${shown.rpcId}`, `resume:${shown.rpcId}`]);
    await waitFor(async () => (await started.store.get(shown.rpcId))?.resumedAt !== undefined, 'the hand-over to be marked');
  });
});
