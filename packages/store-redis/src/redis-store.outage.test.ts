import { randomUUID } from 'node:crypto';
import { QuestionStoreError } from '@askseam/store';
import { sampleQuestionRecord, questionStoreErrorCode } from '@askseam/store-testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisQuestionStore } from './redis-store.js';
import { startRedisServer, type TestRedisServer } from './testing/redis-server.js';

// Its own file: these tests stop and restart the server, which a shared server in another file must not see.
let server: TestRedisServer;
const stores: RedisQuestionStore[] = [];

beforeAll(async () => {
  server = await startRedisServer({ persistent: true });
});

afterAll(async () => {
  await server?.stop();
});

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  // A test that failed half-way must not leave the next one without a server.
  await server.restart();
});

function open(): RedisQuestionStore {
  const store = new RedisQuestionStore({ url: server.url, keyPrefix: `outage-${randomUUID()}:` });
  stores.push(store);
  return store;
}


/** Poll the same store object until Redis answers it again (the client reconnects on its own). */
async function untilAvailable(store: RedisQuestionStore): Promise<void> {
  for (let tries = 0; ; tries++) {
    const code = await questionStoreErrorCode(store.listPending([]).then(() => store.get('probe')));
    if (code === 'no error') return;
    if (code !== 'STORE_UNAVAILABLE' || tries > 200) throw new Error(`the store did not come back (last: ${code})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

describe.each([
  ['stopped', () => server.stop()],
  ['killed (SIGKILL)', () => server.kill()],
] as const)('Redis %s', (_, takeDown) => {
  it('rejects every call with STORE_UNAVAILABLE while it is down, without waiting for it to return', async () => {
    const store = open();
    const saved = sampleQuestionRecord();
    await store.save(saved);
    await takeDown();
    // Still down while these settle: they cannot have waited for Redis to come back.
    expect(await questionStoreErrorCode(store.save(sampleQuestionRecord()))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(store.claim(saved.rpcId, 'answered', yes))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(store.get(saved.rpcId))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(store.listPending('all'))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(store.markResumed(saved.rpcId))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(store.appendEvent({ type: 'timed_out', sessionId: 'a', rpcId: saved.rpcId, data: {} }))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(store.appendEvents([{ type: 'timed_out', sessionId: 'a', rpcId: saved.rpcId, data: {} }]))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(store.readEvents('a'))).toBe('STORE_UNAVAILABLE');
  });

  it('works again through the same store object once Redis is back, with what it held before and nothing from the failed calls', async () => {
    const store = open();
    const kept = sampleQuestionRecord({ askedOn: 'node-a' });
    const settled = sampleQuestionRecord();
    await store.save(kept);
    await store.save(settled);
    const claimed = await store.claim(settled.rpcId, 'answered', yes);
    const event = await store.appendEvent({ type: 'timed_out', sessionId: 'a', rpcId: kept.rpcId, data: {} });
    await takeDown();
    const failed = sampleQuestionRecord();
    expect(await questionStoreErrorCode(store.save(failed))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(store.claim(kept.rpcId, 'cancelled'))).toBe('STORE_UNAVAILABLE');

    await server.restart();
    await untilAvailable(store);
    expect(await store.listPending('all')).toEqual([kept]);
    expect(await store.get(failed.rpcId)).toBeUndefined();
    expect(await store.listAwaitingResume()).toEqual([claimed]);
    expect(await store.readEvents('a')).toEqual([event]);
    // Counters survived too: new saves and events keep their order after the old ones.
    const later = sampleQuestionRecord();
    await store.save(later);
    expect((await store.listPending('all')).map((record) => record.rpcId)).toEqual([kept.rpcId, later.rpcId]);
    expect((await store.appendEvent({ type: 'timed_out', sessionId: 'a', rpcId: later.rpcId, data: {} })).id).toBeGreaterThan(event.id);
    expect(await store.claim(kept.rpcId, 'answered', yes)).toMatchObject({ outcome: 'answered', askedOn: 'node-a' });
  });
});

describe('a connection dropped while a write waits for its reply', () => {
  it('rejects the write with STORE_UNAVAILABLE saying it ran whole or not at all, and leaves no part of it', async () => {
    const store = open();
    const before = sampleQuestionRecord();
    await store.save(before);
    // Hold every write in Redis, so the save is on the wire, unanswered, when Redis dies.
    const pauser = new Redis(server.url);
    pauser.on('error', () => {});
    try {
      await pauser.call('CLIENT', 'PAUSE', '20000', 'WRITE');
      const caught = sampleQuestionRecord({ sessionId: before.sessionId });
      const save = store.save(caught).catch((error: unknown) => error);
      // Its first write (the rpcId's pointer) waits in Redis, unanswered.
      while (!/flags=b .*cmd=(evalsha|set)/.test(String(await pauser.call('CLIENT', 'LIST')))) await new Promise((resolve) => setTimeout(resolve, 10));
      await server.kill();
      const error = await save;
      expect(QuestionStoreError.isInstance(error) && error.code).toBe('STORE_UNAVAILABLE');
      expect((error as Error).message).toContain('whole or not at all');

      await server.restart();
      await untilAvailable(store);
      expect(await store.get(caught.rpcId)).toBeUndefined();
      expect(await store.listPending([before.sessionId])).toEqual([before]);
    } finally {
      pauser.disconnect();
    }
  });
});

describe('Redis down when the store is made', () => {
  it('rejects STORE_UNAVAILABLE and then works once Redis starts', async () => {
    await server.stop();
    const store = open();
    expect(await questionStoreErrorCode(store.save(sampleQuestionRecord()))).toBe('STORE_UNAVAILABLE');
    await server.restart();
    await untilAvailable(store);
    const record = sampleQuestionRecord();
    await store.save(record);
    expect(await store.get(record.rpcId)).toEqual(record);
  });

  it('names the Redis address in the STORE_UNAVAILABLE message', async () => {
    await server.stop();
    const store = open();
    const error = await store.get('any').catch((caught: unknown) => caught);
    expect(QuestionStoreError.isInstance(error) && error.code).toBe('STORE_UNAVAILABLE');
    expect((error as Error).message).toContain(`127.0.0.1:${server.port}`);
  });
});
