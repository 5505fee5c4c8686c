// Sealed bus news on a real redis-server (issue 28 follow-up): nodes whose RedisQuestionBus shares a
// `sealKey` take each other's sealed `asked` and `settled` without reading the store; the asker's
// node still takes the resume lease before its asker gets the answer. Counted here: every store
// `get` and every bus `acquireLease` of each node. Anything unsealed (a node without the key, another
// key, a forged message) stays a hint that the store bears out or not.
import { randomBytes, randomUUID } from 'node:crypto';
import { RedisQuestionBus } from '@askseam/bus-redis';
import type { QuestionRecord } from '@askseam/store';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { hasUserQuestionErrorCode } from '@askseam/user-questions';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, colourQuestion, redAnswer, startHost, type TestHost } from './fixture.js';
import type { RawClient } from './raw-client.js';
import { waitFor } from './share-fixture.js';

const blueAnswer = { answers: [{ id: 'colour', selected: ['Blue'] }] };

let redis: TestRedisServer;
let prefix: string;
/** The key the nodes of one test share. */
let sealKey: Buffer;
/** The test's own store, for reading what is stored (not counted). */
let reader: RedisQuestionStore;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
}, 60_000);

beforeEach(() => {
  prefix = `seal${randomUUID().slice(0, 8)}:`;
  sealKey = randomBytes(32);
  reader = openStore();
});

afterEach(async () => {
  await cleanup();
  for (const close of closers.splice(0)) await close();
});

afterAll(async () => {
  await redis?.stop();
});

/** A host node with its own store and bus on this test's prefix, and what it did counted. */
interface CountedNode {
  node: TestHost;
  bus: RedisQuestionBus;
  /** The rpcId of every store `get` this node made… */
  gets: string[];
  /** …and of those that returned (a hint checked against the store has been decided once its get returned). */
  getsDone: string[];
  /** The key of every `acquireLease` this node's bus was asked for. */
  leases: string[];
  /** From now on the bus's `acquireLease` calls wait (recorded at once) until `releaseLeases()`. */
  holdLeases(): void;
  releaseLeases(): void;
  /** What this node's onResume received. */
  resumed: QuestionRecord[];
}

interface NodeOptions {
  /** The node's sealing key: the test's shared one unless told otherwise; null for none. */
  key?: Buffer | null;
  /** How often the node reconciles (default: once a minute, so that no reconcile reads the store during a test). */
  reconcileMs?: number;
}

function openStore(): RedisQuestionStore {
  const store = new RedisQuestionStore({ url: redis.url, keyPrefix: prefix });
  closers.push(() => store.close());
  return store;
}

async function counted(nodeId: string, { key = sealKey, reconcileMs = 60_000 }: NodeOptions = {}): Promise<CountedNode> {
  const store = openStore();
  const bus = new RedisQuestionBus({ url: redis.url, keyPrefix: prefix, nodeId, ...(key === null ? {} : { sealKey: key }) });
  const gets: string[] = [];
  const getsDone: string[] = [];
  const leases: string[] = [];
  const resumed: QuestionRecord[] = [];
  // Wrapped on the instances before the host sees them, so every call the host makes goes through here.
  const get = store.get.bind(store);
  store.get = async (rpcId) => {
    gets.push(rpcId);
    try {
      return await get(rpcId);
    } finally {
      getsDone.push(rpcId);
    }
  };
  const acquireLease = bus.acquireLease.bind(bus);
  let leasesHeld: Promise<void> = Promise.resolve();
  let releaseLeases = () => {};
  bus.acquireLease = async (leaseKey, ttlMs) => {
    leases.push(leaseKey);
    await leasesHeld;
    return acquireLease(leaseKey, ttlMs);
  };
  const holdLeases = () => {
    leasesHeld = new Promise((resolve) => (releaseLeases = resolve));
  };
  // A long reconcile period by default: every get counted is then the news path's.
  const node = await startHost({ store, bus, reconcileMs, onResume: (record) => void resumed.push(record) });
  return { node, bus, gets, getsDone, leases, resumed, holdLeases, releaseLeases: () => releaseLeases() };
}

/** A client of `on` that sees every session, past its hello. */
async function client(on: CountedNode): Promise<RawClient> {
  const connected = await on.node.connect();
  await connected.next('hello');
  return connected;
}

/** The record as the store holds it, read by the test's own store (not counted). */
function stored(rpcId: string): Promise<QuestionRecord | undefined> {
  return reader.get(rpcId);
}

const held = (on: CountedNode) => on.node.host.pending().map((entry) => entry.rpcId);

/** Whether an ask has ended (answered or not) by now. */
function watch(asking: { settled: Promise<unknown> }): () => boolean {
  let ended = false;
  void asking.settled.then(() => (ended = true));
  return () => ended;
}

describe('sealed news between nodes that share the key', () => {
  it('shows the question on B and hands the answer to the asker on A with no store read, under the resume lease, once', async () => {
    const a = await counted('a');
    const b = await counted('b');
    const onB = await client(b);
    const asking = a.node.ask('agent-a');
    const shown = await onB.next('question/requested');
    expect(shown.questions).toEqual([colourQuestion]);
    expect(b.gets).toEqual([]);

    // A node that took A for gone may be handing the answer to its onResume: the asker waits for the lease.
    a.holdLeases();
    const ended = watch(asking);
    expect((await onB.answer(shown.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await waitFor(() => a.leases.includes(`resume:${shown.rpcId}`), 'A to ask for the resume lease');
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(ended()).toBe(false);
    a.releaseLeases();
    await expect(asking).resolves.toEqual(redAnswer);
    await waitFor(async () => (await stored(shown.rpcId))?.resumedAt !== undefined, 'the hand-over to be marked in the store');
    expect(await stored(shown.rpcId)).toMatchObject({ outcome: 'answered', answer: redAnswer, askedOn: 'a' });
    expect(a.gets).toEqual([]);
    expect(a.leases).toEqual([`resume:${shown.rpcId}`]);
    expect(b.gets).toEqual([]);
    // The asker had it, so no onResume anywhere, and nothing is left for a later reconcile to resume.
    expect([...a.resumed, ...b.resumed]).toEqual([]);
    expect((await reader.listAwaitingResume()).map((record) => record.rpcId)).not.toContain(shown.rpcId);
    expect(held(a)).toEqual([]);
    expect(held(b)).toEqual([]);
  });
});

describe.each([
  ['has no key', null],
  ['has another key', randomBytes(32)],
])('a node that %s', (_name, otherKey) => {
  it('still shows the question and hands over its answer, through the store reads and the resume lease', async () => {
    const a = await counted('a');
    const b = await counted('b', { key: otherKey });
    const onB = await client(b);
    const asking = a.node.ask('agent-a');
    const shown = await onB.next('question/requested');
    // A's `asked` carries A's seal, which B cannot verify: B showed it after reading it from the store.
    expect(b.gets).toEqual([shown.rpcId]);

    expect((await onB.answer(shown.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
    await waitFor(async () => (await stored(shown.rpcId))?.resumedAt !== undefined, 'the hand-over to be marked in the store');
    // B's `settled` is not sealed with A's key: A read the record, then took the resume lease.
    expect(a.gets).toEqual([shown.rpcId]);
    expect(a.leases).toEqual([`resume:${shown.rpcId}`]);
    expect([...a.resumed, ...b.resumed]).toEqual([]);
  });
});

describe('a forged message on the bus channel', () => {
  /** Publish `message` as raw text, the way anyone who can reach Redis can, with `seal` after it. */
  async function forge(message: unknown, seal: string | undefined): Promise<void> {
    const raw = new Redis(redis.url);
    try {
      await raw.publish(`${prefix}bus`, `${JSON.stringify(message)}${seal === undefined ? '' : `\n${seal}`}`);
    } finally {
      raw.disconnect();
    }
  }

  it("with a wrong seal, or none, does not answer A's asker: the question stays pending and the real answer is the one it gets", async () => {
    const a = await counted('a');
    const b = await counted('b');
    const onB = await client(b);
    const asking = a.node.ask('agent-a');
    const ended = watch(asking);
    const { rpcId } = await onB.next('question/requested');
    const pending = (await stored(rpcId))!;
    const forged: QuestionRecord = { ...pending, outcome: 'answered', answer: blueAnswer, settledAt: new Date().toISOString() };
    await forge({ type: 'settled', from: 'b', record: forged }, randomBytes(32).toString('base64url'));
    await forge({ type: 'settled', from: 'b', record: forged }, undefined);
    // Both arrived as hints: A checked each against the store, which says pending, and left it there.
    await waitFor(() => ended() || a.getsDone.filter((id) => id === rpcId).length === 2, 'A to check both forged messages against the store');
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended()).toBe(false);
    expect(held(a)).toEqual([rpcId]);
    expect((await stored(rpcId))?.outcome).toBeUndefined();
    expect(onB.all('question/resolved')).toEqual([]);

    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
    // The real answer's lease; none for the forged messages.
    expect(a.leases).toEqual([`resume:${rpcId}`]);
  });

  it('`asked` with a wrong seal, for a question the store does not have, is not shown to a client of B', async () => {
    const a = await counted('a');
    const b = await counted('b');
    const onB = await client(b);
    const made: QuestionRecord = { rpcId: randomUUID(), sessionId: 'agent-a', askedBy: 'agent-a', askedAt: new Date().toISOString(), askedOn: 'a', questions: [colourQuestion], mode: 'blocking' };
    await forge({ type: 'asked', from: 'a', record: made }, randomBytes(32).toString('base64url'));
    await waitFor(() => b.getsDone.includes(made.rpcId) || held(b).includes(made.rpcId), 'B to check the forged question against the store');
    // A real question afterwards: shown, and the only one shown.
    const asking = a.node.ask('agent-a');
    const shown = await onB.next('question/requested');
    await onB.caughtUp();
    expect(onB.all('question/requested').map((frame) => frame.rpcId)).toEqual([shown.rpcId]);
    expect(held(b)).toEqual([shown.rpcId]);
    expect((await onB.answer(made.rpcId, 'agent-a', redAnswer)).accepted).toBe(false);
    expect((await onB.answer(shown.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
  });
});

describe('the resume lease and the store stay the judges', () => {
  it('with the resume lease taken by another node (it took A for gone), a sealed answer ends the asker ASK_ABORTED and stays for onResume', async () => {
    const a = await counted('a');
    const b = await counted('b');
    const onB = await client(b);
    const asking = a.node.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    // A third node that took A for gone holds the lease while it hands the answer to its onResume.
    const c = new RedisQuestionBus({ url: redis.url, keyPrefix: prefix, nodeId: 'c', sealKey });
    closers.push(() => c.close());
    expect(await c.acquireLease(`resume:${rpcId}`, 60_000)).toBe(true);

    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    const settled = await asking.settled;
    expect(settled.ok === false && hasUserQuestionErrorCode(settled.error, 'ASK_ABORTED')).toBe(true);
    expect(a.leases).toEqual([`resume:${rpcId}`]);
    expect(a.gets).toEqual([]);
    expect(await stored(rpcId)).toMatchObject({ outcome: 'answered', answer: redAnswer });
    expect(a.resumed).toEqual([]);
  });

  it('a genuine sealed `asked` sent again after its record is gone is dropped at the next reconcile, its clients told', async () => {
    const a = await counted('a');
    const b = await counted('b');
    const onB = await client(b);
    // Someone who can only reach Redis keeps a copy of A's sealed `asked` as it went by.
    const listener = new Redis(redis.url);
    closers.push(async () => listener.disconnect());
    const copies: string[] = [];
    listener.on('message', (_channel: string, text: string) => copies.push(text));
    await listener.subscribe(`${prefix}bus`);
    const asking = a.node.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
    const copy = copies.find((text) => text.startsWith('{"type":"asked"'));
    expect(copy).toContain('\n');
    // The record is gone (its retention ran out), and a node that never saw the question starts.
    const raw = new Redis(redis.url);
    closers.push(async () => raw.disconnect());
    const keys = await raw.keys(`${prefix}*q:${rpcId}`);
    expect(keys).toHaveLength(1);
    await raw.del(...keys);
    const c = await counted('c', { reconcileMs: 200 });
    const onC = await client(c);
    await raw.publish(`${prefix}bus`, copy!);
    // Sealed, so shown as it came; the store does not know it, so the next reconcile takes it back.
    const ghost = await onC.next('question/requested');
    expect(ghost.rpcId).toBe(rpcId);
    const gone = await onC.next('question/resolved');
    expect(gone.rpcId).toBe(rpcId);
    expect(held(c)).toEqual([]);
    expect((await onC.answer(rpcId, 'agent-a', blueAnswer)).accepted).toBe(false);
  });
});
