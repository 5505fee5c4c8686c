// The store on a real 3-master Redis Cluster: the contract suites, announcements on the session's
// shard channel, and a slot moved (ASK, then MOVED) while its questions are answered.
import { randomUUID } from 'node:crypto';
import { describeQuestionStoreContract, sampleQuestionRecord } from '@askseam/store-testing';
import { Cluster } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recommendedClusterOptions } from './connection.js';
import { redisStoreKeys, sessionBucket, sessionChannel } from './keys.js';
import { RedisQuestionStore, type RedisQuestionStoreOptions } from './redis-store.js';
import { startRedisCluster, type TestRedisCluster } from './testing/redis-cluster.js';

let cluster: TestRedisCluster | undefined;
const stores: RedisQuestionStore[] = [];
const clients: Cluster[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const client of clients.splice(0)) client.disconnect();
});

function open(options: RedisQuestionStoreOptions = {}): RedisQuestionStore {
  const store = new RedisQuestionStore({ ...(options.client === undefined ? { nodes: cluster!.nodes } : {}), keyPrefix: `test-${randomUUID()}:`, ...options });
  stores.push(store);
  return store;
}

function raw(options: Partial<typeof recommendedClusterOptions> & { shardedSubscribers?: boolean } = {}): Cluster {
  const client = new Cluster([...cluster!.nodes], { ...recommendedClusterOptions, ...options });
  client.on('error', () => {});
  clients.push(client);
  return client;
}

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

describeQuestionStoreContract('RedisQuestionStore on Redis Cluster', () => open(), { dispose: (store) => (store as RedisQuestionStore).close() });

describe('on Redis Cluster', () => {
  it('keeps every key of a session in one slot and spreads buckets over every master', async () => {
    const store = open();
    const inspect = raw();
    const records = Array.from({ length: 30 }, (_, i) => sampleQuestionRecord({ sessionId: `spread-${i}` }));
    for (const record of records) await store.saveWithEvent(record, { type: 'human_input_requested', sessionId: record.sessionId, rpcId: record.rpcId, data: { askedBy: record.askedBy, mode: record.mode, questions: record.questions } });
    const keys = redisStoreKeys(store.keyPrefix);
    const owners = new Set<number>();
    for (const record of records.slice(0, 6)) {
      const bucket = sessionBucket(record.sessionId);
      const slots = await Promise.all([keys.record(bucket, record.rpcId), keys.pending(bucket), keys.sessionPending(record.sessionId), keys.clock(bucket), keys.events(record.sessionId)].map((key) => inspect.cluster('KEYSLOT', key)));
      expect(new Set(slots).size).toBe(1);
    }
    for (const record of records) owners.add(await cluster!.ownerOf(Number(await inspect.cluster('KEYSLOT', keys.pending(sessionBucket(record.sessionId))))));
    expect(owners.size).toBe(3);
    expect((await store.listPending('all')).map((record) => record.rpcId)).toEqual(records.map((record) => record.rpcId));
  });

  it('publishes a claim\'s news on the session\'s shard channel, the asking node\'s channel and the bus channel, from inside the script', async () => {
    const store = open();
    const busPrefix = `bus-${randomUUID()}:`;
    const record = sampleQuestionRecord({ sessionId: 'news', askedOn: 'node-a' });
    await store.save(record);
    const heard: { channel: string; text: string }[] = [];
    const listener = raw({ shardedSubscribers: true });
    listener.on('smessage', (channel: string, text: string) => heard.push({ channel, text }));
    listener.on('message', (channel: string, text: string) => heard.push({ channel, text }));
    await listener.ssubscribe(sessionChannel(busPrefix, 'news'));
    await listener.subscribe(`${busPrefix}bus`, `${busPrefix}node:node-a`);
    const announce = { channel: `${busPrefix}bus`, before: '<', after: '>', routes: { sessionPrefix: busPrefix, nodePrefix: `${busPrefix}node:` } };
    const settled = await store.claim(record.rpcId, 'answered', yes, { announce });
    while (heard.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard.map((message) => message.channel).sort()).toEqual([`${busPrefix}bus`, `${busPrefix}node:node-a`, sessionChannel(busPrefix, 'news')].sort());
    for (const { text } of heard) expect(JSON.parse(text.slice(1, -1))).toEqual(settled);
  });

  it('claims with the session as a bucket hint, right or naming a bucket on another master, settling the record once', async () => {
    const asking = open();
    const answering = open({ keyPrefix: asking.keyPrefix });
    const inspect = raw();
    const keys = redisStoreKeys(asking.keyPrefix);
    const ownerOfSession = async (sessionId: string) => cluster!.ownerOf(Number(await inspect.cluster('KEYSLOT', keys.pending(sessionBucket(sessionId)))));
    const right = sampleQuestionRecord({ sessionId: 'hinted' });
    const guessed = sampleQuestionRecord({ sessionId: 'hinted' });
    await asking.save(right);
    await asking.save(guessed);
    expect(await answering.claim(right.rpcId, 'answered', yes, { sessionId: 'hinted' })).toMatchObject({ rpcId: right.rpcId, outcome: 'answered', answer: yes });
    // A session whose bucket another master holds: the script runs there, finds nothing, and the pointer leads home.
    let wrong = 'elsewhere-0';
    for (let i = 1; (await ownerOfSession(wrong)) === (await ownerOfSession('hinted')); i += 1) wrong = `elsewhere-${i}`;
    expect(await answering.claim(guessed.rpcId, 'cancelled', undefined, { sessionId: wrong })).toMatchObject({ rpcId: guessed.rpcId, outcome: 'cancelled' });
    expect(await answering.claim(guessed.rpcId, 'answered', yes, { sessionId: wrong })).toBeUndefined();
    expect(await answering.claim(right.rpcId, 'cancelled', undefined, { sessionId: 'hinted' })).toBeUndefined();
    expect(await asking.listPending(['hinted'])).toEqual([]);
    expect(await asking.get(guessed.rpcId)).toMatchObject({ outcome: 'cancelled' });
    expect(await answering.claim('never-saved', 'answered', yes, { sessionId: wrong })).toBeUndefined();
  });

  it('loses no answer and accepts each exactly once while the slot of their bucket moves to another master', async () => {
    const store = open();
    const other = open({ keyPrefix: store.keyPrefix });
    const inspect = raw();
    const sessionId = `moving-${randomUUID()}`;
    const keys = redisStoreKeys(store.keyPrefix);
    const slot = Number(await inspect.cluster('KEYSLOT', keys.pending(sessionBucket(sessionId))));
    const from = await cluster!.ownerOf(slot);
    const to = (from + 1) % 3;
    const records = Array.from({ length: 150 }, () => sampleQuestionRecord({ sessionId }));
    for (const record of records) await store.save(record);

    // Two stores race to claim every question while the slot's keys are migrated under them.
    const accepted = new Map<string, number>();
    const claimAll = async (by: RedisQuestionStore, outcome: 'answered' | 'cancelled') => {
      for (const record of records) {
        for (;;) {
          try {
            const won = outcome === 'answered' ? await by.claim(record.rpcId, 'answered', yes) : await by.claim(record.rpcId, 'cancelled');
            if (won !== undefined) accepted.set(record.rpcId, (accepted.get(record.rpcId) ?? 0) + 1);
            break;
          } catch (error) {
            // Only STORE_UNAVAILABLE is expected (the slot busy for longer than ioredis retries).
            expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
            // It may have run: read it back, as the host does, before trying again.
            const now = await by.get(record.rpcId).catch(() => undefined);
            if (now?.outcome !== undefined) break;
          }
        }
      }
    };
    await Promise.all([claimAll(store, 'answered'), claimAll(other, 'cancelled'), cluster!.migrateSlot(slot, from, to)]);
    expect(await cluster!.ownerOf(slot)).toBe(to);
    // Every question was settled, by exactly one claim, and the store agrees.
    const settledHere = await Promise.all(records.map((record) => store.get(record.rpcId)));
    expect(settledHere.every((record) => record?.outcome === 'answered' || record?.outcome === 'cancelled')).toBe(true);
    expect(await store.listPending([sessionId])).toEqual([]);
    expect([...accepted.values()].every((count) => count === 1)).toBe(true);
    expect(accepted.size).toBe(records.length);
    // After the move, the same store (MOVED once, then the new owner) keeps working.
    const late = sampleQuestionRecord({ sessionId });
    await store.save(late);
    expect(await other.claim(late.rpcId, 'cancelled')).toMatchObject({ outcome: 'cancelled' });
  }, 60_000);
});
