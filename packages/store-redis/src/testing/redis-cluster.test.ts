import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type TestRedisCluster } from './redis-cluster.js';

let cluster: TestRedisCluster | undefined;
let client: Cluster | undefined;

beforeAll(async () => {
  cluster = await startRedisCluster();
  client = new Cluster([...cluster.nodes], { maxRedirections: 16 });
  client.on('error', () => {});
}, 60_000);
afterAll(async () => {
  client?.disconnect();
  await cluster?.stop();
  await cluster?.stop(); // idempotent
});

describe('startRedisCluster', () => {
  it('starts three masters on 127.0.0.1 that serve every slot', async () => {
    expect(cluster!.urls).toHaveLength(3);
    expect(cluster!.nodes.every((node) => node.host === '127.0.0.1')).toBe(true);
    const owners = new Set(await Promise.all([0, 8000, 16383].map((slot) => cluster!.ownerOf(slot))));
    expect(owners.size).toBe(3);
    expect(await client!.set('hello', 'world')).toBe('OK');
  });

  it('moves a slot with its keys to another master', async () => {
    await client!.set('{moved}a', '1');
    await client!.set('{moved}b', '2');
    const slot = Number(await client!.cluster('KEYSLOT', '{moved}a'));
    const from = await cluster!.ownerOf(slot);
    const to = (from + 1) % 3;
    await cluster!.migrateSlot(slot, from, to);
    expect(await cluster!.ownerOf(slot)).toBe(to);
    expect(await client!.mget('{moved}a', '{moved}b')).toEqual(['1', '2']);
    const direct = new Redis(cluster!.urls[to]!);
    try {
      expect(await direct.call('CLUSTER', 'COUNTKEYSINSLOT', slot)).toBe(2);
    } finally {
      direct.disconnect();
    }
  });

  it('kills a master: it refuses connections', async () => {
    await cluster!.kill(2);
    const gone = new Redis(cluster!.urls[2]!, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    gone.on('error', () => {});
    await expect(gone.connect()).rejects.toThrow();
  });
});
