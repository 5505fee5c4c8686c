// Review of the multi-node host (issue 8): scenarios that break a promise of docs/scaling.md or of
// the host's doc comments, with in-process nodes on MemoryQuestionBusHub. Each test was written
// failing against the first multi-node host (its comment names the bug) and passes since the fix.
import { MemoryQuestionBusHub, type QuestionRecord } from '@askseam/store';
import { UserQuestionError } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { SwitchableStore, resumeRecorder } from './durable-fixture.js';
import { cleanup, redAnswer, startHost, type Settled, type TestHost } from './fixture.js';

afterEach(cleanup);

const blue = { answers: [{ id: 'colour', selected: ['Blue'] }] };

function cluster() {
  const hub = new MemoryQuestionBusHub();
  const store = new SwitchableStore();
  return {
    hub,
    store,
    node: (name: string, options: Parameters<typeof startHost>[0] = {}): Promise<TestHost> => startHost({ store, bus: hub.connect(name), ...options }),
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, tries = 500): Promise<void> {
  for (let i = 0; i < tries; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The ask's outcome, or 'still waiting' after `ms` (only to tell "settled" from "hangs"). */
function within(settled: Promise<Settled>, ms: number): Promise<Settled | 'still waiting'> {
  return Promise.race([settled, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))]);
}

describe('answers that reach nobody', () => {
  // Was a bug: resumeOrphans (host.ts) skips every awaiting record whose asker waits in this process
  // (`waiters.has`), assuming a `settled` message or the pending-table path of runReconcile will
  // hand it over. When this node's own client tried to answer, lost the store claim (receipt
  // not-pending) and the winner's `settled` message never arrived, the entry is gone from the
  // pending table, so reconcile never hands the record to the waiting asker: the answer is lost
  // for as long as this node lives (other nodes skip it because the asker's node is alive).
  it('hands the asker an answer taken on another node while it was cut off, even after its own client lost the race', async () => {
    const { node, hub } = cluster();
    // No periodic reconcile during the test: the one that must repair it is the resync on restore.
    const a = await node('a', { reconcileMs: 60_000 });
    const b = await node('b');
    const onA = await a.connect();
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    await onA.next('question/requested', (frame) => frame.rpcId === rpcId);
    hub.interrupt('a');
    expect((await onB.answer(rpcId, 'agent-a', blue)).accepted).toBe(true);
    // A person on node a answers too; the store says someone else won.
    expect(await onA.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
    // Restoring the bus makes node a reconcile (docs/scaling.md: "a bus message is lost: the next reconcile repairs it").
    hub.restore('a');
    expect(await within(asking.settled, 1_000)).toEqual({ ok: true, value: blue });
  });

  // Was a bug: same root cause with no bus trouble at all. RedisQuestionStore.claim may reject
  // STORE_UNAVAILABLE after the Lua script ran (the connection dropped before the reply); respond.ts
  // `claim` treats every error as "nothing recorded" and puts the entry back. The client is told to
  // send again, the retry loses to the claim that did run (not-pending), and the asker, waiting in
  // this very process, never gets the answer that the store holds as answered.
  it('gives the asker an answer whose claim ran although the store reported a dropped connection', async () => {
    const { node, store } = cluster();
    const a = await node('a', { reconcileMs: 50 });
    const onA = await a.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onA.next('question/requested');
    let dropReply = true;
    const claim = store.claim;
    store.claim = async (id, outcome, answer) => {
      const settled = await claim(id, outcome, answer);
      if (dropReply) {
        dropReply = false;
        throw new Error('connection dropped before Redis answered (the script ran)');
      }
      return settled;
    };
    // The host reads the record back after the error: the claim did run, with this very answer, so it was accepted.
    expect(await onA.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await onA.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
    expect((await store.get(rpcId))?.outcome).toBe('answered');
    expect(await within(asking.settled, 1_000)).toEqual({ ok: true, value: redAnswer });
  });

  // Was a bug: abortBlocking (host.ts) returns at once when the pending entry is already out of the
  // table, which is the case while this node's own client's answer is being claimed in the store.
  // The waiter stays in `waiters` although the seam has already rejected the ask; when the claim
  // wins, handOver resolves that dead waiter and marks the record resumed, so onResume never gets
  // the answer. docs/scaling.md promises the opposite for the same race across nodes ("if B's
  // answer won, A's asker has already given up, so the answer goes to A's onResume"), and across
  // nodes it does; only the same-node race loses the answer.
  it('hands an answer to onResume when the asker aborted while the answer from its own node was being claimed', async () => {
    const { node, store } = cluster();
    const resumed = resumeRecorder();
    const a = await node('a', { onResume: resumed.onResume });
    const onA = await a.connect();
    const controller = new AbortController();
    const asking = a.ask('agent-a', undefined, { signal: controller.signal });
    const { rpcId } = await onA.next('question/requested');
    store.hold('claim');
    const receipt = onA.answer(rpcId, 'agent-a', redAnswer);
    await waitFor(() => store.parked('claim') === 1, 'the answer\'s claim to reach the store');
    controller.abort();
    const settled = await asking.settled;
    expect(settled.ok === false && UserQuestionError.isInstance(settled.error) && settled.error.code).toBe('ASK_ABORTED');
    store.release('claim');
    expect((await receipt).accepted).toBe(true);
    await waitFor(async () => (await store.get(rpcId))?.resumedAt !== undefined, 'the record to be marked resumed');
    expect(resumed.records.map((record) => record.rpcId)).toEqual([rpcId]);
  });

  // The same race across nodes works (kept as the reference for the test above).
  it('hands an answer to the asker node\'s onResume when the asker aborted while another node\'s answer was being claimed', async () => {
    const { node, store } = cluster();
    const resumedA = resumeRecorder();
    const a = await node('a', { onResume: resumedA.onResume });
    const b = await node('b');
    const onB = await b.connect();
    const controller = new AbortController();
    const asking = a.ask('agent-a', undefined, { signal: controller.signal });
    const { rpcId } = await onB.next('question/requested');
    store.hold('claim');
    const receipt = onB.answer(rpcId, 'agent-a', redAnswer);
    await waitFor(() => store.parked('claim') === 1, 'the answer\'s claim to reach the store');
    controller.abort();
    expect((await asking.settled).ok).toBe(false);
    await waitFor(() => store.parked('claim') === 2, 'the abort\'s claim to reach the store');
    store.release('claim');
    expect((await receipt).accepted).toBe(true);
    expect(await resumedA.next()).toMatchObject({ rpcId, outcome: 'answered' });
  });
});

describe('close racing an answer', () => {
  // Was a bug: closeHost (host.ts) rejects only the waiters of entries still in the pending table. An
  // answer being claimed has already taken its entry out, so its asker is not rejected; when that
  // claim then fails (the app closes its store after host.close(), or Redis drops), respond.ts puts
  // the entry back and the ask hangs for ever although close() promised "every pending ask rejects
  // ASK_ABORTED". judge() is not tracked either, so close() does not wait for it.
  it('rejects an ask whose answer was still being claimed when the host closed', async () => {
    const { node, store } = cluster();
    const a = await node('a');
    const onA = await a.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onA.next('question/requested');
    store.hold('claim');
    void onA.answer(rpcId, 'agent-a', redAnswer).catch(() => undefined);
    await waitFor(() => store.parked('claim') === 1, 'the answer\'s claim to reach the store');
    // close() waits for the claim in flight; the ask is rejected before that.
    const closing = a.host.close();
    store.fail('claim');
    store.release('claim');
    await closing;
    const settled = await within(asking.settled, 500);
    expect(settled).not.toBe('still waiting');
    expect(settled !== 'still waiting' && settled.ok === false && UserQuestionError.isInstance(settled.error) && settled.error.code).toBe('ASK_ABORTED');
  });

  // Was a bug: while a node closes it drops every bus message (`onBusMessage`: `if (closed) return`) but
  // stays on the bus until its background work is done, so the other nodes still see it alive. An
  // answer taken on B in that window is skipped by B's resumeOrphans (asker's node alive) and
  // dropped by A: it waits in the store until B's next reconcile (reconcileMs, 10 s by default)
  // instead of going to onResume at once as docs/scaling.md says for a closed node.
  it('hands an answer taken while the asker\'s node is closing to onResume without waiting for a reconcile', async () => {
    const { node, store } = cluster();
    const resumed = resumeRecorder();
    const a = await node('a', { onResume: resumed.onResume, reconcileMs: 60_000 });
    const b = await node('b', { onResume: resumed.onResume, reconcileMs: 60_000 });
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    // A save still in flight keeps node a closing (and on the bus) for a while.
    store.hold('save');
    void a.host.askDetached({ sessionId: 'agent-b', questions: [{ id: 'q', question: 'Which?', options: [{ label: 'x' }, { label: 'y' }] }] }).catch(() => undefined);
    await waitFor(() => store.parked('save') === 1, 'the detached save to be in flight');
    const closing = a.host.close();
    expect((await asking.settled).ok).toBe(false);
    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    store.release('save');
    await closing;
    // Well under reconcileMs: only a hand-over at once passes.
    await waitFor(() => resumed.records.length > 0, 'onResume to get the answer', 100).catch(() => undefined);
    expect(resumed.records.map((record: QuestionRecord) => record.rpcId)).toEqual([rpcId]);
  });
});

describe('a claim that fails on one node while another settles the question', () => {
  // Was a bug: respond.ts `claim` puts the entry back into the pending table when the store claim
  // throws, without checking whether a `settled` message for it arrived meanwhile (adoptSettled
  // found no entry to drop, so it told no socket either). The question is listed as pending and
  // stays on this node's screens after it was settled elsewhere, until the next reconcile.
  it('does not bring back a question that another node settled while this node\'s claim was failing', async () => {
    const { node, store, hub } = cluster();
    const a = await node('a', { reconcileMs: 60_000 });
    const b = await node('b', { reconcileMs: 60_000 });
    const onB = await b.connect();
    // Node c, played by hand: it claims in the shared store and publishes `settled`.
    const c = hub.connect('c');
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    store.hold('claim');
    const receipt = onB.answer(rpcId, 'agent-a', redAnswer);
    await waitFor(() => store.parked('claim') === 1, 'b\'s claim to reach the store');
    const record = await store.inner.claim(rpcId, 'answered', blue);
    await c.publish({ type: 'settled', from: 'c', record: record! });
    await expect(asking).resolves.toEqual(blue);
    store.fail('claim');
    store.release('claim');
    // Read back after the failure, the store says another answer won: not-pending, and nothing comes back.
    expect(await receipt).toMatchObject({ accepted: false, reason: 'not-pending' });
    expect(b.host.pending()).toEqual([]);
    expect(await onB.next('question/resolved')).toMatchObject({ rpcId, outcome: 'answered' });
  });
});
