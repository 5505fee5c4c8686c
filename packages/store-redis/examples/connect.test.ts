import { readFileSync } from 'node:fs';
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

it('shows in the README only code that is in the examples', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/<!-- excerpt: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)];
  expect(blocks.length).toBeGreaterThan(0);
  // Every ts block carries an excerpt marker (tables and plain text blocks are not code).
  expect([...readme.matchAll(/```ts\n/g)].length).toBe(blocks.length);
  const trimmed = (text: string) => text.split('\n').map((line) => line.trim());
  for (const [, path, code] of blocks) {
    const source = trimmed(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'));
    const excerpt = trimmed(code!);
    expect(source.some((_, start) => excerpt.every((line, offset) => source[start + offset] === line)), `README block from ${path}`).toBe(true);
  }
});
