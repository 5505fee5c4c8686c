// The bus on a real 3-master Redis Cluster: the contract suite (follow included), and a store on the
// same Cluster publishing a claim's news from inside its script to the followers of the session,
// sealed when the nodes share a key.
import { randomBytes, randomUUID } from 'node:crypto';
import type { QuestionBusListener, QuestionBusMessage } from '@askseam/store';
import { describeQuestionBusContract, sampleQuestionRecord } from '@askseam/store-testing';
import { RedisQuestionStore, sessionChannel } from '@askseam/store-redis';
import { Redis } from 'ioredis';
import { startRedisCluster, type TestRedisCluster } from '@askseam/store-redis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisQuestionBus } from './redis-bus.js';

let cluster: TestRedisCluster | undefined;
const buses: RedisQuestionBus[] = [];
const stores: RedisQuestionStore[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
  for (const store of stores.splice(0)) await store.close();
});
afterAll(async () => {
  await cluster?.stop();
});

function open(options: ConstructorParameters<typeof RedisQuestionBus>[0] = {}): RedisQuestionBus {
  const bus = new RedisQuestionBus({ nodes: cluster!.nodes, ...options });
  buses.push(bus);
  return bus;
}

function hear(): QuestionBusListener & { messages: QuestionBusMessage[] } {
  const messages: QuestionBusMessage[] = [];
  return { messages, message: (message) => messages.push(message), resync: () => {} };
}

/** A listener that keeps what the bus says of each message besides its content. */
function sealHearer(): QuestionBusListener & { delivered: { message: QuestionBusMessage; sealed: boolean | undefined }[] } {
  const delivered: { message: QuestionBusMessage; sealed: boolean | undefined }[] = [];
  return { delivered, message: (message, delivery) => delivered.push({ message, sealed: delivery?.sealed }), resync: () => {} };
}

async function slotOf(key: string): Promise<number> {
  const client = new Redis(cluster!.urls[0]!);
  try {
    return Number(await client.call('CLUSTER', 'KEYSLOT', key));
  } finally {
    client.disconnect();
  }
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 1000) throw new Error(`Gave up waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeQuestionBusContract(
  'RedisQuestionBus on Redis Cluster',
  async (count) => {
    const keyPrefix = `test-${randomUUID()}:`;
    const made = Array.from({ length: count }, () => open({ keyPrefix }));
    // A Cluster client connects to each master at its first command there: warm every connection
    // (30 random keys miss one of 3 masters once in 60,000) so the 50 ms lease test times the lease, not a connect.
    await Promise.all(made.flatMap((bus) => Array.from({ length: 30 }, () => bus.acquireLease(`warm-${randomUUID()}`, 1))));
    return made;
  },
  { waitMs: 10_000 },
);

describe('RedisQuestionBus on Redis Cluster', () => {
  it('names the Cluster it publishes on as a store on the same nodes does, so the store carries the news', () => {
    const bus = open();
    const store = new RedisQuestionStore({ nodes: cluster!.nodes });
    stores.push(store);
    expect(bus.publishesOn).toMatch(/^redis-cluster:\/\//);
    expect(store.announcesOn).toBe(bus.publishesOn);
  });

  it("delivers a store's announced claim to the session's follower and the asking node, and not to a node following another session", async () => {
    const keyPrefix = `test-${randomUUID()}:`;
    const [answering, asking, follower, other] = [open({ keyPrefix, nodeId: 'answering' }), open({ keyPrefix, nodeId: 'asking' }), open({ keyPrefix }), open({ keyPrefix })];
    const heard = [hear(), hear(), hear()] as const;
    await asking.subscribe(heard[0]);
    await follower.subscribe(heard[1]);
    await other.subscribe(heard[2]);
    await asking.unfollow('*');
    await follower.follow('followed');
    await other.follow('elsewhere');
    const store = new RedisQuestionStore({ nodes: cluster!.nodes, keyPrefix });
    stores.push(store);
    const record = sampleQuestionRecord({ sessionId: 'followed', askedOn: 'asking' });
    await store.save(record, { announce: answering.announcement({ type: 'asked' }) });
    await store.claim(record.rpcId, 'cancelled', undefined, { announce: answering.announcement({ type: 'settled', message: 'no longer needed' }) });
    await until('the follower to hear asked and settled', () => heard[1].messages.length >= 2);
    await until('the asking node to hear its settled', () => heard[0].messages.length >= 1);
    expect(heard[1].messages.map((message) => message.type)).toEqual(['asked', 'settled']);
    expect(heard[0].messages).toEqual([{ type: 'settled', from: 'answering', record: await store.get(record.rpcId), message: 'no longer needed' }]);
    // A marker on the other node's session proves the followed session's news did not reach it.
    const marker = sampleQuestionRecord({ sessionId: 'elsewhere' });
    await store.save(marker, { announce: answering.announcement({ type: 'asked' }) });
    await until('the other node to hear its marker', () => heard[2].messages.length >= 1);
    expect(heard[2].messages.map((message) => message.record.rpcId)).toEqual([marker.rpcId]);
  });

  it("delivers a store's announced asked and settled as sealed to a follower and the asking node with the same key, unsealed to one without", async () => {
    const keyPrefix = `test-${randomUUID()}:`;
    const sealKey = randomBytes(32);
    const answering = open({ keyPrefix, nodeId: 'answering', sealKey });
    const [asking, follower, keyless] = [open({ keyPrefix, nodeId: 'asking', sealKey }), open({ keyPrefix, sealKey }), open({ keyPrefix })];
    const heard = [sealHearer(), sealHearer(), sealHearer()] as const;
    await asking.subscribe(heard[0]);
    await follower.subscribe(heard[1]);
    await keyless.subscribe(heard[2]);
    await asking.unfollow('*');
    await follower.follow('sealed');
    await keyless.follow('sealed');
    const store = new RedisQuestionStore({ nodes: cluster!.nodes, keyPrefix });
    stores.push(store);
    const record = sampleQuestionRecord({ sessionId: 'sealed', askedOn: 'asking' });
    await store.save(record, { announce: answering.announcement({ type: 'asked' }) });
    await store.claim(record.rpcId, 'answered', { answers: [{ id: 'deploy', selected: ['Yes'] }] }, { announce: answering.announcement({ type: 'settled' }), answeredBy: { principalId: 'alex', via: 'websocket' }, sessionId: 'sealed' });
    await until('the followers to hear asked and settled', () => heard[1].delivered.length >= 2 && heard[2].delivered.length >= 2);
    await until('the asking node to hear its settled', () => heard[0].delivered.length >= 1);
    const settled = await store.get(record.rpcId);
    expect(heard[0].delivered).toEqual([{ message: { type: 'settled', from: 'answering', record: settled }, sealed: true }]);
    expect(heard[1].delivered).toEqual([
      { message: { type: 'asked', from: 'answering', record }, sealed: true },
      { message: { type: 'settled', from: 'answering', record: settled }, sealed: true },
    ]);
    expect(heard[2].delivered.map(({ sealed }) => sealed)).toEqual([false, false]);
  });

  it("keeps delivering a followed session's news after its slot moved to another master", async () => {
    const keyPrefix = `test-${randomUUID()}:`;
    const [sender, follower] = [open({ keyPrefix }), open({ keyPrefix })];
    const heard = hear();
    await follower.subscribe(heard);
    await follower.follow('moving');
    const first = { type: 'asked', from: sender.nodeId, record: { ...sampleQuestionRecord({ sessionId: 'moving' }), askedOn: sender.nodeId } } as const;
    await sender.publish(first);
    await until('the first message', () => heard.messages.length >= 1);
    const slot = await slotOf(sessionChannel(keyPrefix, 'moving'));
    const from = await cluster!.ownerOf(slot);
    await cluster!.migrateSlot(slot, from, (from + 1) % 3);
    // The shard channel moved with its slot; the follower's client follows it there (a hint may be
    // lost while it does, which a reconcile repairs), so send until one arrives.
    await until('a message after the move', () => {
      void sender.publish({ ...first, record: { ...first.record, rpcId: `after-${randomUUID()}` } }).catch(() => {});
      return heard.messages.length >= 2;
    });
    expect(heard.messages.every((message) => message.record.sessionId === 'moving')).toBe(true);
  }, 30_000);
});
