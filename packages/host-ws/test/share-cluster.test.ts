// Nodes that hold only their share (`holds: 'share'`, docs/scaling.md) across the cluster: answers
// that reach exactly one asker or onResume, reconciles that read only the node's share, and the
// bus traffic and memory of each node following its own sessions.
import type { QuestionRecord } from '@askseam/store';
import { afterEach, describe, expect, it } from 'vitest';
import { api, resumeRecorder } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer } from './fixture.js';
import { cluster, ids, pendingInStore, personOf, settle, waitFor } from './share-fixture.js';

afterEach(cleanup);

describe('nodes holding their shares', () => {
  it("hands the answer of a detached question asked on A and answered on B to one onResume, once, through later reconciles", async () => {
    const resumed = resumeRecorder();
    const { store, node } = await cluster({ onResume: resumed.onResume, reconcileMs: 20 });
    const a = await node('a');
    const b = await node('b');
    const { rpcId } = await a.host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    // Nobody on A sees agent-a: A keeps nothing once it is saved.
    expect(ids(a)).toEqual([]);
    const onB = await personOf(b, 'agent-a');
    expect((await onB.next('question/requested')).rpcId).toBe(rpcId);
    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    const record = await resumed.next();
    expect(record).toMatchObject({ rpcId, outcome: 'answered', answer: redAnswer });
    // Several reconciles of both nodes later, still once.
    await waitFor(async () => (await store.listAwaitingResume()).length === 0, 'the resume to be marked');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resumed.records).toHaveLength(1);
  });

  it("gives the answer of a closed node's asker to onResume once, through the node that took it", async () => {
    const resumed = resumeRecorder();
    const { store, node } = await cluster({ onResume: resumed.onResume, reconcileMs: 20 });
    const a = await node('a');
    const b = await node('b');
    const asking = a.ask('agent-a');
    const rpcId = (await pendingInStore(store, 1))[0]!;
    await a.host.close();
    expect((await asking.settled).ok).toBe(false);
    const response = await api(b.host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    expect(response.status).toBe(200);
    expect(await resumed.next()).toMatchObject({ rpcId, answer: redAnswer });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resumed.records).toHaveLength(1);
  });

  it('holds and hears only its own third when sessions are spread evenly over three nodes', async () => {
    const { hub, store, node } = await cluster();
    const nodes = [await node('n0'), await node('n1'), await node('n2')];
    const sessions = Array.from({ length: 12 }, (_, index) => `session-${index}`);
    const servedBy = (session: string) => sessions.indexOf(session) % 3;
    const clients = await Promise.all(sessions.map((session) => personOf(nodes[servedBy(session)]!, session)));
    await Promise.all(clients.map((client) => client.next('hello')));
    // Detached questions, asked on every node in turn: none of them has an asker to keep it anywhere.
    for (let index = 0; index < 60; index += 1) {
      const session = sessions[index % sessions.length]!;
      await nodes[index % 3]!.host.askDetached({ sessionId: session, questions: [colourQuestion] });
    }
    await pendingInStore(store, 60);
    await waitFor(() => nodes.every((each) => each.host.pending().length === 20), 'every node to hold its 20 questions');
    for (const [index, each] of nodes.entries()) {
      expect(new Set(each.host.pending().map((entry) => servedBy(entry.sessionId)))).toEqual(new Set([index]));
      // One `asked` per question of its sessions asked on another node (its own it sends, not hears).
      const askedElsewhere = Array.from({ length: 60 }, (_, n) => n).filter((n) => n % 3 !== index && servedBy(sessions[n % sessions.length]!) === index).length;
      expect(hub.received(`n${index}`)).toBe(askedElsewhere);
    }
  });

  it("reconciles by reading only the sessions it serves, and its askers' questions one by one", async () => {
    const { store, node } = await cluster({ reconcileMs: 20 });
    const a = await node('a');
    const b = await node('b');
    const onB = await personOf(b, 'agent-b');
    await onB.next('hello');
    const asking = a.ask('agent-a');
    await pendingInStore(store, 1);
    store.listed.length = 0;
    // Several reconciles of both nodes: a serves no session (it reads its asker's record by rpcId), b serves agent-b.
    await waitFor(() => store.listed.filter((selection) => selection !== 'all').length >= 3, 'a few reconciles');
    expect(store.listed.filter((selection) => selection === 'all')).toEqual([]);
    for (const selection of store.listed) expect(selection).toEqual(['agent-b']);
    asking.settled.catch(() => {});
  });

  it('shares the scan of answers awaiting their resume among the nodes: every reconcile reads only the parts whose lease it took', async () => {
    const { store, node } = await cluster({ reconcileMs: 20 });
    await node('a');
    await node('b');
    await node('c');
    store.awaitingRead.length = 0;
    await waitFor(() => new Set(store.awaitingRead).size >= 16, 'every part to be read');
    expect(store.awaitingRead).not.toContain('all');
  });

  it('hands an answer recorded by a node that died before handing it over to one onResume, found by the shared scan', async () => {
    const resumed = resumeRecorder();
    const { store, node } = await cluster({ onResume: resumed.onResume, reconcileMs: 20 });
    await node('a');
    await node('b');
    // What a node leaves behind when it dies between its claim and the hand-over.
    const record: QuestionRecord = { rpcId: 'orphan-1', sessionId: 'agent-a', askedBy: 'agent-a', askedAt: new Date().toISOString(), questions: [colourQuestion], mode: 'detached' };
    await store.save(record);
    await store.claim(record.rpcId, 'answered', redAnswer);
    expect(await resumed.next()).toMatchObject({ rpcId: 'orphan-1', answer: redAnswer });
    await waitFor(async () => (await store.listAwaitingResume()).length === 0, 'the resume to be marked');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resumed.records).toHaveLength(1);
  });

  it('catches up through its reconcile with a question whose news it lost while cut off from the bus', async () => {
    const { hub, store, node } = await cluster({ reconcileMs: 60_000 });
    const a = await node('a');
    const b = await node('b');
    const onB = await personOf(b, 'agent-a');
    await onB.next('hello');
    hub.interrupt('b');
    const asking = a.ask('agent-a');
    await pendingInStore(store, 1);
    await settle();
    expect(ids(b)).toEqual([]);
    // Back on the bus: told to resync, b reads its sessions from the store and shows the question.
    hub.restore('b');
    const { rpcId } = await onB.next('question/requested');
    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
  });
});
