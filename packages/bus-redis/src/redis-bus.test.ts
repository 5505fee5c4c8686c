import { randomUUID } from 'node:crypto';
import { QuestionStoreError, type QuestionBusListener, type QuestionBusMessage } from '@askseam/store';
import { describeQuestionBusContract, sampleQuestionRecord, questionStoreErrorCode } from '@askseam/store-testing';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisQuestionBus, type RedisQuestionBusLogger } from './redis-bus.js';

let server: TestRedisServer;
const buses: RedisQuestionBus[] = [];
const rawClients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});

afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
  for (const client of rawClients.splice(0)) client.disconnect();
  // A test that stopped the server leaves it running again for the next one.
  await redisUp();
});

afterAll(async () => {
  await server?.stop();
});

let serverDown = false;
async function redisDown(): Promise<void> {
  serverDown = true;
  await server.stop();
}
async function redisUp(): Promise<void> {
  if (!serverDown) return;
  serverDown = false;
  await server.restart();
}

function randomPrefix(): string {
  return `test-${Math.random().toString(36).slice(2)}:`;
}

function open(options: ConstructorParameters<typeof RedisQuestionBus>[0] = {}): RedisQuestionBus {
  const bus = new RedisQuestionBus({ url: server.url, ...options });
  buses.push(bus);
  return bus;
}

/** A plain client, for what no bus would do (publish garbage, inspect keys). */
function rawClient(): Redis {
  const client = new Redis(server.url, { maxRetriesPerRequest: 0 });
  client.on('error', () => {});
  rawClients.push(client);
  return client;
}

interface Heard extends QuestionBusListener {
  readonly messages: QuestionBusMessage[];
  resyncs: number;
}

function hear(): Heard {
  const heard: Heard = {
    messages: [],
    resyncs: 0,
    message: (message) => heard.messages.push(message),
    resync: () => (heard.resyncs += 1),
  };
  return heard;
}

function recordingLogger(): RedisQuestionBusLogger & { warnings: string[]; errors: string[] } {
  const warnings: string[] = [];
  const errors: string[] = [];
  return { warnings, errors, warn: (message) => warnings.push(message), error: (message) => errors.push(message) };
}

function asked(from: string): QuestionBusMessage {
  return { type: 'asked', from, record: { ...sampleQuestionRecord(), askedOn: from } };
}


async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Gave up after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `call`, retried while it fails with STORE_UNAVAILABLE: for the moments after a restart when a connection is still coming back. */
async function whenAvailable<T>(call: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!QuestionStoreError.isInstance(error) || error.code !== 'STORE_UNAVAILABLE' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describeQuestionBusContract(
  'RedisQuestionBus',
  async (count) => {
    const keyPrefix = randomPrefix();
    return Array.from({ length: count }, () => open({ keyPrefix }));
  },
  // Redis has no way to cut one client off and let it back in: stopping the server cuts off every node.
  { interrupt: () => redisDown(), restore: () => redisUp(), waitMs: 10_000 },
);

describe('RedisQuestionBus', () => {
  it('drops and logs a raw message that is not JSON or not a bus message, and delivers the next one', async () => {
    const keyPrefix = randomPrefix();
    const logger = recordingLogger();
    const sender = open({ keyPrefix });
    const receiver = open({ keyPrefix, logger });
    const heard = hear();
    await receiver.subscribe(heard);
    const raw = rawClient();
    await raw.publish(`${keyPrefix}bus`, 'not json {');
    await raw.publish(`${keyPrefix}bus`, JSON.stringify({ type: 'asked', from: 'elsewhere', record: { rpcId: 'r' } }));
    const valid = asked(sender.nodeId);
    await sender.publish(valid);
    await waitFor('the valid message', () => heard.messages.length > 0);
    expect(heard.messages).toEqual([valid]);
    expect(logger.warnings).toEqual(['RedisQuestionBus dropped a message that is not JSON', 'RedisQuestionBus dropped a message that is not a bus message']);
  });

  it('drops its own messages but hears a node whose id its own id begins, and that node hears it', async () => {
    // Own messages are recognised by how they start; an id that is a prefix of another must not swallow the other's.
    const keyPrefix = randomPrefix();
    const short = open({ keyPrefix, nodeId: 'node-1' });
    const long = open({ keyPrefix, nodeId: 'node-10' });
    const heardByShort = hear();
    const heardByLong = hear();
    await short.subscribe(heardByShort);
    await long.subscribe(heardByLong);
    await short.publish(asked('node-1'));
    await long.publish(asked('node-10'));
    await short.publish({ type: 'settled', from: 'node-1', record: { ...sampleQuestionRecord(), outcome: 'cancelled', settledAt: new Date().toISOString() }, message: 'no' });
    await waitFor('each node to hear the other', () => heardByShort.messages.length === 1 && heardByLong.messages.length === 2);
    expect(heardByShort.messages.map((message) => message.from)).toEqual(['node-10']);
    expect(heardByLong.messages.map((message) => [message.type, message.from])).toEqual([
      ['asked', 'node-1'],
      ['settled', 'node-1'],
    ]);
  });

  it('prepares announcements a store publishes around its record, which other nodes read as the message publish would send', async () => {
    const keyPrefix = randomPrefix();
    const sender = open({ keyPrefix, nodeId: 'sender' });
    const receiver = open({ keyPrefix, nodeId: 'receiver' });
    const heardBySender = hear();
    const heardByReceiver = hear();
    await sender.subscribe(heardBySender);
    await receiver.subscribe(heardByReceiver);
    const record = sampleQuestionRecord();
    const settledRecord = { ...record, outcome: 'cancelled' as const, settledAt: new Date().toISOString() };
    // What a store does with them: the record's JSON between the two texts, on the channel.
    const askedText = sender.announcement({ type: 'asked' });
    const settledText = sender.announcement({ type: 'settled', message: 'not now "really"' });
    await rawClient().publish(askedText.channel, `${askedText.before}${JSON.stringify(record)}${askedText.after}`);
    await rawClient().publish(settledText.channel, `${settledText.before}${JSON.stringify(settledRecord)}${settledText.after}`);
    await waitFor('both announcements', () => heardByReceiver.messages.length === 2);
    expect(heardByReceiver.messages).toEqual([
      { type: 'asked', from: 'sender', record },
      { type: 'settled', from: 'sender', record: settledRecord, message: 'not now "really"' },
    ]);
    // Its own announcements come back to the sender like its own publishes: dropped.
    await sender.publish(asked('sender'));
    await receiver.publish(asked('receiver'));
    await waitFor('the receiver\'s marker', () => heardBySender.messages.length === 1);
    expect(heardBySender.messages.map((message) => message.from)).toEqual(['receiver']);
  });

  it('refuses an announcement publish would refuse, and names the Redis it publishes on as the store does', async () => {
    const bus = open();
    expect(() => bus.announcement({ type: 'gone' } as never)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => bus.announcement({ type: 'settled', message: 7 } as never)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => bus.announcement({ type: 'asked', message: 'x' } as never)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    const store = new RedisQuestionStore({ url: server.url });
    try {
      expect(bus.publishesOn).toBe(`redis://127.0.0.1:${server.port}/0`);
      expect(bus.publishesOn).toBe(store.announcesOn);
    } finally {
      await store.close();
    }
    const prefixed = new Redis(server.url, { keyPrefix: 'app:', lazyConnect: true });
    rawClients.push(prefixed);
    const onPrefixedClient = new RedisQuestionBus({ client: prefixed });
    buses.push(onPrefixedClient);
    expect(onPrefixedClient.publishesOn).toBeUndefined();
  });

  it('names a client of another ACL user as another publisher than the default user\'s store, and the same as that user\'s store', async () => {
    const url = new URL(server.url);
    url.username = 'alice';
    url.password = 'secret';
    const aliceClient = new Redis(url.toString(), { lazyConnect: true });
    const defaultClient = new Redis(server.url, { username: 'default', lazyConnect: true });
    rawClients.push(aliceClient, defaultClient);
    const aliceBus = new RedisQuestionBus({ client: aliceClient });
    const defaultBus = new RedisQuestionBus({ client: defaultClient });
    buses.push(aliceBus, defaultBus);
    const aliceStoreClient = new Redis(url.toString(), { lazyConnect: true });
    rawClients.push(aliceStoreClient);
    const defaultStore = new RedisQuestionStore({ url: server.url });
    const aliceStore = new RedisQuestionStore({ client: aliceStoreClient });
    try {
      expect(aliceBus.publishesOn).toBe(`redis://alice@127.0.0.1:${server.port}/0`);
      expect(aliceBus.publishesOn).not.toBe(defaultStore.announcesOn);
      expect(aliceBus.publishesOn).toBe(aliceStore.announcesOn);
      // Naming the default user is the same as naming none.
      expect(defaultBus.publishesOn).toBe(defaultStore.announcesOn);
    } finally {
      await defaultStore.close();
      await aliceStore.close();
    }
  });

  it('subscribes again, and resyncs, once an ACL that refused its channels allows them again', async () => {
    const admin = rawClient();
    const user = `bus-${randomUUID().slice(0, 8)}`;
    await admin.acl('SETUSER', user, 'on', '>secret', '~*', '&*', '+@all');
    const url = new URL(server.url);
    url.username = user;
    url.password = 'secret';
    const keyPrefix = randomPrefix();
    const logger = recordingLogger();
    const node = open({ url: url.toString(), keyPrefix, logger });
    const sender = open({ keyPrefix });
    const heard = hear();
    await node.subscribe(heard);
    // Revoking channel rights drops the user's subscribed connection; its re-subscribe is then refused.
    await admin.acl('SETUSER', user, 'resetchannels');
    await waitFor('the refused re-subscribe', () => logger.warnings.includes('RedisQuestionBus could not resubscribe after a reconnect'));
    expect(heard.resyncs).toBe(0);
    await admin.acl('SETUSER', user, 'allchannels');
    await waitFor('the resync', () => heard.resyncs === 1);
    const message = asked(sender.nodeId);
    await sender.publish(message);
    await waitFor('the message', () => heard.messages.length === 1);
    expect(heard.messages).toEqual([message]);
    await admin.acl('DELUSER', user);
  });

  it('keeps delivering after the listener throws, and logs the throw', async () => {
    const keyPrefix = randomPrefix();
    const logger = recordingLogger();
    const sender = open({ keyPrefix });
    const receiver = open({ keyPrefix, logger });
    const received: QuestionBusMessage[] = [];
    await receiver.subscribe({
      message(message) {
        received.push(message);
        if (received.length === 1) throw new Error('listener bug');
      },
      resync() {},
    });
    const [first, second] = [asked(sender.nodeId), asked(sender.nodeId)];
    await sender.publish(first);
    await sender.publish(second);
    await waitFor('both messages', () => received.length === 2);
    expect(received).toEqual([first, second]);
    expect(logger.errors).toEqual(['The bus listener threw on a message']);
  });

  it('keeps apps with different key prefixes apart on one Redis', async () => {
    const [prefixA, prefixB] = [randomPrefix(), randomPrefix()];
    const senderA = open({ keyPrefix: prefixA, nodeId: 'same-id' });
    const senderB = open({ keyPrefix: prefixB });
    const receiverB = open({ keyPrefix: prefixB, nodeId: 'same-id' });
    const heardByB = hear();
    await receiverB.subscribe(heardByB);
    await senderA.publish(asked(senderA.nodeId));
    // A message on B's own prefix, published after A's: had A's leaked through, it would arrive first.
    const marker = asked(senderB.nodeId);
    await senderB.publish(marker);
    await waitFor('the marker on prefix B', () => heardByB.messages.length > 0);
    expect(heardByB.messages).toEqual([marker]);
    expect(await senderA.isNodeAlive('same-id')).toBe(false);
    expect(await senderB.isNodeAlive('same-id')).toBe(true);
    expect(await senderA.acquireLease('resume:r1', 60_000)).toBe(true);
    expect(await senderB.acquireLease('resume:r1', 60_000)).toBe(true);
  });

  it('keeps its channels and lease keys under the prefix', async () => {
    const keyPrefix = randomPrefix();
    const bus = open({ keyPrefix, nodeId: 'node-1' });
    await bus.subscribe(hear());
    await bus.acquireLease('resume:r1', 60_000);
    const raw = rawClient();
    expect(await raw.pubsub('NUMSUB', `${keyPrefix}bus`, `${keyPrefix}node:node-1`)).toEqual([`${keyPrefix}bus`, 1, `${keyPrefix}node:node-1`, 1]);
    expect(await raw.get(`${keyPrefix}lease:resume:r1`)).toBe('node-1');
    expect(await raw.pttl(`${keyPrefix}lease:resume:r1`)).toBeGreaterThan(0);
    expect(await raw.pttl(`${keyPrefix}alive:node-1`)).toBeGreaterThan(0);
  });

  // Was a bug (issue 12, item 5): liveness was only the subscription, so while ioredis re-made a
  // subscriber connection that Redis had dropped, the other nodes took the node for dead and handed
  // the answers its live askers were waiting for to their own onResume.
  it('counts a node alive while its subscriber connection is cut and re-made', async () => {
    const keyPrefix = randomPrefix();
    const watcher = open({ keyPrefix });
    const node = open({ keyPrefix, nodeId: 'node-cut' });
    const heard = hear();
    await node.subscribe(heard);
    const raw = rawClient();
    expect(await raw.client('KILL', 'TYPE', 'pubsub')).toBeGreaterThan(0);
    expect(await raw.pubsub('NUMSUB', `${keyPrefix}node:node-cut`)).toEqual([`${keyPrefix}node:node-cut`, 0]);
    expect(await watcher.isNodeAlive('node-cut')).toBe(true);
    await waitFor('the node to resubscribe', () => heard.resyncs === 1);
    expect(await watcher.isNodeAlive('node-cut')).toBe(true);
    await node.close();
    expect(await watcher.isNodeAlive('node-cut')).toBe(false);
  });

  it('still takes a node for gone after a short drop of its own subscriber connection (a proxy closing idle connections)', async () => {
    const keyPrefix = randomPrefix();
    const node = open({ keyPrefix, livenessTtlMs: 60_000 });
    const heard = hear();
    await node.subscribe(heard);
    expect(await rawClient().client('KILL', 'TYPE', 'pubsub')).toBeGreaterThan(0);
    await waitFor('the node to resubscribe', () => heard.resyncs === 1);
    expect(await node.isNodeAlive('a-node-that-died')).toBe(false);
  });

  it('refuses a livenessTtlMs that is not a whole number of at least 100 ms', () => {
    for (const livenessTtlMs of [0, 99, 1.5, Number.NaN]) {
      expect(() => new RedisQuestionBus({ url: server.url, livenessTtlMs })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/livenessTtlMs/) }));
    }
  });

  it('sends its commands on a client the app made and leaves that client open on close', async () => {
    const keyPrefix = randomPrefix();
    const client = rawClient();
    const appBus = new RedisQuestionBus({ client, keyPrefix });
    buses.push(appBus);
    const other = open({ keyPrefix });
    const heard = hear();
    await other.subscribe(heard);
    await appBus.subscribe(hear());
    const message = asked(appBus.nodeId);
    await appBus.publish(message);
    await waitFor('the message from the app-client bus', () => heard.messages.length > 0);
    expect(heard.messages).toEqual([message]);
    await appBus.close();
    expect(await other.isNodeAlive(appBus.nodeId)).toBe(false);
    expect(await client.ping()).toBe('PONG');
  });

  it('refuses both a client and a url, and an empty node id', () => {
    const client = rawClient();
    expect(() => new RedisQuestionBus({ client, url: server.url })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => new RedisQuestionBus({ client, nodeId: '' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('refuses a lease without a positive ttl', async () => {
    const bus = open({ keyPrefix: randomPrefix() });
    expect(await questionStoreErrorCode(bus.acquireLease('k', 0))).toBe('INVALID_INPUT');
    expect(await questionStoreErrorCode(bus.acquireLease('k', Number.NaN))).toBe('INVALID_INPUT');
  });

  describe('while Redis is down', () => {
    it('rejects publish, isNodeAlive, acquireLease and subscribe with STORE_UNAVAILABLE instead of queueing them', async () => {
      const keyPrefix = randomPrefix();
      const bus = open({ keyPrefix });
      const fresh = open({ keyPrefix });
      await bus.subscribe(hear());
      await redisDown();
      expect(await questionStoreErrorCode(bus.publish(asked(bus.nodeId)))).toBe('STORE_UNAVAILABLE');
      expect(await questionStoreErrorCode(bus.isNodeAlive(bus.nodeId))).toBe('STORE_UNAVAILABLE');
      expect(await questionStoreErrorCode(bus.acquireLease('k', 1000))).toBe('STORE_UNAVAILABLE');
      expect(await questionStoreErrorCode(fresh.subscribe(hear()))).toBe('STORE_UNAVAILABLE');
    });

    it('names the Redis it could not reach and what to do', async () => {
      const bus = open({ keyPrefix: randomPrefix() });
      await redisDown();
      const error = await bus.publish(asked(bus.nodeId)).catch((caught: unknown) => caught);
      expect(QuestionStoreError.isInstance(error) && error.message).toMatch(new RegExp(`^publish: Redis at 127\\.0\\.0\\.1:${server.port} could not be reached .*retry once Redis is back\\.$`));
    });

    it('works once Redis is up for a bus made while it was down', async () => {
      const keyPrefix = randomPrefix();
      await redisDown();
      const early = open({ keyPrefix });
      expect(await questionStoreErrorCode(early.publish(asked(early.nodeId)))).toBe('STORE_UNAVAILABLE');
      await redisUp();
      const receiver = open({ keyPrefix });
      const heard = hear();
      await receiver.subscribe(heard);
      const message = asked(early.nodeId);
      await whenAvailable(() => early.publish(message));
      await waitFor('the message', () => heard.messages.length > 0);
      expect(heard.messages[0]).toEqual(message);
    });
  });

  describe('after Redis restarts', () => {
    it('resyncs every node, counts them alive again and carries messages both ways', async () => {
      const keyPrefix = randomPrefix();
      const logger = recordingLogger();
      const a = open({ keyPrefix, logger });
      const b = open({ keyPrefix });
      const [heardByA, heardByB] = [hear(), hear()];
      await a.subscribe(heardByA);
      await b.subscribe(heardByB);
      await server.restart();
      await waitFor('both nodes to resync', () => heardByA.resyncs === 1 && heardByB.resyncs === 1);
      // Each node's command connection comes back on its own schedule, a moment after or before its subscriber.
      expect(await whenAvailable(() => a.isNodeAlive(b.nodeId))).toBe(true);
      expect(await whenAvailable(() => b.isNodeAlive(a.nodeId))).toBe(true);
      const [fromA, fromB] = [asked(a.nodeId), asked(b.nodeId)];
      await whenAvailable(() => a.publish(fromA));
      await whenAvailable(() => b.publish(fromB));
      await waitFor('a message each way', () => heardByA.messages.length === 1 && heardByB.messages.length === 1);
      expect(heardByA.messages).toEqual([fromB]);
      expect(heardByB.messages).toEqual([fromA]);
      expect(logger.warnings).toContain('RedisQuestionBus is connected again; resyncing');
    });

    it('takes no node for gone while it may have been cut off with it: for its liveness ttl after an outage of a third of it or more', async () => {
      const keyPrefix = randomPrefix();
      // `a` dies while Redis is down; `b`, cut off too, cannot tell yet whether a live node just has not refreshed.
      const a = new RedisQuestionBus({ url: server.url, keyPrefix, livenessTtlMs: 100 });
      const b = open({ keyPrefix, livenessTtlMs: 3_000 });
      const heardByB = hear();
      await a.subscribe(hear());
      await b.subscribe(heardByB);
      await redisDown();
      await a.close();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await redisUp();
      await waitFor('b to resync', () => heardByB.resyncs === 1);
      // Its command connection may come back a moment after its subscriber.
      expect(await whenAvailable(() => b.isNodeAlive(a.nodeId))).toBe(true);
      // Once b has been back for its own ttl, every live node has had time to refresh: a is gone.
      await waitFor('b to take a for gone', async () => !(await whenAvailable(() => b.isNodeAlive(a.nodeId))));
      expect(await whenAvailable(() => b.isNodeAlive(b.nodeId))).toBe(true);
    });
  });
});
