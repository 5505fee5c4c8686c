// What a reconcile reads (docs/scaling.md, "Reconcile"): the ids of the node's pending questions,
// never the records it already holds, so its cost follows what changed and not what is held; and
// what the bus lost (a question asked elsewhere, one settled elsewhere) is still found.
import { MemoryQuestionBusHub, MemoryQuestionStore, type QuestionRecord, type SessionSelection } from '@askseam/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostLogger, WebSocketHostOptions } from '../src/index.js';
import { cleanup, colourQuestion, startHost, track, type TestHost } from './fixture.js';
import { RawClient } from './raw-client.js';
import { oneSessionPerson, waitFor } from './share-fixture.js';

afterEach(cleanup);

/** The memory store, counting every read a reconcile can make: which rpcIds it `get`s, and how many records the lists hand out. */
class CountingStore extends MemoryQuestionStore {
  readonly got: string[] = [];
  recordsListed = 0;
  idsLists = 0;
  override get(rpcId: string): Promise<QuestionRecord | undefined> {
    this.got.push(rpcId);
    return super.get(rpcId);
  }
  override async listPending(sessions: SessionSelection): Promise<QuestionRecord[]> {
    const records = await super.listPending(sessions);
    this.recordsListed += records.length;
    return records;
  }
  override listPendingIds(sessions: SessionSelection): Promise<string[]> {
    this.idsLists += 1;
    return super.listPendingIds(sessions);
  }
  reset(): void {
    this.got.length = 0;
    this.recordsListed = 0;
    this.idsLists = 0;
  }
}

/** The same store as one that never had `listPendingIds` (a store written before it): a reconcile falls back to listPending. */
function storeWithoutIds(): CountingStore {
  const store = new CountingStore();
  Object.defineProperty(store, 'listPendingIds', { value: undefined });
  return store;
}

/** A logger that counts the reconciles the host finished (its debug line) and keeps their figures. */
function reconcileCounter(): { logger: HostLogger; done: Record<string, unknown>[] } {
  const done: Record<string, unknown>[] = [];
  const ignore = () => {};
  return { logger: { debug: (message, fields) => message === 'reconciled with the store' && done.push(fields ?? {}), info: ignore, warn: ignore, error: ignore }, done };
}

const HELD = 200;

function record(index: number): QuestionRecord {
  return { rpcId: `held-${index}`, sessionId: 'agent-a', askedBy: 'agent-a', askedAt: new Date().toISOString(), questions: [colourQuestion], mode: 'detached' };
}

/** A store filled with HELD pending questions of agent-a, and a node holding them with a client of agent-a connected and replayed. */
async function nodeHolding(store: CountingStore, holds: 'share' | 'everything'): Promise<{ node: TestHost; client: RawClient; reconciles: Record<string, unknown>[] }> {
  for (let index = 0; index < HELD; index++) await store.save(record(index));
  const hub = new MemoryQuestionBusHub();
  const { logger, done } = reconcileCounter();
  const options: Partial<WebSocketHostOptions> = { store, bus: hub.connect('b'), holds, authenticate: oneSessionPerson, reconcileMs: 20, logger };
  const node = await startHost(options);
  const client = track(await RawClient.connect(`${node.host.url}?as=agent-a`));
  await client.next('hello');
  await waitFor(() => client.all('question/requested').length === HELD, 'the replay of every held question');
  return { node, client, reconciles: done };
}

describe.each([['share' as const], ['everything' as const]])("a reconcile of a node with holds '%s'", (holds) => {
  it('reads the pending ids only: no record of the questions it holds, unchanged, and no get of any of them', async () => {
    const store = new CountingStore();
    const { node, reconciles } = await nodeHolding(store, holds);
    store.reset();
    const before = reconciles.length;
    await waitFor(() => reconciles.length >= before + 3, 'three reconciles');
    expect(store.idsLists).toBeGreaterThanOrEqual(3);
    expect(store.recordsListed).toBe(0);
    expect(store.got).toEqual([]);
    expect(node.host.pending()).toHaveLength(HELD);
    expect(reconciles.at(-1)).toMatchObject({ held: HELD, listed: HELD, read: 0 });
  });

  it('still finds a question asked elsewhere and one settled elsewhere whose news never came, reading only those two', async () => {
    const store = new CountingStore();
    const { node, client, reconciles } = await nodeHolding(store, holds);
    store.reset();
    // Written behind the node's back: no bus message tells it of either.
    const asked: QuestionRecord = { ...record(HELD), rpcId: 'asked-elsewhere' };
    await store.save(asked);
    await store.claim('held-7', 'cancelled');
    const shown = await client.next('question/requested', (frame) => frame.rpcId === 'asked-elsewhere');
    expect(shown.sessionId).toBe('agent-a');
    expect((await client.next('question/resolved', (frame) => frame.rpcId === 'held-7')).outcome).toBe('cancelled');
    const settledFor = reconciles.length;
    await waitFor(() => reconciles.length >= settledFor + 2, 'two more reconciles');
    expect(new Set(store.got)).toEqual(new Set(['asked-elsewhere', 'held-7']));
    expect(store.recordsListed).toBe(0);
    const held = node.host.pending().map((entry) => entry.rpcId);
    expect(held).toHaveLength(HELD);
    expect(held).toContain('asked-elsewhere');
    expect(held).not.toContain('held-7');
  });
});

describe('a reconcile on a store without listPendingIds', () => {
  it('reads the pending records instead, and finds what the bus lost the same way', async () => {
    const store = storeWithoutIds();
    const { node, client, reconciles } = await nodeHolding(store, 'share');
    store.reset();
    await store.save({ ...record(HELD), rpcId: 'asked-elsewhere' });
    await store.claim('held-3', 'cancelled');
    await client.next('question/requested', (frame) => frame.rpcId === 'asked-elsewhere');
    await client.next('question/resolved', (frame) => frame.rpcId === 'held-3');
    const before = reconciles.length;
    await waitFor(() => reconciles.length >= before + 1, 'a reconcile');
    expect(store.idsLists).toBe(0);
    expect(store.recordsListed).toBeGreaterThanOrEqual(HELD);
    expect(node.host.pending().map((entry) => entry.rpcId)).not.toContain('held-3');
  });
});

describe('a reconcile while a session is being read for its first subscriber', () => {
  it("neither lists that session nor reads its questions one by one: the session's own read brings them", async () => {
    const store = new GatedStore();
    for (let index = 0; index < HELD; index++) await store.save(record(index));
    const hub = new MemoryQuestionBusHub();
    const { logger, done } = reconcileCounter();
    const node = await startHost({ store, bus: hub.connect('b'), holds: 'share', authenticate: oneSessionPerson, reconcileMs: 20, logger });
    store.hold = true;
    const client = track(await RawClient.connect(`${node.host.url}?as=agent-a`));
    await waitFor(() => store.held.length === 1, "the session's first read to start");
    const before = done.length;
    await waitFor(() => done.length >= before + 2, 'two reconciles during the read');
    store.release();
    await client.next('hello');
    await waitFor(() => client.all('question/requested').length === HELD, 'the replay');
    const after = done.length;
    await waitFor(() => done.length >= after + 2, 'two reconciles after it');
    expect(store.got).toEqual([]);
    expect(store.recordsListed).toBe(HELD);
    expect(done.at(-1)).toMatchObject({ held: HELD, listed: HELD, read: 0 });
  });
});

/** A counting store whose listPending waits, while `hold` is set, until `release()`. */
class GatedStore extends CountingStore {
  hold = false;
  readonly held: (() => void)[] = [];
  override async listPending(sessions: SessionSelection): Promise<QuestionRecord[]> {
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    return super.listPending(sessions);
  }
  release(): void {
    this.hold = false;
    for (const resolve of this.held.splice(0)) resolve();
  }
}
