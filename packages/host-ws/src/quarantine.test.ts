import { randomUUID } from 'node:crypto';
import type { NewQuestionRecord, QuestionStore } from '@askseam/store';
import { RedisQuestionStore, redisStoreKeys, sessionBucket } from '@askseam/store-redis';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { hasUserQuestionErrorCode } from '@askseam/user-questions';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupDurable, openSqlite, resumeRecorder, tempDbFile } from '../test/durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost } from '../test/fixture.js';
import type { HostLogger } from './logger.js';

afterEach(async () => {
  await cleanup();
  await cleanupDurable();
});

function record(sessionId: string, extra: Partial<NewQuestionRecord> = {}): NewQuestionRecord {
  return { rpcId: randomUUID(), sessionId, askedBy: sessionId, askedAt: new Date().toISOString(), questions: [colourQuestion], mode: 'detached', ...extra };
}

/** A logger that keeps its warnings. */
function warnings(): { logger: HostLogger; warned: { message: string; fields?: Record<string, unknown> }[] } {
  const warned: { message: string; fields?: Record<string, unknown> }[] = [];
  const noop = () => {};
  return { logger: { debug: noop, info: noop, error: noop, warn: (message, fields) => warned.push({ message, ...(fields === undefined ? {} : { fields }) }) }, warned };
}

async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; !(await check()); tries++) {
    if (tries > 200) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a damaged record in a SQLite store', () => {
  it('does not stop the host: it is quarantined (warning, event, store log, listing) and every other question is served', async () => {
    const file = tempDbFile();
    const seed = openSqlite(file);
    const good = record('agent-a');
    const damaged = record('agent-a');
    await seed.save(good);
    await seed.save(damaged);
    const raw = new Database(file);
    raw.prepare("UPDATE questions SET questions = '[{\"nope\":1}]' WHERE rpc_id = ?").run(damaged.rpcId);
    raw.close();

    const store = openSqlite(file);
    const { logger, warned } = warnings();
    const resumed = resumeRecorder();
    const { host, connect, events } = await startHost({ store, logger, onResume: resumed.onResume });
    expect(host.pending().map((question) => question.rpcId)).toEqual([good.rpcId]);
    expect(host.quarantined()).toEqual([{ rpcId: damaged.rpcId, sessionId: 'agent-a', reason: expect.stringContaining(damaged.rpcId), at: expect.any(String) }]);
    expect(events.filter((event) => event.type === 'quarantined')).toEqual([
      { type: 'quarantined', rpcId: damaged.rpcId, sessionId: 'agent-a', reason: expect.stringContaining(damaged.rpcId) },
    ]);
    expect(warned).toEqual([{ message: expect.stringContaining('quarantined'), fields: expect.objectContaining({ rpcId: damaged.rpcId }) }]);
    await eventually(async () => (await store.readEvents('agent-a')).some((event) => event.type === 'record_quarantined'), 'the quarantine event in the store log');
    expect((await store.readEvents('agent-a')).filter((event) => event.type === 'record_quarantined')).toEqual([
      expect.objectContaining({ rpcId: damaged.rpcId, data: { reason: expect.stringContaining(damaged.rpcId) } }),
    ]);

    // The rest is served as usual: the good question is replayed and its answer goes to onResume.
    const client = await connect();
    const hello = await client.next('hello');
    expect(hello.pending).toEqual([good.rpcId]);
    expect(await client.answer(good.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect((await resumed.next()).rpcId).toBe(good.rpcId);
    // The damaged row is left exactly as it was.
    const check = new Database(file, { readonly: true });
    expect(check.prepare('SELECT questions FROM questions WHERE rpc_id = ?').pluck().get(damaged.rpcId)).toBe('[{"nope":1}]');
    check.close();
  });
});

describe('an answer read back from the store that does not fit its question', () => {
  it('never reaches onResume: it is quarantined, and a good answer next to it is still handed over', async () => {
    const file = tempDbFile();
    const seed = openSqlite(file);
    const planted = record('agent-a');
    const genuine = record('agent-a');
    await seed.save(planted);
    await seed.save(genuine);
    // The store checks only the answer's shape: a label never offered gets in, as a planted row would.
    await seed.claim(planted.rpcId, 'answered', { answers: [{ id: 'colour', selected: ['Green'] }] });
    await seed.claim(genuine.rpcId, 'answered', redAnswer);

    const store: QuestionStore = openSqlite(file);
    const resumed = resumeRecorder();
    const { host } = await startHost({ store, onResume: resumed.onResume });
    expect((await resumed.next()).rpcId).toBe(genuine.rpcId);
    await host.close();
    expect(resumed.records.map((resumedRecord) => resumedRecord.rpcId)).toEqual([genuine.rpcId]);
    expect(host.quarantined()).toEqual([expect.objectContaining({ rpcId: planted.rpcId, reason: expect.stringContaining('Green') })]);
    // Left unresumed in the store, for someone to look at.
    expect((await store.get(planted.rpcId))?.resumedAt).toBeUndefined();
  });

  it('does not resolve a waiting ask with it: the ask ends ASK_ABORTED', async () => {
    const file = tempDbFile();
    const store = openSqlite(file);
    const { ask, connect, host } = await startHost({ store });
    const client = await connect();
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    // Another process (played here by a second handle on the same file) settles it with a label never offered.
    const other = openSqlite(file);
    await other.claim(rpcId, 'answered', { answers: [{ id: 'colour', selected: ['Green'] }] });
    // The host learns of it when a response loses the store's claim and it reads the record back.
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
    const settled = await asking.settled;
    expect(settled.ok).toBe(false);
    expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_ABORTED')).toBe(true);
    expect(host.quarantined().map((entry) => entry.rpcId)).toEqual([rpcId]);
  });
});

describe('a damaged record in a Redis store', () => {
  let redis: TestRedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('does not stop the host: an edited hash is quarantined and the other questions are served', async () => {
    const keyPrefix = `quarantine-${randomUUID()}:`;
    const store = new RedisQuestionStore({ url: redis.url, keyPrefix });
    const inspect = new Redis(redis.url);
    try {
      const good = record('agent-a');
      const edited = record('agent-b');
      await store.save(good);
      await store.save(edited);
      await inspect.hset(redisStoreKeys(keyPrefix).record(sessionBucket(edited.sessionId), edited.rpcId), 'record', '{"rpcId": not json');
      const { host } = await startHost({ store });
      expect(host.pending().map((question) => question.rpcId)).toEqual([good.rpcId]);
      expect(host.quarantined()).toEqual([expect.objectContaining({ rpcId: edited.rpcId, sessionId: 'agent-b' })]);
      await host.close();
    } finally {
      inspect.disconnect();
      await store.close();
    }
  });
});
