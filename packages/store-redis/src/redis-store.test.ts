import { randomUUID } from 'node:crypto';
import { QuestionStoreError } from '@askseam/store';
import { describeQuestionStoreContract, sampleQuestionRecord, questionStoreErrorCode } from '@askseam/store-testing';
import { describe, expect, it } from 'vitest';
import { recommendedRedisOptions } from './connection.js';
import { redisStoreKeys, sessionBucket } from './keys.js';
import { RedisQuestionStore } from './redis-store.js';
import { useRedisStoreFixture } from '../test/store-fixture.js';

const fixture = useRedisStoreFixture();
const { open, raw } = fixture;


const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

/** Where a store keeps a record: in its session's bucket. */
function recordKey(store: RedisQuestionStore, record: { rpcId: string; sessionId: string }): string {
  return redisStoreKeys(store.keyPrefix).record(sessionBucket(record.sessionId), record.rpcId);
}

describeQuestionStoreContract('RedisQuestionStore', () => open(), { dispose: (store) => (store as RedisQuestionStore).close() });

describe('records', () => {
  it('round-trips askedOn, urgency and a detached state through get, listPending and claim', async () => {
    const store = open();
    const record = sampleQuestionRecord({ askedOn: 'node-a', urgency: 'low', mode: 'detached', state: { step: [1, null, 'x'] } });
    await store.save(record);
    expect(await store.get(record.rpcId)).toEqual(record);
    expect(await store.listPending([record.sessionId])).toEqual([record]);
    expect(await store.claim(record.rpcId, 'answered', yes)).toEqual({ ...record, outcome: 'answered', answer: yes, settledAt: expect.any(String) });
  });

  it('shares one store between two instances on separate connections with the same prefix', async () => {
    const first = open();
    const second = open({ keyPrefix: first.keyPrefix });
    const record = sampleQuestionRecord({ askedOn: 'node-a' });
    await first.save(record);
    expect(await second.listPending('all')).toEqual([record]);
    expect(await second.claim(record.rpcId, 'cancelled')).toMatchObject({ rpcId: record.rpcId, outcome: 'cancelled' });
    expect(await first.listPending('all')).toEqual([]);
    expect((await first.listAwaitingResume()).map((found) => found.rpcId)).toEqual([record.rpcId]);
  });

  it('keeps stores with different prefixes apart', async () => {
    const first = open();
    const second = open();
    const record = sampleQuestionRecord();
    await first.save(record);
    expect(await second.get(record.rpcId)).toBeUndefined();
    await second.save(record);
    expect(await second.claim(record.rpcId, 'aborted')).toBeDefined();
    expect((await first.get(record.rpcId))?.outcome).toBeUndefined();
  });

  it('writes only keys under its prefix, in the documented layout: every key of a session in its bucket\'s hash slot', async () => {
    const store = open();
    const record = sampleQuestionRecord({ sessionId: 's:1' });
    const other = sampleQuestionRecord({ sessionId: 's:1' });
    await store.save(record);
    await store.save(other);
    await store.claim(record.rpcId, 'answered', yes);
    await store.appendEvent({ type: 'timed_out', sessionId: 's:1', rpcId: record.rpcId, data: {} });
    const keys = redisStoreKeys(store.keyPrefix);
    const bucket = sessionBucket('s:1');
    const inspect = raw();
    const inBucket = [keys.record(bucket, record.rpcId), keys.record(bucket, other.rpcId), keys.clock(bucket), keys.pending(bucket), keys.sessionPending('s:1'), keys.awaiting(bucket), keys.settled(bucket), keys.events('s:1')];
    expect((await inspect.keys(`${store.keyPrefix}*`)).sort()).toEqual([keys.layout, keys.buckets, keys.pointer(record.rpcId), keys.pointer(other.rpcId), ...inBucket].sort());
    // One hash tag, so one slot: what a script touches never spans slots on a Cluster.
    expect(new Set(inBucket.map((key) => /\{([^}]*)\}/.exec(key)?.[1]))).toEqual(new Set([`b${bucket}`]));
    expect(await inspect.get(keys.pointer(record.rpcId))).toBe(String(bucket));
    expect(await inspect.type(keys.events('s:1'))).toBe('stream');
    expect(await inspect.zrange(keys.sessionPending('s:1'), 0, -1)).toEqual([other.rpcId]);
    expect(await inspect.zrange(keys.settled(bucket), 0, -1)).toEqual([record.rpcId]);
    expect(await inspect.hget(keys.record(bucket, record.rpcId), 'outcome')).toBe('answered');
  });

  it('refuses a prefix that holds the layout before buckets with NOT_A_STORE, changing nothing, and a newer layout with NEWER_SCHEMA', async () => {
    const prefix = `old-${randomUUID()}:`;
    const inspect = raw();
    await inspect.zadd(`${prefix}pending`, 1, 'r1');
    await inspect.hset(`${prefix}q:r1`, 'record', '{}', 'session', 's', 'seq', '1');
    const store = open({ keyPrefix: prefix });
    const error = await store.listPending('all').catch((caught: unknown) => caught);
    expect(QuestionStoreError.isInstance(error) && error.code).toBe('NOT_A_STORE');
    expect((error as Error).message).toContain(`${prefix}pending`);
    expect(await questionStoreErrorCode(store.save(sampleQuestionRecord()))).toBe('NOT_A_STORE');
    expect((await inspect.keys(`${prefix}*`)).sort()).toEqual([`${prefix}pending`, `${prefix}q:r1`]);

    const newer = open();
    await inspect.set(redisStoreKeys(newer.keyPrefix).layout, '3');
    expect(await questionStoreErrorCode(newer.get('r1'))).toBe('NEWER_SCHEMA');
  });

  it('refuses a keyPrefix with braces (its hash tags would break the one-slot layout)', () => {
    expect(() => new RedisQuestionStore({ url: fixture.server.url, keyPrefix: '{app}:' })).toThrow(/keyPrefix/);
  });

  it('lists the awaiting records of one partition of the buckets, each record in exactly one partition', async () => {
    const store = open();
    const records = Array.from({ length: 12 }, (_, i) => sampleQuestionRecord({ sessionId: `p${i}` }));
    for (const record of records) {
      await store.save(record);
      await store.claim(record.rpcId, 'cancelled');
    }
    const parts = await Promise.all([0, 1, 2].map((index) => store.listAwaitingResume({ partition: { index, count: 3 } })));
    for (const [index, part] of parts.entries()) {
      for (const record of part) expect(sessionBucket(record.sessionId) % 3).toBe(index);
    }
    expect(parts.flat().map((record) => record.rpcId).sort()).toEqual(records.map((record) => record.rpcId).sort());
    expect(await questionStoreErrorCode(store.listAwaitingResume({ partition: { index: 3, count: 3 } }))).toBe('INVALID_INPUT');
  });

  it('works through an app client that has its own ioredis keyPrefix, which the claim script must add too', async () => {
    const client = raw({ ...recommendedRedisOptions, keyPrefix: `app-${randomUUID()}:` });
    const store = open({ client });
    const record = sampleQuestionRecord({ sessionId: 'prefixed' });
    await store.save(record);
    await store.claim(record.rpcId, 'cancelled');
    expect(await store.listPending(['prefixed'])).toEqual([]);
    // A second store (nothing remembered) finds the record through its pointer, inside a script too.
    expect(await open({ client, keyPrefix: store.keyPrefix }).get(record.rpcId)).toMatchObject({ rpcId: record.rpcId, outcome: 'cancelled' });
    const appPrefix = client.options.keyPrefix!;
    const inspect = raw();
    expect(await inspect.exists(`${appPrefix}${redisStoreKeys(store.keyPrefix).sessionPending('prefixed')}`)).toBe(0);
    expect(await inspect.exists(`${appPrefix}${recordKey(store, record)}`)).toBe(1);
  });

  it('loads its scripts again after Redis forgot them (SCRIPT FLUSH, as after a restart)', async () => {
    const store = open();
    await store.save(sampleQuestionRecord());
    await raw().script('FLUSH');
    const record = sampleQuestionRecord();
    await store.save(record);
    expect(await store.claim(record.rpcId, 'aborted')).toMatchObject({ outcome: 'aborted' });
  });
});

describe('atomic writes under races', () => {
  it('hands each question to exactly one of two instances racing to claim it, round after round', async () => {
    const first = open();
    const second = open({ keyPrefix: first.keyPrefix });
    for (let round = 0; round < 60; round++) {
      const record = sampleQuestionRecord();
      await (round % 2 === 0 ? first : second).save(record);
      const claims = await Promise.all([
        first.claim(record.rpcId, 'answered', yes),
        second.claim(record.rpcId, 'cancelled'),
        first.claim(record.rpcId, 'timed_out'),
        second.claim(record.rpcId, 'answered', yes),
      ]);
      const winners = claims.filter((claim) => claim !== undefined);
      expect(winners, `round ${round}`).toHaveLength(1);
      expect((await first.get(record.rpcId))?.outcome).toBe(winners[0]!.outcome);
    }
    expect(await first.listPending('all')).toEqual([]);
  });

  it('saves exactly one of many concurrent saves of the same rpcId and indexes it once', async () => {
    const first = open();
    const second = open({ keyPrefix: first.keyPrefix });
    const rpcId = `same-${randomUUID()}`;
    const attempts = Array.from({ length: 20 }, (_, i) => ({ store: i % 2 === 0 ? first : second, record: sampleQuestionRecord({ rpcId, sessionId: `s${i % 3}`, askedBy: `agent-${i}` }) }));
    const results = await Promise.all(attempts.map(({ store, record }) => questionStoreErrorCode(store.save(record))));
    expect(results.filter((result) => result === 'no error')).toHaveLength(1);
    expect(results.filter((result) => result === 'DUPLICATE_RPC_ID')).toHaveLength(19);
    const winner = attempts[results.indexOf('no error')]!.record;
    expect(await first.get(rpcId)).toEqual(winner);
    expect(await first.listPending('all')).toEqual([winner]);
    expect(await first.listPending(['s0', 's1', 's2'])).toEqual([winner]);
  });

  it('gives every event a distinct id, growing within each session, when two instances append at once', async () => {
    const first = open();
    const second = open({ keyPrefix: first.keyPrefix });
    const appended = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? first : second).appendEvent({ type: 'timed_out', sessionId: `s${i % 2}`, rpcId: `r${i}`, data: {} })),
    );
    expect(new Set(appended.map((event) => event.id)).size).toBe(30);
    for (const sessionId of ['s0', 's1']) {
      const ids = (await first.readEvents(sessionId)).map((event) => event.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids).toHaveLength(15);
    }
  });

  it('gives each appendEvents batch growing ids in array order while another instance appends single events at once', async () => {
    const batcher = open();
    const single = open({ keyPrefix: batcher.keyPrefix });
    const batches = Array.from({ length: 20 }, (_, b) =>
      Array.from({ length: 5 }, (_, i) => ({ type: 'timed_out', sessionId: i % 2 === 0 ? 'x' : 'y', rpcId: `b${b}-${i}`, data: {} }) as const),
    );
    await Promise.all([
      ...batches.map((batch) => batcher.appendEvents(batch)),
      ...Array.from({ length: 60 }, (_, i) => single.appendEvent({ type: 'timed_out', sessionId: 'z', rpcId: `s${i}`, data: {} })),
    ]);
    const byRpcId = new Map([...(await single.readEvents('x')), ...(await single.readEvents('y'))].map((event) => [event.rpcId, event.id]));
    expect(byRpcId.size).toBe(100);
    for (const [b, batch] of batches.entries()) {
      const ids = batch.map((event) => byRpcId.get(event.rpcId)!);
      expect(ids, `batch ${b}`).toEqual([...ids].sort((p, q) => p - q));
    }
    expect(await single.readEvents('z')).toHaveLength(60);
  });

  it('sends an appendEvents batch to one Redis as one script call, which no other command can run inside', async () => {
    const store = open();
    // The first call may load the script (NOSCRIPT, then EVAL): warm up before watching.
    await store.appendEvents([{ type: 'timed_out', sessionId: 'warm-up', rpcId: 'r0', data: {} }]);
    const monitor = await raw().monitor();
    const seen: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((arg) => arg.startsWith(store.keyPrefix))) seen.push(args);
    });
    try {
      const batch = Array.from({ length: 6 }, (_, i) => ({ type: 'timed_out', sessionId: `s${i % 3}`, rpcId: `r${i + 1}`, data: {} }) as const);
      await store.appendEvents(batch);
      const keys = redisStoreKeys(store.keyPrefix);
      // MONITOR lists a script's own commands after the call; wait until the last write shows up.
      while (!seen.some((args) => args[0]?.toLowerCase() === 'xadd' && args.includes(keys.events('s2')) && args.some((arg) => arg.includes('"r6"')))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const calls = seen.filter((args) => ['evalsha', 'eval'].includes(args[0]!.toLowerCase()));
      expect(calls).toHaveLength(1);
    } finally {
      monitor.disconnect();
    }
  });
});

describe('damaged data', () => {
  it('reports a damaged record as CORRUPT_STORE naming its rpcId, from get, listPending and claim', async () => {
    const store = open();
    const record = sampleQuestionRecord();
    await store.save(record);
    await raw().hset(recordKey(store, record), 'record', '{"rpcId": not json');
    const error = await store.get(record.rpcId).catch((caught: unknown) => caught);
    expect(QuestionStoreError.isInstance(error) && error.code).toBe('CORRUPT_STORE');
    expect((error as Error).message).toContain(record.rpcId);
    expect(await questionStoreErrorCode(store.listPending('all'))).toBe('CORRUPT_STORE');
    expect(await questionStoreErrorCode(store.claim(record.rpcId, 'cancelled'))).toBe('CORRUPT_STORE');
  });

  it('reports a record that fails the schema (a bad outcome) as CORRUPT_STORE', async () => {
    const store = open();
    const record = sampleQuestionRecord();
    await store.save(record);
    await store.claim(record.rpcId, 'cancelled');
    await raw().hset(recordKey(store, record), 'outcome', 'lost');
    expect(await questionStoreErrorCode(store.get(record.rpcId))).toBe('CORRUPT_STORE');
    expect(await questionStoreErrorCode(store.listAwaitingResume())).toBe('CORRUPT_STORE');
  });

  it('with onUnreadable, lists every readable record and reports a damaged hash or a key of another type instead of failing', async () => {
    const store = open();
    const keys = redisStoreKeys(store.keyPrefix);
    const good = sampleQuestionRecord({ sessionId: 'a' });
    const edited = sampleQuestionRecord({ sessionId: 'a' });
    const retyped = sampleQuestionRecord({ sessionId: 'b' });
    const answered = sampleQuestionRecord({ sessionId: 'b' });
    const editedAnswer = sampleQuestionRecord({ sessionId: 'b' });
    for (const record of [good, edited, retyped, answered, editedAnswer]) await store.save(record);
    const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };
    const settled = await store.claim(answered.rpcId, 'answered', yes);
    await store.claim(editedAnswer.rpcId, 'answered', yes);
    const inspect = raw();
    await inspect.hset(keys.record(sessionBucket(edited.sessionId), edited.rpcId), 'record', '{"rpcId": not json');
    await inspect.del(keys.record(sessionBucket(retyped.sessionId), retyped.rpcId));
    await inspect.set(keys.record(sessionBucket(retyped.sessionId), retyped.rpcId), 'not a hash');
    await inspect.hset(keys.record(sessionBucket(editedAnswer.sessionId), editedAnswer.rpcId), 'answer', '{"answers":7}');
    const reported: { rpcId: string; sessionId?: string; code: string }[] = [];
    const onUnreadable = ({ rpcId, sessionId, error }: { rpcId: string; sessionId?: string; error: { code: string } }) =>
      reported.push({ rpcId, ...(sessionId === undefined ? {} : { sessionId }), code: error.code });

    expect(await store.listPending('all', { onUnreadable })).toEqual([good]);
    expect(await store.listAwaitingResume({ onUnreadable })).toEqual([settled]);
    expect(reported).toEqual([
      { rpcId: edited.rpcId, sessionId: 'a', code: 'CORRUPT_STORE' },
      { rpcId: retyped.rpcId, code: 'CORRUPT_STORE' },
      { rpcId: editedAnswer.rpcId, sessionId: 'b', code: 'CORRUPT_STORE' },
    ]);
    // Without the callback the list still refuses as a whole.
    expect(await questionStoreErrorCode(store.listPending('all'))).toBe('CORRUPT_STORE');
  });

  it('refuses to claim a record hash that lost its session, without writing to it', async () => {
    const store = open();
    const record = sampleQuestionRecord();
    await store.save(record);
    const key = recordKey(store, record);
    await raw().hdel(key, 'session');
    expect(await questionStoreErrorCode(store.claim(record.rpcId, 'cancelled'))).toBe('CORRUPT_STORE');
    expect(await raw().hexists(key, 'outcome')).toBe(0);
  });

  it('refuses to claim a record hash that lost its record, with or without an announcement, without writing to it', async () => {
    const store = open();
    const record = sampleQuestionRecord();
    await store.save(record);
    const key = recordKey(store, record);
    await raw().hdel(key, 'record');
    expect(await questionStoreErrorCode(store.claim(record.rpcId, 'cancelled'))).toBe('CORRUPT_STORE');
    expect(await questionStoreErrorCode(store.claim(record.rpcId, 'cancelled', undefined, { announce: { channel: 'news', before: '', after: '' } }))).toBe('CORRUPT_STORE');
    expect(await raw().hexists(key, 'outcome')).toBe(0);
    expect(await raw().zscore(redisStoreKeys(store.keyPrefix).pending(sessionBucket(record.sessionId)), record.rpcId)).not.toBeNull();
  });

  it('refuses a whole appendEvents batch as CORRUPT_STORE when one of its session keys is not a stream, writing none of it', async () => {
    const store = open();
    const keys = redisStoreKeys(store.keyPrefix);
    const inspect = raw();
    await inspect.set(keys.events('damaged'), 'not a stream');
    const batch = [
      { type: 'timed_out', sessionId: 'fine', rpcId: 'r1', data: {} },
      { type: 'timed_out', sessionId: 'damaged', rpcId: 'r2', data: {} },
    ] as const;
    expect(await questionStoreErrorCode(store.appendEvents(batch))).toBe('CORRUPT_STORE');
    expect(await inspect.exists(keys.events('fine'))).toBe(0);
    expect(await inspect.exists(keys.clock(sessionBucket('fine')))).toBe(0);
  });

  it('refuses an appendEvents batch as CORRUPT_STORE when a stream already holds an id the bucket clock has not reached, writing none of it', async () => {
    const store = open();
    const keys = redisStoreKeys(store.keyPrefix);
    const first = await store.appendEvent({ type: 'timed_out', sessionId: 'fine', rpcId: 'r0', data: {} });
    // As if the clock had been lost: the stream already holds an id far above what the next event gets.
    await raw().xadd(keys.events('fine'), `${first.id * 2}-0`, 'event', '{}', 'at', 'now');
    const batch = [
      { type: 'timed_out', sessionId: 'fine', rpcId: 'r1', data: {} },
      { type: 'timed_out', sessionId: 'fine', rpcId: 'r2', data: {} },
    ] as const;
    expect(await questionStoreErrorCode(store.appendEvents(batch))).toBe('CORRUPT_STORE');
    expect((await raw().xlen(keys.events('fine')))).toBe(2);
    expect(await raw().get(keys.clock(sessionBucket('fine')))).toBe(String(first.id));
  });

  it('refuses saveWithEvent as CORRUPT_STORE when the session key is not a stream, writing neither the record nor its event', async () => {
    const store = open();
    const keys = redisStoreKeys(store.keyPrefix);
    const record = sampleQuestionRecord({ sessionId: 'damaged' });
    await raw().set(keys.events('damaged'), 'not a stream');
    const event = { type: 'human_input_requested', sessionId: 'damaged', rpcId: record.rpcId, data: { askedBy: record.askedBy, mode: record.mode, questions: record.questions } } as const;
    expect(await questionStoreErrorCode(store.saveWithEvent(record, event, { announce: { channel: 'news', before: '', after: '' } }))).toBe('CORRUPT_STORE');
    const bucket = sessionBucket('damaged');
    expect(await raw().exists(keys.record(bucket, record.rpcId), keys.clock(bucket), keys.pending(bucket), keys.sessionPending('damaged'), keys.pointer(record.rpcId))).toBe(0);
  });

  it('reports a damaged event as CORRUPT_STORE', async () => {
    const store = open();
    await raw().xadd(redisStoreKeys(store.keyPrefix).events('a'), '5-0', 'event', '{"type":"guessed"}', 'at', 'now');
    expect(await questionStoreErrorCode(store.readEvents('a'))).toBe('CORRUPT_STORE');
  });
});

describe('retention', () => {
  it('keeps finished records without a TTL when no retention is set', async () => {
    const store = open();
    const record = sampleQuestionRecord();
    await store.save(record);
    await store.claim(record.rpcId, 'aborted');
    expect(await raw().pttl(recordKey(store, record))).toBe(-1);
  });

  it('expires resumed, aborted and timed-out records after retainFinishedMs, never pending or awaiting ones', async () => {
    const store = open({ retainFinishedMs: 150 });
    const [pending, awaiting, resumed, aborted, timedOut] = [1, 2, 3, 4, 5].map(() => sampleQuestionRecord());
    for (const record of [pending!, awaiting!, resumed!, aborted!, timedOut!]) await store.save(record);
    await store.claim(awaiting!.rpcId, 'answered', yes);
    await store.claim(resumed!.rpcId, 'cancelled');
    await store.markResumed(resumed!.rpcId);
    await store.claim(aborted!.rpcId, 'aborted');
    await store.claim(timedOut!.rpcId, 'timed_out');

    const finished = [resumed!, aborted!, timedOut!];
    for (let tries = 0; (await Promise.all(finished.map((record) => store.get(record.rpcId)))).some(Boolean); tries++) {
      if (tries > 100) throw new Error('finished records did not expire');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await store.listPending('all')).map((record) => record.rpcId)).toEqual([pending!.rpcId]);
    expect((await store.listAwaitingResume()).map((record) => record.rpcId)).toEqual([awaiting!.rpcId]);
    const keys = redisStoreKeys(store.keyPrefix);
    expect(await raw().pttl(keys.record(sessionBucket(pending!.sessionId), pending!.rpcId))).toBe(-1);
    expect(await raw().pttl(keys.record(sessionBucket(awaiting!.sessionId), awaiting!.rpcId))).toBe(-1);
  });

  it('refuses a retention that is not a positive whole number of ms', () => {
    expect(() => new RedisQuestionStore({ url: fixture.server.url, retainFinishedMs: 0 })).toThrow(/retainFinishedMs/);
    expect(() => new RedisQuestionStore({ url: fixture.server.url, retainFinishedMs: 1.5 })).toThrow(/retainFinishedMs/);
  });
});

describe('connection ownership', () => {
  it('refuses both a client and a url', () => {
    const client = raw({ lazyConnect: true });
    let code: unknown;
    try {
      new RedisQuestionStore({ client, url: fixture.server.url });
    } catch (error) {
      code = QuestionStoreError.isInstance(error) ? error.code : error;
    }
    expect(code).toBe('INVALID_INPUT');
  });

  it('closes the client it made from the url and refuses calls after close with STORE_CLOSED', async () => {
    const store = open();
    await store.save(sampleQuestionRecord());
    await store.close();
    await store.close();
    expect(await questionStoreErrorCode(store.get('any'))).toBe('STORE_CLOSED');
    expect(await questionStoreErrorCode(store.save(sampleQuestionRecord()))).toBe('STORE_CLOSED');
    expect(await questionStoreErrorCode(store.appendEvents([{ type: 'timed_out', sessionId: 'a', rpcId: 'r', data: {} }]))).toBe('STORE_CLOSED');
    expect(await questionStoreErrorCode(store.appendEvents([]))).toBe('STORE_CLOSED');
  });

  it('leaves a client the app passed open after close', async () => {
    const client = raw(recommendedRedisOptions);
    const store = open({ client });
    await store.save(sampleQuestionRecord());
    await store.close();
    expect(await client.ping()).toBe('PONG');
    expect(await questionStoreErrorCode(store.listPending('all'))).toBe('STORE_CLOSED');
  });

  it('waits for the first connection of an app client created with lazyConnect', async () => {
    const client = raw({ ...recommendedRedisOptions, lazyConnect: true });
    const store = open({ client });
    expect(client.status).toBe('wait');
    const record = sampleQuestionRecord();
    await Promise.all([store.save(record), store.listPending('all')]);
    expect(await store.get(record.rpcId)).toEqual(record);
  });
});
