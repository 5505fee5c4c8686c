// Three host processes behind one real redis-server (RedisQuestionStore + RedisQuestionBus): the
// agent asks on one node, the person answers on another, over a socket or HTTP; nodes are killed
// and Redis is restarted mid-run. Each node is a child process (test/redis-node-child.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import type { QuestionRecord } from '@askseam/store';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleChild, removeBundles } from '@askseam/test-support';
import { RawClient } from './raw-client.js';
import { unconfirmedDetail } from '../src/respond.js';
import { ChildNode } from './child-node.js';

const TOKEN = 'multi-node-token';
const red = { answers: [{ id: 'colour', selected: ['Red'] }] };
const blue = { answers: [{ id: 'colour', selected: ['Blue'] }] };

type Line =
  | { ready: { url: string; nodeId: string } }
  | { settled: { id: string; ok: boolean; answer?: unknown; code?: string; message?: string } }
  | { detached: { id: string; rpcId?: string; code?: string } }
  | { resumed: QuestionRecord };

/** One host node in a child process: send it commands, wait for what it reports. */
class Node extends ChildNode<Line> {
  url = '';

  constructor(
    nodeId: string,
    child: ChildProcess,
  ) {
    super(nodeId, child, 10_000);
  }

  settled(id: string, ms?: number) {
    return this.wait((line) => ('settled' in line && line.settled.id === id ? line.settled : undefined), `settlement of ask ${id}`, ms);
  }

  resumed(rpcId: string) {
    return this.wait((line) => ('resumed' in line && line.resumed.rpcId === rpcId ? line.resumed : undefined), `onResume of ${rpcId}`);
  }

  async connect(): Promise<RawClient> {
    const client = await RawClient.connect(`${this.url}?token=${TOKEN}`);
    clients.push(client);
    return client;
  }

  async answerOverHttp(rpcId: string, sessionId: string, answer: unknown): Promise<{ status: number; body: { accepted?: boolean; reason?: string } }> {
    const response = await fetch(`${this.url.replace(/^ws:/, 'http:')}/questions/${rpcId}/answer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, answer }),
    });
    return { status: response.status, body: (await response.json()) as { accepted?: boolean; reason?: string } };
  }
}

let redis: TestRedisServer;
let script: string;
let prefix: string;
const nodes: Node[] = [];
const clients: RawClient[] = [];

beforeAll(async () => {
  [redis, script] = await Promise.all([startRedisServer({ persistent: true }), bundleChild(new URL('./redis-node-child.ts', import.meta.url))]);
});

afterAll(async () => {
  await redis?.stop();
  removeBundles();
});

beforeEach(() => {
  prefix = `t${randomUUID().slice(0, 8)}:`;
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const node of nodes.splice(0)) await node.stop();
});

async function startNode(nodeId: string, reconcileMs = 500): Promise<Node> {
  const child = spawn(process.execPath, [script, redis.url, prefix, nodeId, TOKEN, String(reconcileMs)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const node = new Node(nodeId, child);
  nodes.push(node);
  const ready = await node.wait((line) => ('ready' in line ? line.ready : undefined), 'ready line', 20_000);
  node.url = ready.url;
  return node;
}

/** The rpcId of the next question a client is shown. */
async function shown(client: RawClient): Promise<string> {
  return (await client.next('question/requested', () => true, 10_000)).rpcId;
}

/** Ask on `node` until the store takes the question (an ask refused at once means Redis is not back yet); returns the ask's id. */
async function askUntilSaved(node: Node, sessionId: string): Promise<string> {
  // ioredis backs off between reconnects (up to 2 s), so allow several seconds.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const id = `retry-${attempt}`;
    node.send({ cmd: 'ask', id, sessionId });
    // A refusal (STORE_UNAVAILABLE) comes back at once; a saved question stays pending.
    const refused = await node.settled(id, 1_000).catch(() => undefined);
    if (refused === undefined) return id;
    expect(refused).toMatchObject({ ok: false, code: 'ASK_ABORTED' });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`node ${node.nodeId} never managed to save a question`);
}

/**
 * Send an answer until the store holds it. While the store is unreachable a receipt says either
 * "send the response again" (the read-back proved the claim did not run) or that the host could
 * not confirm it (it reads back until it knows; meanwhile the question is not pending, so a resend
 * gets not-pending). Resolves once the answer was accepted or the question was resolved as answered.
 */
async function answerUntilRecorded(client: RawClient, rpcId: string, answer: unknown): Promise<void> {
  const resolved = () => client.all('question/resolved').some((frame) => frame.rpcId === rpcId && frame.outcome === 'answered');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (resolved()) return;
    const receipt = await client.answer(rpcId, 'agent-a', answer);
    if (receipt.accepted || resolved()) return;
    const why = receipt.reason === 'not-pending' ? 'not-pending' : receipt.detail;
    expect([expect.stringMatching(/send the response again/), unconfirmedDetail, 'not-pending']).toContainEqual(why);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the answer to ${rpcId} was never recorded`);
}

describe('three host processes on one Redis', () => {
  it('resolves an ask on one node with an answer given over a socket on another', async () => {
    const [a, b] = [await startNode('a'), await startNode('b')];
    const onB = await b.connect();
    a.send({ cmd: 'ask', id: 'q1', sessionId: 'agent-a' });
    const rpcId = await shown(onB);
    expect((await onB.answer(rpcId, 'agent-a', red)).accepted).toBe(true);
    expect(await a.settled('q1')).toEqual({ id: 'q1', ok: true, answer: red });
    // The answering socket's accepted receipt is its news: no question/resolved for it (protocol 2).
    await onB.caughtUp();
    expect(onB.all('question/resolved')).toEqual([]);
  });

  it('resolves an ask with an answer given over HTTP on a third node, and refuses one that does not fit', async () => {
    const [a, , c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const onC = await c.connect();
    a.send({ cmd: 'ask', id: 'q1', sessionId: 'agent-a' });
    const rpcId = await shown(onC);
    const wrong = await c.answerOverHttp(rpcId, 'agent-a', { answers: [{ id: 'colour', selected: ['Green'] }] });
    expect(wrong.body).toMatchObject({ accepted: false, reason: 'bad-response' });
    const right = await c.answerOverHttp(rpcId, 'agent-a', red);
    expect(right).toMatchObject({ status: 200, body: { accepted: true } });
    expect(await a.settled('q1')).toMatchObject({ ok: true, answer: red });
  });

  it('takes exactly one of two answers sent at once on two nodes', async () => {
    const [a, b, c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const onB = await b.connect();
    for (let round = 0; round < 5; round += 1) {
      a.send({ cmd: 'ask', id: `q${round}`, sessionId: 'agent-a' });
      const rpcId = await shown(onB);
      // c learns of it over the bus; wait until it can take an answer.
      const onC = await c.connect();
      await onC.next('question/requested', (frame) => frame.rpcId === rpcId, 10_000);
      const [viaSocket, viaHttp] = await Promise.all([onB.answer(rpcId, 'agent-a', red), c.answerOverHttp(rpcId, 'agent-a', blue)]);
      const accepted = [viaSocket.accepted, viaHttp.body.accepted === true].filter(Boolean);
      expect(accepted).toHaveLength(1);
      const settled = await a.settled(`q${round}`);
      expect(settled.answer).toEqual(viaSocket.accepted ? red : blue);
      await onC.close();
      // Told it is settled unless its own answer won (then its accepted receipt said so, protocol 2).
      if (!viaSocket.accepted) await onB.next('question/resolved', (frame) => frame.rpcId === rpcId, 10_000);
    }
  });

  it('hands the answer to a question whose asker\'s node was killed to the answering node\'s onResume', async () => {
    const [a, b] = [await startNode('a'), await startNode('b')];
    const onB = await b.connect();
    a.send({ cmd: 'ask', id: 'q1', sessionId: 'agent-a' });
    const rpcId = await shown(onB);
    a.child.kill('SIGKILL');
    await a.exited;
    expect((await onB.answer(rpcId, 'agent-a', red)).accepted).toBe(true);
    expect(await b.resumed(rpcId)).toMatchObject({ rpcId, outcome: 'answered', answer: red, askedOn: 'a', mode: 'blocking' });
    // Handed over once, and recorded so: no node hands it over again.
    const store = new RedisQuestionStore({ url: redis.url, keyPrefix: prefix });
    try {
      for (let i = 0; i < 100 && (await store.get(rpcId))?.resumedAt === undefined; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await store.get(rpcId))?.resumedAt).toEqual(expect.any(String));
      expect(await store.listAwaitingResume()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('sends a detached question answered on another node to exactly one onResume', async () => {
    const [a, b] = [await startNode('a'), await startNode('b')];
    const onB = await b.connect();
    a.send({ cmd: 'askDetached', id: 'd1', sessionId: 'agent-b', state: { step: 3 } });
    const { rpcId } = await a.wait((line) => ('detached' in line ? line.detached : undefined), 'detached ask');
    expect(await shown(onB)).toBe(rpcId);
    await onB.answer(rpcId!, 'agent-b', blue);
    const record = await Promise.race([a.resumed(rpcId!), b.resumed(rpcId!)]);
    expect(record).toMatchObject({ outcome: 'answered', answer: blue, state: { step: 3 } });
    // Several reconcile rounds later, still only one handler ran.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const count = [...a.lines, ...b.lines].filter((line) => 'resumed' in line && line.resumed.rpcId === rpcId).length;
    expect(count).toBe(1);
  });
});

describe('Redis going away', () => {
  it('refuses an ask with a clear error while Redis is down, leaving nothing behind, and works again once it is back', async () => {
    const [a, b] = [await startNode('a'), await startNode('b')];
    await redis.stop();
    try {
      a.send({ cmd: 'ask', id: 'down', sessionId: 'agent-a' });
      const refused = await a.settled('down');
      expect(refused).toMatchObject({ ok: false, code: 'ASK_ABORTED' });
      expect(refused.message).toMatch(/could not be saved.*cannot reach Redis/);
    } finally {
      await redis.restart();
    }
    const store = new RedisQuestionStore({ url: redis.url, keyPrefix: prefix });
    try {
      expect(await store.listPending('all')).toEqual([]);
    } finally {
      await store.close();
    }
    // The nodes reconnect by themselves: a new question flows from a to b again.
    const onB = await b.connect();
    const id = await askUntilSaved(a, 'agent-a');
    const rpcId = await shown(onB);
    await answerUntilRecorded(onB, rpcId, red);
    expect(await a.settled(id)).toMatchObject({ ok: true, answer: red });
  });

  it('keeps a question pending across a Redis restart and takes its answer on another node afterwards', async () => {
    const [a, b] = [await startNode('a'), await startNode('b')];
    const onB = await b.connect();
    a.send({ cmd: 'ask', id: 'q1', sessionId: 'agent-a' });
    const rpcId = await shown(onB);
    await redis.restart();
    // Both nodes reconnect by themselves; until b's store connection is back, b asks for the answer again.
    await answerUntilRecorded(onB, rpcId, red);
    expect(await a.settled('q1')).toMatchObject({ ok: true, answer: red });
  });
});
