// A master of a real Redis Cluster killed under the store: calls on its slots fail with a typed
// STORE_UNAVAILABLE, and no question is ever claimed twice. Its own cluster: the kill ends it.
import { randomUUID } from 'node:crypto';
import { QuestionStoreError } from '@askseam/store';
import { sampleQuestionRecord } from '@askseam/store-testing';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recommendedClusterOptions } from './connection.js';
import { redisStoreKeys, sessionBucket } from './keys.js';
import { RedisQuestionStore } from './redis-store.js';
import { startRedisCluster, type TestRedisCluster } from './testing/redis-cluster.js';

let cluster: TestRedisCluster | undefined;

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

describe('a Redis Cluster master killed', () => {
  it('fails the calls on its slots with STORE_UNAVAILABLE and never claims a question twice', async () => {
    const keyPrefix = `kill-${randomUUID()}:`;
    const first = new RedisQuestionStore({ nodes: cluster!.nodes, keyPrefix });
    const second = new RedisQuestionStore({ nodes: cluster!.nodes, keyPrefix });
    const inspect = new Cluster([...cluster!.nodes], { ...recommendedClusterOptions });
    inspect.on('error', () => {});
    try {
      const records = Array.from({ length: 60 }, (_, i) => sampleQuestionRecord({ sessionId: `kill-${i}` }));
      for (const record of records) await first.save(record);
      const keys = redisStoreKeys(keyPrefix);
      const owner = new Map<string, number>();
      for (const record of records) owner.set(record.rpcId, await cluster!.ownerOf(Number(await inspect.cluster('KEYSLOT', keys.pending(sessionBucket(record.sessionId))))));
      // Warm both stores' bucket caches and connections to every master, then kill master 0.
      for (const record of records) await Promise.all([first.get(record.rpcId), second.get(record.rpcId)]);
      await cluster!.kill(0);

      const outcome = async (claim: Promise<unknown>): Promise<'won' | 'lost' | 'unavailable'> => {
        try {
          return (await claim) === undefined ? 'lost' : 'won';
        } catch (error) {
          expect(QuestionStoreError.isInstance(error) && error.code).toBe('STORE_UNAVAILABLE');
          return 'unavailable';
        }
      };
      const results = await Promise.all(
        records.map(async (record) => ({
          record,
          claims: await Promise.all([outcome(first.claim(record.rpcId, 'answered', yes)), outcome(second.claim(record.rpcId, 'cancelled'))]),
        })),
      );
      for (const { record, claims } of results) {
        expect(claims.filter((claim) => claim === 'won').length, record.rpcId).toBeLessThanOrEqual(1);
        // A question whose master is gone cannot be claimed at all.
        if (owner.get(record.rpcId) === 0) expect(claims).toEqual(['unavailable', 'unavailable']);
      }
      expect(results.some(({ record }) => owner.get(record.rpcId) === 0)).toBe(true);
      const read = await first.get(records.find((record) => owner.get(record.rpcId) === 0)!.rpcId).catch((error: unknown) => error);
      expect(QuestionStoreError.isInstance(read) && read.code).toBe('STORE_UNAVAILABLE');
    } finally {
      inspect.disconnect();
      await first.close();
      await second.close();
    }
  }, 60_000);
});
