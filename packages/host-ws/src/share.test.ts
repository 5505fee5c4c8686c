import { randomUUID } from 'node:crypto';
import { MemoryQuestionBusHub, MemoryQuestionStore, type QuestionBusMessage, type QuestionRecord } from '@askseam/store';
import { describe, expect, it } from 'vitest';
import type { Indexable } from './connection-index.js';
import { BackgroundWork, Lifecycle } from './lifecycle.js';
import { silentLogger } from './logger.js';
import { PendingQuestion, PendingTable } from './pending.js';
import { canFollow, Share } from './share.js';

/** A pending question of `sessionId`. */
function sampleQuestionRecord({ sessionId }: { sessionId: string }): QuestionRecord {
  return { rpcId: randomUUID(), sessionId, askedBy: sessionId, askedAt: '2026-12-01T00:00:00.000Z', questions: [{ id: 'go', question: 'Go?', options: [{ label: 'Yes' }, { label: 'No' }] }], mode: 'blocking' };
}

/** A subscriber of `sessions` (complete list), or of every session. */
function subscriber(sessions: string[] | 'any'): Indexable {
  return { principalId: 'p', seesEverything: sessions === 'any', scope: sessions === 'any' ? undefined : sessions, canSee: () => true };
}

/** One node's share on a real memory bus and store, with a second node to publish news. */
async function node(options: { everything?: boolean } = {}) {
  const hub = new MemoryQuestionBusHub();
  const bus = hub.connect('here');
  const other = hub.connect('other');
  if (!canFollow(bus)) throw new Error('the memory bus follows sessions');
  await bus.subscribe({ message() {}, resync() {} });
  await other.subscribe({ message() {}, resync() {} });
  const store = new MemoryQuestionStore();
  const pending = new PendingTable(10);
  const waiting = new Set<string>();
  const work = new BackgroundWork();
  const share = new Share({
    bus,
    store,
    pending,
    asksHere: (rpcId) => waiting.has(rpcId),
    adoptPending: (record) => {
      if (pending.get(record.rpcId) === undefined) pending.add(new PendingQuestion(record, pending.nextSeq(), { saved: true }));
    },
    onUnreadable: () => {},
    lifecycle: new Lifecycle(),
    work,
    logger: silentLogger,
    everything: options.everything ?? false,
  });
  await share.start();
  /** How many messages `here` hears of one `asked` about `sessionId` published by the other node. */
  const hears = async (sessionId: string): Promise<number> => {
    const before = hub.received('here');
    const message: QuestionBusMessage = { type: 'asked', from: 'other', record: { ...sampleQuestionRecord({ sessionId }), askedOn: 'other' } };
    await other.publish(message);
    await new Promise((resolve) => setTimeout(resolve, 0));
    return hub.received('here') - before;
  };
  return { share, store, pending, waiting, work, hears };
}

describe('Share', () => {
  it('hears nothing of any session before a subscriber arrives, and a session only while one of its subscribers stays', async () => {
    const { share, work, hears } = await node();
    expect(await hears('s1')).toBe(0);
    const one = subscriber(['s1']);
    const two = subscriber(['s1']);
    await share.hold(one);
    expect(share.hold(two)).toBeUndefined();
    expect(await hears('s1')).toBe(1);
    expect(await hears('s2')).toBe(0);
    share.release(one);
    await work.drain();
    expect(await hears('s1')).toBe(1);
    share.release(two);
    await work.drain();
    expect(await hears('s1')).toBe(0);
  });

  it('stays following a session whose subscriber left and came back before the bus was told, and drops one that left for good', async () => {
    const { share, work, hears } = await node();
    const first = subscriber(['s1']);
    const second = subscriber(['s1']);
    // All at once: follow, unfollow and follow again are queued in this order.
    void share.hold(first);
    share.release(first);
    void share.hold(second);
    await work.drain();
    expect(await hears('s1')).toBe(1);
    share.release(second);
    void share.hold(first);
    share.release(first);
    await work.drain();
    expect(await hears('s1')).toBe(0);
  });

  it("reads a session's pending questions on its first subscriber and forgets them on its last, keeping a waiting asker's", async () => {
    const { share, store, pending, waiting } = await node();
    const mine = sampleQuestionRecord({ sessionId: 's1' });
    const theirs = sampleQuestionRecord({ sessionId: 's1' });
    const elsewhere = sampleQuestionRecord({ sessionId: 's2' });
    for (const record of [mine, theirs, elsewhere]) await store.save(record);
    waiting.add(mine.rpcId);
    const tab = subscriber(['s1']);
    await share.hold(tab);
    expect(pending.all().map((entry) => entry.rpcId)).toEqual([mine.rpcId, theirs.rpcId]);
    share.release(tab);
    expect(pending.all().map((entry) => entry.rpcId)).toEqual([mine.rpcId]);
    // Forgotten, not settled: a later subscriber reads it again.
    expect(pending.wasSettled(theirs.rpcId)).toBe(false);
  });

  it("follows '*' for a subscriber that may see any session, and lists every session at reconcile while it stays", async () => {
    const { share, store, pending, work, hears } = await node();
    await store.save(sampleQuestionRecord({ sessionId: 's1' }));
    await store.save(sampleQuestionRecord({ sessionId: 's2' }));
    expect(share.selection()).toBeUndefined();
    const operator = subscriber('any');
    await share.hold(operator);
    expect(pending.size).toBe(2);
    expect(share.selection()).toBe('all');
    expect(await hears('s9')).toBe(1);
    share.release(operator);
    await work.drain();
    expect(pending.size).toBe(0);
    expect(await hears('s9')).toBe(0);
  });

  it('adds a question a visit finds pending in the store, and nothing for one it does not', async () => {
    const { share, store, pending } = await node();
    const record = sampleQuestionRecord({ sessionId: 's1' });
    await store.save(record);
    expect(await share.visit('no-such-question')).toBe('absent');
    expect(await share.visit(record.rpcId)).toBe('added');
    share.letGo(record.rpcId);
    expect(pending.size).toBe(0);
    await store.claim(record.rpcId, 'cancelled');
    expect(await share.visit(record.rpcId)).toBe('absent');
    expect(pending.size).toBe(0);
  });

  it("holds everything with `everything` (a route), whatever comes and goes", async () => {
    const { share, hears } = await node({ everything: true });
    expect(share.startSelection).toBe('all');
    expect(share.hold(subscriber(['s1']))).toBeUndefined();
    expect(share.serves('any-session')).toBe(true);
    expect(await hears('s2')).toBe(1);
  });
});
