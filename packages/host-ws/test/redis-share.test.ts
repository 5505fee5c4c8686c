// Nodes holding their share (`holds: 'share'`) on one real redis-server and on a real 3-master Redis
// Cluster: RedisQuestionStore (which publishes `asked` and `settled` inside its scripts, on the
// session's channel) and RedisQuestionBus (which follows sessions). The same rules as
// share.test.ts, across the real bus and store.
import { randomUUID } from 'node:crypto';
import { RedisQuestionBus } from '@askseam/bus-redis';
import type { QuestionRecord } from '@askseam/store';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisCluster, startRedisServer, type TestRedisCluster, type TestRedisServer } from '@askseam/store-redis/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, resumeRecorder } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost, type TestHost } from './fixture.js';
import { oneSessionPerson, personOf } from './share-fixture.js';

let redis: TestRedisServer;
let cluster: TestRedisCluster;
let prefix: string;
const stores: RedisQuestionStore[] = [];

beforeAll(async () => {
  [redis, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
}, 60_000);

beforeEach(() => {
  prefix = `s${randomUUID().slice(0, 8)}:`;
});

afterEach(async () => {
  await cleanup();
  for (const store of stores.splice(0)) await store.close();
});

afterAll(async () => {
  await Promise.all([redis?.stop(), cluster?.stop()]);
});

/** Where the store and the bus connect: one server's URL, or the Cluster's masters. */
type Target = () => { url: string } | { nodes: TestRedisCluster['nodes'] };
const targets: [string, Target][] = [
  ['one redis-server', () => ({ url: redis.url })],
  ['a 3-master Redis Cluster', () => ({ nodes: cluster.nodes })],
];

async function waitFor(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const ids = (each: TestHost) => each.host.pending().map((entry) => entry.rpcId);

describe.each(targets)('nodes holding their shares on %s', (_name, target) => {
  function openStore(): RedisQuestionStore {
    const store = new RedisQuestionStore({ ...target(), keyPrefix: prefix });
    stores.push(store);
    return store;
  }

  /** A node holding its share, on the shared store and bus of this test's prefix. */
  function node(nodeId: string, options: Parameters<typeof startHost>[0] = {}): Promise<TestHost> {
    return startHost({ store: openStore(), bus: new RedisQuestionBus({ ...target(), keyPrefix: prefix, nodeId }), holds: 'share', authenticate: oneSessionPerson, reconcileMs: 200, ...options });
  }

  it("replay a session from Redis to its first connection, take the answer there for the asker on another node, and forget the session when it leaves", async () => {
    const a = await node('a');
    const b = await node('b');
    const asking = a.ask('agent-a');
    await waitFor('the question in Redis', async () => (await a.host.store.listPending('all')).length === 1);
    expect(ids(b)).toEqual([]);
    const onB = await personOf(b, 'agent-a');
    const { rpcId } = await onB.next('question/requested');
    expect(ids(b)).toEqual([rpcId]);
    expect((await onB.answer(rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    await expect(asking).resolves.toEqual(redAnswer);
    await waitFor('node a to drop its answered question', () => ids(a).length === 0);
    await onB.close();
    await waitFor('node b to forget the session', () => ids(b).length === 0);
  });

  it("shows a question asked while a session is held live, and none of another session's", async () => {
    const a = await node('a');
    const b = await node('b');
    const onB = await personOf(b, 'agent-b');
    await onB.next('hello');
    const other = a.ask('agent-a');
    const mine = a.ask('agent-b');
    const shown = await onB.next('question/requested');
    expect(shown.sessionId).toBe('agent-b');
    expect((await onB.answer(shown.rpcId, 'agent-b', redAnswer)).accepted).toBe(true);
    await expect(mine).resolves.toEqual(redAnswer);
    await onB.caughtUp();
    expect(onB.all('question/requested').map((frame) => frame.sessionId)).toEqual(['agent-b']);
    expect(b.host.pending().map((entry) => entry.sessionId)).not.toContain('agent-a');
    other.settled.catch(() => {});
  });

  it('judges an answer over HTTP on a node that holds nothing: refused like on the asker\'s node, then taken once', async () => {
    const a = await node('a');
    const c = await node('c');
    const asking = a.ask('agent-a');
    await waitFor('the question in Redis', async () => (await c.host.store.listPending('all')).length === 1);
    const rpcId = (await c.host.store.listPending('all'))[0]!.rpcId;
    const wrong = { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: ['Green'] }] } };
    const onC = await api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: wrong });
    const onA = await api(a.host, 'POST', `/questions/${rpcId}/answer`, { body: wrong });
    expect(onC.status).toBe(422);
    expect(onC.body).toEqual(onA.body);
    const right = { sessionId: 'agent-a', answer: redAnswer };
    const [one, two] = await Promise.all([api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: right }), api(c.host, 'POST', `/questions/${rpcId}/answer`, { body: right })]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    await expect(asking).resolves.toEqual(redAnswer);
    expect(ids(c)).toEqual([]);
  });

  it('hands an answer left behind by a node that died between its claim and the hand-over to one onResume, through the scan shared by lease', async () => {
    const resumed = resumeRecorder();
    await node('a', { onResume: resumed.onResume });
    await node('b', { onResume: resumed.onResume });
    const store = openStore();
    const record: QuestionRecord = { rpcId: randomUUID(), sessionId: 'agent-a', askedBy: 'agent-a', askedAt: new Date().toISOString(), questions: [colourQuestion], mode: 'detached' };
    await store.save(record);
    await store.claim(record.rpcId, 'answered', redAnswer);
    expect(await resumed.next()).toMatchObject({ rpcId: record.rpcId, answer: redAnswer });
    await waitFor('the resume to be marked', async () => (await store.get(record.rpcId))?.resumedAt !== undefined);
    // Several more reconciles of both nodes.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(resumed.records).toHaveLength(1);
  });
});
