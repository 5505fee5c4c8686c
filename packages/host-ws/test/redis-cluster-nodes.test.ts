// Three host processes holding only their share (`holds: 'share'`) on a real 3-master Redis Cluster
// (RedisQuestionStore + RedisQuestionBus on its nodes), sessions spread over masters and nodes: the
// people of a session connect to one node, its agent asks on another. Mid-run a slot holding live
// questions is migrated, a host node is SIGKILLed and a master is killed and restarted; every test
// counts what each asker, receipt and onResume got. One cluster for the file, the master kill last.
// Each node is a child process (test/redis-node-child.ts with `cluster:` and `share`, driven through
// test/share-node-process.ts).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { RedisQuestionStore, bucketTag, sessionBucket } from '@askseam/store-redis';
import { startRedisCluster, type TestRedisCluster } from '@askseam/store-redis/testing';
import { bundleChild, removeBundles } from '@askseam/test-support';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unconfirmedDetail } from '../src/respond.js';
import type { RawClient } from './raw-client.js';
import { Node } from './share-node-process.js';

const TOKEN = 'cluster-node-token';
const red = { answers: [{ id: 'colour', selected: ['Red'] }] };

let cluster: TestRedisCluster;
let admin: Redis;
let script: string;
let prefix: string;
const nodes: Node[] = [];
const clients: RawClient[] = [];
const stores: RedisQuestionStore[] = [];

beforeAll(async () => {
  // Persistent: the master killed in the last test comes back with its keys.
  [cluster, script] = await Promise.all([startRedisCluster({ persistent: true }), bundleChild(new URL('./redis-node-child.ts', import.meta.url))]);
  admin = new Redis(cluster.urls[0]!);
  admin.on('error', () => {});
}, 120_000);

afterAll(async () => {
  admin?.disconnect();
  await cluster?.stop();
  removeBundles();
});

beforeEach(() => {
  prefix = `c${randomUUID().slice(0, 8)}:`;
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const store of stores.splice(0)) await store.close();
  for (const node of nodes.splice(0)) await node.stop();
});

async function startNode(nodeId: string): Promise<Node> {
  const where = `cluster:${cluster.nodes.map((node) => `${node.host}:${node.port}`).join(',')}`;
  const child = spawn(process.execPath, [script, where, prefix, nodeId, TOKEN, '500', 'share'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const node = new Node(nodeId, child, TOKEN, (client) => clients.push(client));
  nodes.push(node);
  const ready = await node.wait((line) => ('ready' in line ? line.ready : undefined), 'ready line', 60_000);
  node.url = ready.url;
  return node;
}

function openStore(): RedisQuestionStore {
  const store = new RedisQuestionStore({ nodes: cluster.nodes, keyPrefix: prefix });
  stores.push(store);
  return store;
}

/** The hash slot of a key (the same for every key with the same hash tag). */
async function slotOf(key: string): Promise<number> {
  return Number(await admin.call('CLUSTER', 'KEYSLOT', key));
}

/** The slot holding a session's keys and channel: its bucket's hash tag. */
function sessionSlot(sessionId: string): Promise<number> {
  return slotOf(bucketTag(prefix, sessionBucket(sessionId)));
}

/** `count` session ids whose keys live on master `master`, in distinct slots. */
async function sessionsOn(master: number, count: number, label: string): Promise<string[]> {
  const found: string[] = [];
  const slots = new Set<number>();
  for (let i = 0; found.length < count; i += 1) {
    if (i > 2_000) throw new Error(`no ${count} sessions on master ${master}`);
    const session = `${label}-${i}`;
    const slot = await sessionSlot(session);
    if (!slots.has(slot) && (await cluster.ownerOf(slot)) === master) {
      found.push(session);
      slots.add(slot);
    }
  }
  return found;
}

/** The rpcIds of the next `count` questions a client is shown. */
async function shown(client: RawClient, count: number): Promise<string[]> {
  const rpcIds: string[] = [];
  for (let i = 0; i < count; i += 1) rpcIds.push((await client.next('question/requested', () => true, 30_000)).rpcId);
  return rpcIds.sort();
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Receipts that say "not recorded, send again" or "could not confirm": what a store outage may answer. */
function expectTypedRefusal(receipt: { accepted: boolean; reason?: string; detail?: string }): void {
  expect(receipt.accepted).toBe(false);
  const why = receipt.reason === 'not-pending' ? 'not-pending' : receipt.detail;
  expect([expect.stringMatching(/send the response again/), unconfirmedDetail, 'not-pending']).toContainEqual(why);
}

/**
 * Send an answer over a socket until the store holds it; counts the accepted receipts into
 * `accepted`. Done once a receipt accepted it or the client was told it was resolved as answered.
 */
async function answerUntilRecorded(client: RawClient, rpcId: string, sessionId: string, accepted: Map<string, number>): Promise<void> {
  const resolved = () => client.all('question/resolved').some((frame) => frame.rpcId === rpcId && frame.outcome === 'answered');
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (resolved()) return;
    const receipt = await client.answer(rpcId, sessionId, red);
    if (receipt.accepted) accepted.set(rpcId, (accepted.get(rpcId) ?? 0) + 1);
    if (receipt.accepted || resolved()) return;
    expectTypedRefusal(receipt);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the answer to ${rpcId} was never recorded`);
}

describe('three host processes holding their share on a 3-master Redis Cluster', () => {
  it('resolves asks on A answered on B and C, over sockets and HTTP, once each; each node holds only its share', async () => {
    const [a, b, c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    // One session per master served on B, one per master on C.
    const onMasters = await Promise.all([0, 1, 2].map((master) => sessionsOn(master, 2, `share-${master}`)));
    const ofB = onMasters.map((pair) => pair[0]!);
    const ofC = onMasters.map((pair) => pair[1]!);
    const people = new Map<string, RawClient>();
    for (const session of ofB) people.set(session, await b.personOf(session));
    for (const session of ofC) people.set(session, await c.personOf(session));

    const asks = new Map<string, string[]>();
    for (const session of [...ofB, ...ofC]) asks.set(session, [a.ask(session), a.ask(session)]);
    const bySession = new Map<string, string[]>();
    for (const [session, person] of people) bySession.set(session, await shown(person, 2));
    const all = [...bySession.values()].flat().sort();
    const heldBy = (sessions: string[]) => sessions.flatMap((session) => bySession.get(session)!).sort();
    expect(all).toHaveLength(12);
    // A holds its askers' 12, B and C only the 6 of the sessions their people see.
    expect(await a.pending()).toEqual(all);
    expect(await b.pending()).toEqual(heldBy(ofB));
    expect(await c.pending()).toEqual(heldBy(ofC));

    // B's sessions answered on B's sockets, except one over HTTP on C (which does not hold it);
    // C's over HTTP on C, except one on B's HTTP API. A second answer to each is refused.
    const [crossToC, crossToB] = [bySession.get(ofB[0]!)![0]!, bySession.get(ofC[0]!)![0]!];
    for (const session of ofB) {
      for (const rpcId of bySession.get(session)!) {
        if (rpcId === crossToC) expect(await c.answerOverHttp(rpcId, session, red)).toMatchObject({ status: 200, body: { accepted: true } });
        else expect(await people.get(session)!.answer(rpcId, session, red)).toMatchObject({ accepted: true });
      }
    }
    for (const session of ofC) {
      for (const rpcId of bySession.get(session)!) {
        const via = rpcId === crossToB ? b : c;
        expect(await via.answerOverHttp(rpcId, session, red)).toMatchObject({ status: 200, body: { accepted: true } });
      }
    }
    for (const session of [...ofB, ...ofC]) {
      for (const rpcId of bySession.get(session)!) expect(await a.answerOverHttp(rpcId, session, red)).toMatchObject({ status: 409, body: { accepted: false, reason: 'not-pending' } });
    }

    for (const ids of asks.values()) for (const id of ids) expect(await a.settled(id)).toEqual({ id, ok: true, answer: red });
    await waitFor('every node to drop the answered questions', async () => (await Promise.all([a, b, c].map((node) => node.pending()))).every((held) => held.length === 0));
    // Each asker resolved once; no answer also went to an onResume.
    for (const ids of asks.values()) for (const id of ids) expect(a.settlements(id)).toBe(1);
    expect([a, b, c].flatMap((node) => node.resumedIds())).toEqual([]);
    const store = openStore();
    for (const rpcId of all) expect(await store.get(rpcId)).toMatchObject({ outcome: 'answered', answer: red });
  }, 120_000);

  it('loses no answer and accepts none twice while a slot holding live questions moves to another master', async () => {
    const [a, b] = [await startNode('a'), await startNode('b')];
    const [session] = await sessionsOn(0, 1, 'moving');
    const slot = await sessionSlot(session!);
    const person = await b.personOf(session!);
    const asks = Array.from({ length: 30 }, () => a.ask(session!));
    const rpcIds = await shown(person, 30);
    expect(await b.pending()).toEqual(rpcIds);

    const accepted = new Map<string, number>();
    // A third answered before the move, the rest while it runs.
    for (const rpcId of rpcIds.slice(0, 10)) await answerUntilRecorded(person, rpcId, session!, accepted);
    await Promise.all([cluster.migrateSlot(slot, 0, 1), ...rpcIds.slice(10).map((rpcId) => answerUntilRecorded(person, rpcId, session!, accepted))]);
    expect(await cluster.ownerOf(slot)).toBe(1);

    for (const id of asks) expect(await a.settled(id)).toEqual({ id, ok: true, answer: red });
    for (const id of asks) expect(a.settlements(id)).toBe(1);
    for (const rpcId of rpcIds) expect(accepted.get(rpcId) ?? 0, rpcId).toBeLessThanOrEqual(1);
    const store = openStore();
    for (const rpcId of rpcIds) expect(await store.get(rpcId)).toMatchObject({ outcome: 'answered', answer: red });
    expect(await store.listPending([session!])).toEqual([]);
    expect([a, b].flatMap((node) => node.resumedIds())).toEqual([]);

    // The session now lives on master 1: a new question still reaches its person and its asker.
    const later = a.ask(session!);
    const [again] = await shown(person, 1);
    await answerUntilRecorded(person, again!, session!, accepted);
    expect(await a.settled(later)).toEqual({ id: later, ok: true, answer: red });
  }, 120_000);

  it("hands the answers of a SIGKILLed node's askers, blocking and detached, to exactly one onResume on a survivor", async () => {
    const [a, b, c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const sessions = [(await sessionsOn(0, 1, 'orphan'))[0]!, (await sessionsOn(2, 1, 'orphan'))[0]!];
    const people = await Promise.all(sessions.map((session) => b.personOf(session)));
    for (const session of sessions) {
      a.ask(session);
      a.ask(session);
    }
    const detached = await Promise.all(sessions.map((session) => a.askDetached(session)));
    const bySession = await Promise.all(people.map((person) => shown(person, 3)));
    expect(bySession.flat()).toEqual(expect.arrayContaining(detached));
    a.child.kill('SIGKILL');
    await a.exited;

    for (const [index, session] of sessions.entries()) {
      for (const rpcId of bySession[index]!) expect(await people[index]!.answer(rpcId, session, red)).toMatchObject({ accepted: true });
    }
    const rpcIds = bySession.flat();
    const store = openStore();
    await waitFor('every answer to be handed over and marked resumed', async () => {
      for (const rpcId of rpcIds) if ((await store.get(rpcId))?.resumedAt === undefined) return false;
      return true;
    });
    // Several reconciles of both survivors later, each answer went to one onResume, once.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const resumed = [...b.resumedIds(), ...c.resumedIds()].filter((rpcId) => rpcIds.includes(rpcId));
    expect(resumed.sort()).toEqual([...rpcIds].sort());
    for (const rpcId of rpcIds) {
      const record = await store.get(rpcId);
      expect(record).toMatchObject({ outcome: 'answered', answer: red });
      expect(record?.mode === 'detached' ? detached.includes(rpcId) : record?.askedOn === 'a').toBe(true);
    }
  }, 120_000);

  // Last: it kills a master. Without replicas nothing takes over its slots, so the honest promise is:
  // calls on its slots fail typed and accept nothing, the other slots keep working, and once the
  // master is back (from its AOF) the answers sent again are accepted, each exactly once.
  it('refuses answers on the slots of a killed master with a typed receipt, keeps the others working, and accepts each once after it is back', async () => {
    const victim = 2;
    // With the default cluster-require-full-coverage the whole cluster refuses once a master fails;
    // a deployment that wants its other slots served sets it to no, as here.
    for (const url of cluster.urls) {
      const master = new Redis(url);
      await master.call('CONFIG', 'SET', 'cluster-require-full-coverage', 'no');
      master.disconnect();
    }
    // A prefix whose keys outside any session (layout, buckets, liveness, node channels) avoid the
    // victim: they are one slot each, and without replicas a dead master takes them with it.
    for (let tries = 0; ; tries += 1) {
      const fixed = ['layout', 'buckets', 'alive:a', 'alive:b', 'node:a', 'node:b'].map((name) => `${prefix}${name}`);
      const owners = await Promise.all(fixed.map(async (key) => cluster.ownerOf(await slotOf(key))));
      if (!owners.includes(victim)) break;
      if (tries > 200) throw new Error('no prefix avoids the victim');
      prefix = `c${randomUUID().slice(0, 8)}:`;
    }
    const [a, b] = [await startNode('a'), await startNode('b')];
    const [doomed] = await sessionsOn(victim, 1, 'doomed');
    const [spared] = await sessionsOn(0, 1, 'spared');
    const onDoomed = await b.personOf(doomed!);
    const onSpared = await b.personOf(spared!);
    const doomedAsks = [a.ask(doomed!), a.ask(doomed!), a.ask(doomed!)];
    const sparedAsks = [a.ask(spared!), a.ask(spared!), a.ask(spared!)];
    const doomedIds = await shown(onDoomed, 3);
    const sparedIds = await shown(onSpared, 3);

    // Where each spared question's rpcId pointer lies (its own slot): the answering node reads it to find the record.
    const pointerOnVictim = new Set<string>();
    for (const rpcId of sparedIds) if ((await cluster.ownerOf(await slotOf(`${prefix}rpc:${rpcId}`))) === victim) pointerOnVictim.add(rpcId);

    await cluster.kill(victim);
    // An ask on the dead slots is refused typed, and one on the others is saved.
    const refusedAsk = a.ask(doomed!);
    expect(await a.settled(refusedAsk)).toMatchObject({ ok: false, code: 'ASK_ABORTED', message: expect.stringMatching(/could not be saved/) });
    // A new rpcId's pointer is written first, in its own slot: when that slot is the victim's the
    // ask is refused typed too, so ask until one is saved (and shown on B).
    let sparedLater = '';
    for (let attempt = 0; sparedLater === ''; attempt += 1) {
      if (attempt > 20) throw new Error('no ask on the surviving slots was saved');
      const id = a.ask(spared!);
      const before = onSpared.all('question/requested').length;
      await waitFor('the ask to be refused or shown', () => a.settlements(id) > 0 || onSpared.all('question/requested').length > before);
      if (a.settlements(id) === 0) sparedLater = id;
      else expect(await a.settled(id)).toMatchObject({ ok: false, code: 'ASK_ABORTED', message: expect.stringMatching(/could not be saved/) });
    }
    const [sparedLaterId] = await shown(onSpared, 1);

    const accepted = new Map<string, number>();
    const count = (rpcId: string) => accepted.set(rpcId, (accepted.get(rpcId) ?? 0) + 1);
    // The dead slots: every answer refused with a typed receipt, none accepted, no asker resolved.
    for (const rpcId of doomedIds) {
      const receipt = await onDoomed.answer(rpcId, doomed!, red);
      if (receipt.accepted) count(rpcId);
      expectTypedRefusal(receipt);
    }
    // The surviving slots: answered, each once (a record whose rpcId pointer lay on the victim is
    // refused typed like the others and sent again after the restart).
    for (const rpcId of [...sparedIds, sparedLaterId!]) {
      const receipt = await onSpared.answer(rpcId, spared!, red);
      if (receipt.accepted) count(rpcId);
      else expectTypedRefusal(receipt);
    }
    expect(doomedAsks.map((id) => a.settlements(id))).toEqual([0, 0, 0]);
    // Every one whose pointer survived was accepted (one whose pointer died is too when the node
    // remembered its bucket from reading the record on its `asked` news; else it was refused typed).
    expect([...sparedIds, sparedLaterId!].filter((rpcId) => !pointerOnVictim.has(rpcId) && !accepted.has(rpcId))).toEqual([]);

    await cluster.restart(victim);
    for (const rpcId of doomedIds) await answerUntilRecorded(onDoomed, rpcId, doomed!, accepted);
    for (const rpcId of [...sparedIds, sparedLaterId!]) if (!accepted.has(rpcId)) await answerUntilRecorded(onSpared, rpcId, spared!, accepted);

    for (const id of [...doomedAsks, ...sparedAsks, sparedLater]) expect(await a.settled(id)).toEqual({ id, ok: true, answer: red });
    for (const id of [...doomedAsks, ...sparedAsks, sparedLater]) expect(a.settlements(id)).toBe(1);
    for (const rpcId of [...doomedIds, ...sparedIds, sparedLaterId!]) expect(accepted.get(rpcId) ?? 0, rpcId).toBeLessThanOrEqual(1);
    const store = openStore();
    for (const rpcId of [...doomedIds, ...sparedIds, sparedLaterId!]) expect(await store.get(rpcId)).toMatchObject({ outcome: 'answered', answer: red });
    expect(await store.listPending([doomed!, spared!])).toEqual([]);
    expect([a, b].flatMap((node) => node.resumedIds())).toEqual([]);
  }, 180_000);
});
