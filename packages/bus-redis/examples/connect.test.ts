import type { QuestionBusMessage } from '@askseam/store';
import { sampleQuestionRecord } from '@askseam/store-testing';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { RedisQuestionBus } from '../src/index.js';
import { appRedis, busOnAppClient, busOnUrl } from './connect.js';

let server: TestRedisServer;
const buses: RedisQuestionBus[] = [];
const clients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});
afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
  for (const client of clients.splice(0)) client.disconnect();
});
afterAll(async () => {
  await server?.stop();
});

it('carries a message between a bus on a url and a bus on the app\'s client, and leaves the app\'s client open', async () => {
  const client = appRedis(server.url);
  clients.push(client);
  const owned = busOnUrl(server.url);
  const shared = busOnAppClient(client);
  buses.push(owned, shared);
  const heard: QuestionBusMessage[] = [];
  await shared.subscribe({ message: (message) => heard.push(message), resync() {} });
  await owned.subscribe({ message() {}, resync() {} });
  const message: QuestionBusMessage = { type: 'asked', from: owned.nodeId, record: sampleQuestionRecord() };
  await owned.publish(message);
  const deadline = Date.now() + 5000;
  while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(heard).toEqual([message]);
  expect(await owned.isNodeAlive(shared.nodeId)).toBe(true);
  await shared.close();
  expect(await client.ping()).toBe('PONG');
});
