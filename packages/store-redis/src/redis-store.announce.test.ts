// Bus announcements a save or claim publishes inside its script: what is published, for whom, and
// that nothing is published for a write that did not happen (a duplicate, a lost claim, a write
// Redis refused for want of memory) nor written for a publish Redis would refuse (an ACL user).
import { randomUUID } from 'node:crypto';
import { QuestionStoreError } from '@askseam/store';
import { sampleQuestionRecord, questionStoreErrorCode } from '@askseam/store-testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStoreKeys, sessionBucket } from './keys.js';
import { RedisQuestionStore } from './redis-store.js';
import { startRedisServer, type TestRedisServer } from './testing/redis-server.js';
import { useRedisStoreFixture } from '../test/store-fixture.js';

const fixture = useRedisStoreFixture();
const { open, raw } = fixture;

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

/** A subscriber on `channel` that keeps every message text. */
async function listen(channel: string): Promise<string[]> {
  const heard: string[] = [];
  const subscriber = raw();
  subscriber.on('message', (_channel: string, text: string) => heard.push(text));
  await subscriber.subscribe(channel);
  return heard;
}

async function settle(check: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('bus announcements inside writes', () => {
  it('names the Redis it publishes on, and none for a client with its own ioredis keyPrefix', () => {
    expect(open().announcesOn).toBe(`redis://127.0.0.1:${fixture.server.port}/0`);
    expect(open({ client: raw({ keyPrefix: 'app:' }) }).announcesOn).toBeUndefined();
  });

  it('publishes the saved record between before and after, once, and nothing for a refused duplicate', async () => {
    const store = open();
    const heard = await listen('news');
    const record = sampleQuestionRecord({ askedOn: 'node-a' });
    const announce = { channel: 'news', before: '<', after: '>' };
    await store.save(record, { announce });
    expect(await questionStoreErrorCode(store.save(record, { announce }))).toBe('DUPLICATE_RPC_ID');
    await settle(() => heard.length >= 1);
    // A marker published after both saves arrives after anything they published.
    await raw().publish('news', 'end');
    await settle(() => heard.includes('end'));
    expect(heard).toHaveLength(2);
    expect(heard[0]!.startsWith('<') && heard[0]!.endsWith('>')).toBe(true);
    expect(JSON.parse(heard[0]!.slice(1, -1))).toEqual(record);
  });

  it('publishes the settled record as claim returns it, with or without an answer, and nothing for a lost claim', async () => {
    const store = open();
    const heard = await listen('news');
    const answered = sampleQuestionRecord();
    const dismissed = sampleQuestionRecord();
    await store.save(answered);
    await store.save(dismissed);
    const announce = { channel: 'news', before: '{"record":', after: ',"n":1}' };
    const won = await store.claim(answered.rpcId, 'answered', yes, { announce });
    const cancelled = await store.claim(dismissed.rpcId, 'cancelled', undefined, { announce });
    expect(await store.claim(answered.rpcId, 'cancelled', undefined, { announce })).toBeUndefined();
    await raw().publish('news', 'end');
    await settle(() => heard.includes('end'));
    expect(heard.slice(0, -1).map((text) => JSON.parse(text))).toEqual([
      { record: won, n: 1 },
      { record: cancelled, n: 1 },
    ]);
    expect(heard).toHaveLength(3);
  });

  it('publishes a quorum approval only with the vote that settles it, the record as vote returns it', async () => {
    const store = open();
    const heard = await listen('news');
    const record = sampleQuestionRecord();
    await store.save(record);
    const announce = { channel: 'news', before: '{"record":', after: '}' };
    const request = (principalId: string) => ({ voter: { principalId, via: 'websocket' }, approvals: 2, answer: yes });
    expect((await store.vote(record.rpcId, request('alex'), { announce })).kind).toBe('counted');
    expect((await store.vote(record.rpcId, request('alex'), { announce })).kind).toBe('repeated');
    const settled = await store.vote(record.rpcId, request('sam'), { announce });
    expect((await store.vote(record.rpcId, request('kim'), { announce })).kind).toBe('not-pending');
    await raw().publish('news', 'end');
    await settle(() => heard.includes('end'));
    expect(settled.kind).toBe('settled');
    expect(heard.slice(0, -1).map((text) => JSON.parse(text))).toEqual([{ record: (settled as { record: unknown }).record }]);
  });

  it('names a client of another ACL user as another publisher, and the default user as none', () => {
    const url = new URL(fixture.server.url);
    expect(open({ client: raw({ username: 'default' }) }).announcesOn).toBe(`redis://127.0.0.1:${fixture.server.port}/0`);
    url.username = 'alice';
    url.password = 'secret';
    const alice = new RedisQuestionStore({ url: url.toString(), keyPrefix: 'x:' });
    fixture.own(alice);
    expect(alice.announcesOn).toBe(`redis://alice@127.0.0.1:${fixture.server.port}/0`);
  });

  describe('for an ACL user that may not publish', () => {
    /** A store whose client logs in as a user with every key and command right but no channel. */
    async function storeWithoutChannels(): Promise<RedisQuestionStore> {
      const user = `nopub-${randomUUID().slice(0, 8)}`;
      await raw().call('ACL', 'SETUSER', user, 'on', '>pw', '~*', 'resetchannels', '+@all');
      const url = new URL(fixture.server.url);
      url.username = user;
      url.password = 'pw';
      return open({ url: url.toString() });
    }

    it('refuses a save whose announcement Redis will not publish as NOT_PERMITTED and writes nothing', async () => {
      const store = await storeWithoutChannels();
      const record = sampleQuestionRecord();
      const announce = { channel: 'news', before: '<', after: '>' };
      const error = await store.save(record, { announce }).catch((caught: unknown) => caught);
      expect(QuestionStoreError.isInstance(error) && error.code).toBe('NOT_PERMITTED');
      expect((error as Error).message).toContain('nothing was written');
      const keys = redisStoreKeys(store.keyPrefix);
      const bucket = sessionBucket(record.sessionId);
      expect(await raw().exists(keys.record(bucket, record.rpcId), keys.clock(bucket), keys.pending(bucket), keys.sessionPending(record.sessionId), keys.pointer(record.rpcId))).toBe(0);
      // The same store saves once it is not asked to publish.
      await store.save(record);
      expect(await store.get(record.rpcId)).toMatchObject({ rpcId: record.rpcId });
    });

    it('refuses a claim whose announcement Redis will not publish as NOT_PERMITTED and leaves the record pending', async () => {
      const store = await storeWithoutChannels();
      const record = sampleQuestionRecord();
      await store.save(record);
      const announce = { channel: 'news', before: '<', after: '>' };
      expect(await questionStoreErrorCode(store.claim(record.rpcId, 'answered', yes, { announce }))).toBe('NOT_PERMITTED');
      const keys = redisStoreKeys(store.keyPrefix);
      expect(await raw().hexists(keys.record(sessionBucket(record.sessionId), record.rpcId), 'outcome')).toBe(0);
      expect(await store.listPending('all')).toMatchObject([{ rpcId: record.rpcId }]);
      expect(await store.claim(record.rpcId, 'answered', yes)).toMatchObject({ outcome: 'answered', answer: yes });
    });
  });

  it('refuses an announcement without a channel as INVALID_INPUT and writes nothing', async () => {
    const store = open();
    const record = sampleQuestionRecord();
    expect(await questionStoreErrorCode(store.save(record, { announce: { channel: '', before: '', after: '' } }))).toBe('INVALID_INPUT');
    expect(await store.get(record.rpcId)).toBeUndefined();
  });
});


describe('a Redis out of memory (maxmemory reached, noeviction)', () => {
  // A server of its own: the others must keep their memory.
  let full: TestRedisServer;
  const config = (client: Redis, ...args: string[]) => client.call('CONFIG', 'SET', ...args);

  beforeAll(async () => {
    full = await startRedisServer();
  });

  afterAll(async () => {
    await full?.stop();
  });

  /** A store on the full server, with a record saved while there was still room, and an admin client; then the limit is hit. */
  async function storeOutOfMemory(): Promise<{ store: RedisQuestionStore; admin: Redis; saved: ReturnType<typeof sampleQuestionRecord> }> {
    const store = open({ url: full.url });
    const admin = raw({}, full.url);
    await config(admin, 'maxmemory', '0');
    const saved = sampleQuestionRecord();
    await store.save(saved);
    // One byte: every write is refused with OOM from now on (reads, PUBLISH and SUBSCRIBE still run).
    await config(admin, 'maxmemory-policy', 'noeviction', 'maxmemory', '1');
    return { store, admin, saved };
  }

  async function listenOn(url: string, channel: string): Promise<string[]> {
    const heard: string[] = [];
    const subscriber = raw({}, url);
    subscriber.on('message', (_channel: string, text: string) => heard.push(text));
    await subscriber.subscribe(channel);
    return heard;
  }

  async function heardOn(admin: Redis, heard: string[], channel: string): Promise<string[]> {
    await admin.publish(channel, 'end');
    await settle(() => heard.includes('end'));
    return heard.slice(0, heard.indexOf('end'));
  }

  it('refuses a save as STORE_FULL, writes nothing and publishes nothing', async () => {
    const { store, admin } = await storeOutOfMemory();
    const heard = await listenOn(full.url, 'news');
    const record = sampleQuestionRecord();
    const announce = { channel: 'news', before: '<', after: '>' };
    const error = await store.save(record, { announce }).catch((caught: unknown) => caught);
    expect(await heardOn(admin, heard, 'news')).toEqual([]);
    expect(QuestionStoreError.isInstance(error) && error.code).toBe('STORE_FULL');
    expect((error as Error).message).toContain('nothing was written');
    await config(admin, 'maxmemory', '0');
    expect(await store.get(record.rpcId)).toBeUndefined();
    // With room again the same store saves, and announces it.
    heard.length = 0;
    await store.save(record, { announce });
    expect(await heardOn(admin, heard, 'news')).toHaveLength(1);
  });

  it('refuses a claim as STORE_FULL, leaves the question pending and publishes nothing', async () => {
    const { store, admin, saved } = await storeOutOfMemory();
    const heard = await listenOn(full.url, 'news');
    const announce = { channel: 'news', before: '<', after: '>' };
    const code = await questionStoreErrorCode(store.claim(saved.rpcId, 'answered', yes, { announce }));
    expect(await heardOn(admin, heard, 'news')).toEqual([]);
    expect(code).toBe('STORE_FULL');
    await config(admin, 'maxmemory', '0');
    expect(await store.listPending('all')).toMatchObject([{ rpcId: saved.rpcId }]);
    expect(await store.claim(saved.rpcId, 'answered', yes, { announce })).toMatchObject({ outcome: 'answered' });
  });

  it('refuses saveWithEvent and appendEvents as STORE_FULL, writing neither record nor event', async () => {
    const { store, admin } = await storeOutOfMemory();
    const record = sampleQuestionRecord();
    const event = { type: 'human_input_requested', sessionId: record.sessionId, rpcId: record.rpcId, data: { askedBy: record.askedBy, mode: record.mode, questions: record.questions } } as const;
    expect(await questionStoreErrorCode(store.saveWithEvent(record, event))).toBe('STORE_FULL');
    expect(await questionStoreErrorCode(store.appendEvents([event]))).toBe('STORE_FULL');
    await config(admin, 'maxmemory', '0');
    expect(await store.get(record.rpcId)).toBeUndefined();
    expect(await store.readEvents(record.sessionId)).toEqual([]);
  });
});
