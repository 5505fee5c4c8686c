// `livenessUnbrokenSince` from a bus's real refreshes on a real Redis: since when the other nodes
// have found this one alive without a break (the host lets an asker asked within that stretch take
// a sealed answer without the resume lease), and no value while that is not sure.
import { randomUUID } from 'node:crypto';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisQuestionBus } from './redis-bus.js';

let server: TestRedisServer;
const buses: RedisQuestionBus[] = [];
const rawClients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});

afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
  for (const client of rawClients.splice(0)) client.disconnect();
});

afterAll(async () => {
  await server?.stop();
});

function open(options: ConstructorParameters<typeof RedisQuestionBus>[0] = {}, url = server.url): RedisQuestionBus {
  const bus = new RedisQuestionBus({ url, keyPrefix: `test-${randomUUID()}:`, ...options });
  buses.push(bus);
  return bus;
}

function rawClient(): Redis {
  const client = new Redis(server.url, { maxRetriesPerRequest: 0 });
  client.on('error', () => {});
  rawClients.push(client);
  return client;
}

const listener = { message: () => {}, resync: () => {} };

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Gave up after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('livenessUnbrokenSince', () => {
  /** How many SETs the file's Redis has run: each is one liveness refresh of the one bus alive. */
  async function setCalls(): Promise<number> {
    const info = await rawClient().info('commandstats');
    return Number(/cmdstat_set:calls=(\d+)/.exec(info)?.[1] ?? 0);
  }

  it('is undefined before subscribe, a time once subscribed that stays while refreshes follow, and undefined after close', async () => {
    // Refreshed every 400 ms; a refresh may come up to 500 ms late before the stretch would break.
    const bus = open({ livenessTtlMs: 1200 });
    expect(bus.livenessUnbrokenSince()).toBeUndefined();
    const before = performance.now();
    await bus.subscribe(listener);
    const since = bus.livenessUnbrokenSince();
    expect(typeof since).toBe('number');
    expect(since).toBeGreaterThanOrEqual(before);
    expect(since).toBeLessThanOrEqual(performance.now());
    const refreshes = await setCalls();
    await waitFor('three more refreshes', async () => (await setCalls()) >= refreshes + 3);
    expect(bus.livenessUnbrokenSince()).toBe(since);
    await bus.close();
    expect(bus.livenessUnbrokenSince()).toBeUndefined();
  });

  it('is undefined while Redis is away, and a new, later time once the key is back after a gap', async () => {
    // A server of its own to stop: the file's keeps serving whatever happens here.
    const own = await startRedisServer();
    try {
      const bus = open({ livenessTtlMs: 300 }, own.url);
      await bus.subscribe(listener);
      const first = bus.livenessUnbrokenSince();
      expect(typeof first).toBe('number');
      await own.stop();
      await waitFor('the stretch to lapse', () => bus.livenessUnbrokenSince() === undefined);
      await own.restart();
      await waitFor('a new stretch', () => bus.livenessUnbrokenSince() !== undefined);
      expect(bus.livenessUnbrokenSince()).toBeGreaterThan(first!);
    } finally {
      for (const bus of buses.splice(0)) await bus.close();
      await own.stop();
    }
  });
});
