import { sampleQuestionRecord } from '@askseam/store-testing';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { RedisQuestionStore } from '../src/index.js';
import { appRedis, storeOnAppClient, storeOnUrl } from './connect.js';

let server: TestRedisServer;
const stores: RedisQuestionStore[] = [];
const clients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const client of clients.splice(0)) client.disconnect();
});
afterAll(async () => {
  await server?.stop();
});

it('lets a question saved through a store on a url be claimed through a store on the app\'s client, and leaves that client open', async () => {
  const client = appRedis(server.url);
  clients.push(client);
  const nodeA = storeOnUrl(server.url);
  const nodeB = storeOnAppClient(client);
  stores.push(nodeA, nodeB);
  const record = sampleQuestionRecord({ askedOn: 'node-a' });
  await nodeA.save(record);
  expect(await nodeB.listPending([record.sessionId])).toEqual([record]);
  expect(await nodeB.claim(record.rpcId, 'cancelled')).toMatchObject({ rpcId: record.rpcId, outcome: 'cancelled', askedOn: 'node-a' });
  expect(await nodeA.claim(record.rpcId, 'cancelled')).toBeUndefined();
  await nodeB.close();
  expect(await client.ping()).toBe('PONG');
});
