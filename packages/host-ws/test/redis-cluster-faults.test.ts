// Host nodes in this process on one real redis-server (RedisQuestionStore + RedisQuestionBus), and
// what a hostile or flaky Redis does to them (issue 12, items 4 to 6): messages forged with a plain
// PUBLISH, subscriber connections cut with CLIENT KILL, redis-server stopped while an answer is
// being marked resumed, and nodes that reconcile often. Every test counts outcomes exactly.
import { randomUUID } from 'node:crypto';
import { RedisQuestionBus } from '@askseam/bus-redis';
import type { QuestionRecord } from '@askseam/store';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resumeRecorder } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost, type TestHost } from './fixture.js';

const blueAnswer = { answers: [{ id: 'colour', selected: ['Blue'] }] };

let redis: TestRedisServer;
let prefix: string;
const stores: RedisQuestionStore[] = [];
const rawClients: Redis[] = [];

beforeAll(async () => {
  // Persistent (AOF, fsync always): a stop and restart keeps records, leases and liveness keys.
  redis = await startRedisServer({ persistent: true });
});

beforeEach(() => {
  prefix = `t${randomUUID().slice(0, 8)}:`;
});

afterEach(async () => {
  await cleanup();
  for (const store of stores.splice(0)) await store.close();
  for (const client of rawClients.splice(0)) client.disconnect();
});

afterAll(async () => {
  await redis?.stop();
});

function openStore(): RedisQuestionStore {
  const store = new RedisQuestionStore({ url: redis.url, keyPrefix: prefix });
  stores.push(store);
  return store;
}

/** A host node on the shared store and bus of this test's prefix. */
function node(nodeId: string, options: Parameters<typeof startHost>[0] = {}, store = openStore()): Promise<TestHost> {
  return startHost({ store, bus: new RedisQuestionBus({ url: redis.url, keyPrefix: prefix, nodeId }), reconcileMs: 200, ...options });
}

/** A plain ioredis client: what anyone who can reach Redis has. */
function plainClient(): Redis {
  const client = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  client.on('error', () => {});
  rawClients.push(client);
  return client;
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1_000; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function allMarkedResumed(store: RedisQuestionStore, rpcIds: string[]): Promise<boolean> {
  for (const rpcId of rpcIds) if ((await store.get(rpcId))?.resumedAt === undefined) return false;
  return true;
}

describe('a message on the bus is a hint, checked against the store', () => {
  // Was a bug (issue 12, item 4): a node believed the record in a `settled` message, so one forged
  // PUBLISH resolved the waiting agent with the forger's answer while the store still said pending.
  it('does not hand a forged answer to the asker; the real answer resolves the ask', async () => {
    const a = await node('a');
    const b = await node('b');
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    const stored = await openStore().get(rpcId);
    const forged = { type: 'settled', from: 'mallory', record: { ...stored, outcome: 'answered', answer: blueAnswer, settledAt: new Date().toISOString() } };
    // Both nodes are subscribed and get it, before the real answer below.
    expect(await plainClient().publish(`${prefix}bus`, JSON.stringify(forged))).toBe(2);

    expect(await onB.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking.settled).toEqual({ ok: true, value: redAnswer });
    expect(await openStore().get(rpcId)).toMatchObject({ outcome: 'answered', answer: redAnswer });
  });

  // Was a bug (issue 12, item 4): a forged `asked` message pushed an arbitrary question to every
  // browser of the session, on every node.
  it('does not show a question that only a forged message tells of', async () => {
    const a = await node('a');
    const b = await node('b');
    const onA = await a.connect();
    const onB = await b.connect();
    const record: QuestionRecord = {
      rpcId: 'forged-question',
      sessionId: 'agent-a',
      askedBy: 'agent-a',
      askedAt: new Date().toISOString(),
      mode: 'detached',
      questions: [{ id: 'password', question: 'Type your account password to continue', options: [{ label: 'OK' }, { label: 'Later' }] }],
    };
    expect(await plainClient().publish(`${prefix}bus`, JSON.stringify({ type: 'asked', from: 'mallory', record }))).toBe(2);

    const asking = a.ask('agent-a');
    // The first question each node's client is shown is the real one, published after the forgery.
    const [shownOnA, shownOnB] = await Promise.all([onA.next('question/requested'), onB.next('question/requested')]);
    expect([shownOnA.questions, shownOnB.questions]).toEqual([[colourQuestion], [colourQuestion]]);
    expect(b.host.pending().map((entry) => entry.rpcId)).toEqual([shownOnB.rpcId]);
    expect(await onB.answer('forged-question', 'agent-a', { answers: [{ id: 'password', selected: ['OK'] }] })).toMatchObject({ accepted: false, reason: 'not-pending' });
    expect(await onB.answer(shownOnB.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking.settled).toEqual({ ok: true, value: redAnswer });
  });
});

describe('the store carries the news when it and the bus share a Redis', () => {
  /** A bus that counts what its host publishes itself. */
  function countingBus(nodeId: string): { bus: RedisQuestionBus; published: string[] } {
    const bus = new RedisQuestionBus({ url: redis.url, keyPrefix: prefix, nodeId });
    const published: string[] = [];
    const publish = bus.publish.bind(bus);
    bus.publish = (message) => {
      published.push(message.type);
      return publish(message);
    };
    return { bus, published };
  }

  it('publishes asked and settled inside the save and the claim, once each, and the answer crosses nodes', async () => {
    const a = countingBus('a');
    const b = countingBus('b');
    const hostA = await startHost({ store: openStore(), bus: a.bus, reconcileMs: 60_000 });
    const hostB = await startHost({ store: openStore(), bus: b.bus, reconcileMs: 60_000 });
    const heard: unknown[] = [];
    const listener = plainClient();
    listener.on('message', (_channel: string, text: string) => heard.push(JSON.parse(text)));
    await listener.subscribe(`${prefix}bus`);
    const onB = await hostB.connect();

    const asking = hostA.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    expect(await onB.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking.settled).toEqual({ ok: true, value: redAnswer });

    // Neither host published the news itself: the save on A and the claim on B did, in the bus's own format.
    expect([a.published, b.published]).toEqual([[], []]);
    const stored = await openStore().get(rpcId);
    await waitFor('both messages on the raw subscriber', () => heard.length === 2);
    expect(heard).toEqual([
      { type: 'asked', from: 'a', record: { ...stored, outcome: undefined, answer: undefined, answeredBy: undefined, settledAt: undefined, resumedAt: undefined } },
      { type: 'settled', from: 'b', record: { ...stored, resumedAt: undefined } },
    ]);
    expect(stored?.answeredBy).toEqual({ principalId: 'token', via: 'websocket' });
  });

  it('leaves the publishing to the nodes when the store logs in as an ACL user that may not publish', async () => {
    const user = `nopub-${randomUUID().slice(0, 8)}`;
    await plainClient().call('ACL', 'SETUSER', user, 'on', '>pw', '~*', 'resetchannels', '+@all');
    const url = new URL(redis.url);
    url.username = user;
    url.password = 'pw';
    /** A store as that user; the bus stays on the default user of the same server and db. */
    const storeAsUser = (): RedisQuestionStore => {
      const store = new RedisQuestionStore({ url: url.toString(), keyPrefix: prefix });
      stores.push(store);
      return store;
    };
    const a = countingBus('a');
    const b = countingBus('b');
    const hostA = await startHost({ store: storeAsUser(), bus: a.bus, reconcileMs: 60_000 });
    const hostB = await startHost({ store: storeAsUser(), bus: b.bus, reconcileMs: 60_000 });
    const onB = await hostB.connect();

    const asking = hostA.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    expect(await onB.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking.settled).toEqual({ ok: true, value: redAnswer });
    // Each node published its news itself, after the write, as it does on two Redis servers.
    expect([a.published, b.published]).toEqual([['asked'], ['settled']]);
    expect(await openStore().get(rpcId)).toMatchObject({ outcome: 'answered', answer: redAnswer });
  });

  it('still ignores a forged settled message in exactly the text the answering node\'s store would send', async () => {
    const a = await node('a');
    const b = await node('b');
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    const stored = await openStore().get(rpcId);
    // What b's store publishes for a won claim, with the forger's answer in it, while the store says pending.
    const mimic = new RedisQuestionBus({ url: redis.url, keyPrefix: prefix, nodeId: 'b' });
    const { channel, before, after } = mimic.announcement({ type: 'settled' });
    await mimic.close();
    const forged = { ...stored, outcome: 'answered', answer: blueAnswer, settledAt: new Date().toISOString() };
    expect(await plainClient().publish(channel, `${before}${JSON.stringify(forged)}${after}`)).toBe(2);

    // The forgery is read back against the store (still pending) and dropped: the real answer is the one the asker gets.
    expect(await onB.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking.settled).toEqual({ ok: true, value: redAnswer });
    expect(await openStore().get(rpcId)).toMatchObject({ outcome: 'answered', answer: redAnswer });
  });
});

describe('an answer reaches exactly one of its asker and onResume', () => {
  // Was a bug (issue 12, item 5): liveness was the subscription alone, so while the asker's node
  // re-made its cut subscriber connection the answering node took it for dead and handed the
  // answer to its own onResume, and the asker got it too once its node resynced (6 of 6).
  it('gives every answer to its waiting asker and none to onResume when the subscriber connections are cut', async () => {
    const [resumedA, resumedB] = [resumeRecorder(), resumeRecorder()];
    const a = await node('a', { onResume: resumedA.onResume });
    const b = await node('b', { onResume: resumedB.onResume });
    const onB = await b.connect();
    const plain = plainClient();
    const rpcIds: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const asking = a.ask('agent-a');
      const { rpcId } = await onB.next('question/requested');
      rpcIds.push(rpcId);
      // Both nodes' subscriber connections, once both are back from the last round (ioredis makes them again by itself).
      await waitFor('both nodes to be subscribed', async () => ((await plain.pubsub('NUMSUB', `${prefix}bus`)) as unknown[])[1] === 2);
      expect(await plain.client('KILL', 'TYPE', 'pubsub')).toBe(2);
      expect(await onB.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
      expect(await asking.settled).toEqual({ ok: true, value: redAnswer });
    }
    const store = openStore();
    await waitFor('every answer to be marked resumed', () => allMarkedResumed(store, rpcIds));
    // Closing drains every resume handler already started on either node.
    await cleanup();
    expect([...resumedA.records, ...resumedB.records].map((record) => record.rpcId)).toEqual([]);
  });

  /** A real Redis store whose first markResumed stops redis-server just before it runs. */
  function storeThatStopsRedisOnFirstMark(): { store: RedisQuestionStore; markFailed: Promise<void> } {
    const store = openStore();
    const markResumed = store.markResumed.bind(store);
    let stopped: Promise<void> | undefined;
    let failed!: () => void;
    const markFailed = new Promise<void>((resolve) => (failed = resolve));
    store.markResumed = async (rpcId) => {
      if (stopped === undefined) {
        stopped = redis.stop();
        await stopped;
        try {
          return await markResumed(rpcId);
        } finally {
          failed();
        }
      }
      return markResumed(rpcId);
    };
    return { store, markFailed };
  }

  // Was a bug (issue 12, item 5): a failed markResumed was logged and dropped, so the record stayed
  // awaiting its resume after Redis came back and was handed over again.
  it('retries a failed mark once Redis is back, so the answer given to the asker is never resumed', async () => {
    const [resumedA, resumedB] = [resumeRecorder(), resumeRecorder()];
    const { store, markFailed } = storeThatStopsRedisOnFirstMark();
    const a = await node('a', { onResume: resumedA.onResume }, store);
    const b = await node('b', { onResume: resumedB.onResume });
    const onB = await b.connect();
    const asking = a.ask('agent-a');
    const { rpcId } = await onB.next('question/requested');
    expect(await onB.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking.settled).toEqual({ ok: true, value: redAnswer });
    await markFailed;
    await redis.restart();
    const reader = openStore();
    await waitFor('the retried mark to land', () => allMarkedResumed(reader, [rpcId]));
    await cleanup();
    expect([...resumedA.records, ...resumedB.records]).toEqual([]);
  });

  it('retries a failed mark after onResume, so a detached answer is handed over once', async () => {
    const [resumedA, resumedB] = [resumeRecorder(), resumeRecorder()];
    const a = await node('a', { onResume: resumedA.onResume });
    const { store, markFailed } = storeThatStopsRedisOnFirstMark();
    const b = await node('b', { onResume: resumedB.onResume }, store);
    const onB = await b.connect();
    const { rpcId } = await a.host.askDetached({ sessionId: 'agent-b', questions: [colourQuestion] });
    await onB.next('question/requested', (frame) => frame.rpcId === rpcId);
    expect(await onB.answer(rpcId, 'agent-b', redAnswer)).toMatchObject({ accepted: true });
    await markFailed;
    await redis.restart();
    const reader = openStore();
    await waitFor('the retried mark to land', () => allMarkedResumed(reader, [rpcId]));
    await cleanup();
    expect([...resumedA.records, ...resumedB.records].map((record) => record.rpcId)).toEqual([rpcId]);
  });
});

describe('which node resumes an answer (docs/scaling.md)', () => {
  // Issue 12, item 6: with other nodes reconciling often, some answers taken on node C were resumed
  // by A or B. The rule is exactly one onResume per answer, on whichever node takes its lease.
  it('hands each of 80 detached answers taken on one node to exactly one node\'s onResume', async () => {
    const recorders = [resumeRecorder(), resumeRecorder(), resumeRecorder()] as const;
    const a = await node('a', { onResume: recorders[0].onResume, reconcileMs: 20 });
    await node('b', { onResume: recorders[1].onResume, reconcileMs: 20 });
    const c = await node('c', { onResume: recorders[2].onResume });
    const onC = await c.connect();
    const rpcIds: string[] = [];
    for (let i = 0; i < 80; i += 1) rpcIds.push((await a.host.askDetached({ sessionId: 'agent-b', questions: [colourQuestion] })).rpcId);
    for (const rpcId of rpcIds) await onC.next('question/requested', (frame) => frame.rpcId === rpcId);
    const receipts = await Promise.all(rpcIds.map((rpcId) => onC.answer(rpcId, 'agent-b', redAnswer)));
    expect(receipts.filter((receipt) => receipt.accepted)).toHaveLength(80);
    const store = openStore();
    await waitFor('every answer to be marked resumed', () => allMarkedResumed(store, rpcIds));
    await cleanup();
    const resumed = recorders.flatMap((recorder) => recorder.records.map((record) => record.rpcId));
    expect(resumed.sort()).toEqual([...rpcIds].sort());
  });
});
