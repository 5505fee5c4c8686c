import { readFileSync } from 'node:fs';
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

it('shows in the README only code that is in the examples', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/<!-- excerpt: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)];
  expect(blocks.length).toBeGreaterThan(0);
  expect([...readme.matchAll(/```\w*\n/g)].length / 2).toBe(blocks.length);
  const trimmed = (text: string) => text.split('\n').map((line) => line.trim());
  for (const [, path, code] of blocks) {
    const source = trimmed(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'));
    const excerpt = trimmed(code!);
    expect(source.some((_, start) => excerpt.every((line, offset) => source[start + offset] === line)), `README block from ${path}`).toBe(true);
  }
});
