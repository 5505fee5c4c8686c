// Three host processes on one real PostgreSQL (PostgresQuestionStore + PostgresQuestionBus), with
// the faults issue 29 names: PostgreSQL restarted mid-run, the nodes' connections cut with
// pg_terminate_backend, a node SIGKILLed while its claim is inside PostgreSQL. Every test counts
// outcomes exactly: no answer lost, none accepted twice, one onResume. Each node is a child process
// (test/postgres-node-child.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { PostgresQuestionStore } from '@askseam/store-postgres';
import { startPostgresServer, type TestPostgresServer } from '@askseam/store-postgres/testing';
import pg from 'pg';
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

  resumed(rpcId: string, ms = 45_000) {
    // A dead asker's node counts as gone only once its liveness row expires and a reconcile runs:
    // allow for a loaded machine (the full CI run, with other suites' servers beside these three nodes).
    return this.wait((line) => ('resumed' in line && line.resumed.rpcId === rpcId ? line.resumed : undefined), `onResume of ${rpcId}`, ms);
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

let postgres: TestPostgresServer;
let script: string;
let schema: string;
const nodes: Node[] = [];
const clients: RawClient[] = [];

beforeAll(async () => {
  [postgres, script] = await Promise.all([startPostgresServer(), bundleChild(new URL('./postgres-node-child.ts', import.meta.url), { installed: { pg: 'store-postgres' } })]);
});

afterAll(async () => {
  await postgres?.destroy();
  removeBundles();
});

beforeEach(() => {
  schema = `t_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const node of nodes.splice(0)) await node.stop();
});

async function startNode(nodeId: string, reconcileMs = 500): Promise<Node> {
  const child = spawn(process.execPath, [script, postgres.url, schema, nodeId, TOKEN, String(reconcileMs)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const node = new Node(nodeId, child);
  nodes.push(node);
  const ready = await node.wait((line) => ('ready' in line ? line.ready : undefined), 'ready line', 20_000);
  node.url = ready.url;
  return node;
}

/**
 * The rpcId of the next question a client is shown, other than `except`: a node whose LISTEN
 * connection was cut may still show a question settled meanwhile until its resync has read the store.
 */
async function shown(client: RawClient, except?: string): Promise<string> {
  return (await client.next('question/requested', (frame) => frame.rpcId !== except, 10_000)).rpcId;
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

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end().catch(() => {});
});

/** A plain pool on the test's server: what a DBA (or a test) uses to look at and upset the nodes. */
function rawPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
  pool.on('error', () => {});
  pools.push(pool);
  return pool;
}

/** Read the test's schema with a store of its own. */
async function withStore<T>(use: (store: PostgresQuestionStore) => Promise<T>): Promise<T> {
  const store = new PostgresQuestionStore({ connectionString: postgres.url, schema });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** How many times any of `nodes` reported `rpcId` reaching its onResume. */
function resumedCount(rpcId: string, among: Node[]): number {
  return among.flatMap((node) => node.lines).filter((line) => 'resumed' in line && line.resumed.rpcId === rpcId).length;
}

/**
 * Hold the question's row locked in a transaction of our own, so that a node's claim of it waits
 * inside PostgreSQL; resolves with a release function once a claim is seen waiting on it.
 */
async function holdRowUntilAClaimWaits(rpcId: string, answer: () => void): Promise<() => Promise<void>> {
  const pool = rawPool();
  const holder = await pool.connect();
  await holder.query('BEGIN');
  await holder.query(`SELECT 1 FROM ${schema}.questions WHERE rpc_id = $1 FOR UPDATE`, [rpcId]);
  answer();
  for (let i = 0; i < 500; i += 1) {
    const { rows } = await pool.query("SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH settled%'");
    if (rows.length === 1) {
      return async () => {
        await holder.query('COMMIT');
        holder.release();
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no claim ever waited on the held row');
}

// Three node processes start per test; on a loaded machine that alone can take most of the default 20 s.
describe('three host processes on one PostgreSQL', { timeout: 90_000 }, () => {
  it('resolves an ask on one node with an answer given over a socket on another, and over HTTP on a third', async () => {
    const [a, b, c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const onB = await b.connect();
    a.send({ cmd: 'ask', id: 'q1', sessionId: 'agent-a' });
    const first = await shown(onB);
    expect((await onB.answer(first, 'agent-a', red)).accepted).toBe(true);
    expect(await a.settled('q1')).toEqual({ id: 'q1', ok: true, answer: red });

    const onC = await c.connect();
    a.send({ cmd: 'ask', id: 'q2', sessionId: 'agent-a' });
    const second = await shown(onC);
    expect((await c.answerOverHttp(second, 'agent-a', { answers: [{ id: 'colour', selected: ['Green'] }] })).body).toMatchObject({ accepted: false, reason: 'bad-response' });
    expect(await c.answerOverHttp(second, 'agent-a', blue)).toMatchObject({ status: 200, body: { accepted: true } });
    expect(await a.settled('q2')).toEqual({ id: 'q2', ok: true, answer: blue });
  });

  it('takes exactly one of two answers sent at once on two nodes', async () => {
    const [a, b, c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const onB = await b.connect();
    for (let round = 0; round < 4; round += 1) {
      a.send({ cmd: 'ask', id: `q${round}`, sessionId: 'agent-a' });
      const rpcId = await shown(onB);
      const onC = await c.connect();
      await onC.next('question/requested', (frame) => frame.rpcId === rpcId, 10_000);
      const [viaSocket, viaHttp] = await Promise.all([onB.answer(rpcId, 'agent-a', red), c.answerOverHttp(rpcId, 'agent-a', blue)]);
      expect([viaSocket.accepted, viaHttp.body.accepted === true].filter(Boolean)).toHaveLength(1);
      expect((await a.settled(`q${round}`)).answer).toEqual(viaSocket.accepted ? red : blue);
      await onC.close();
    }
  });

  it('hands the answer to a question whose asker\'s node was killed to one surviving node\'s onResume, once', async () => {
    const [a, b, c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const onB = await b.connect();
    a.send({ cmd: 'ask', id: 'q1', sessionId: 'agent-a' });
    const rpcId = await shown(onB);
    a.child.kill('SIGKILL');
    await a.exited;
    expect((await onB.answer(rpcId, 'agent-a', red)).accepted).toBe(true);
    // B may still count A alive when it claims (A's liveness row is fresh for a moment), and then
    // hands the answer to A; the next reconcile on any survivor, B or C, resumes it.
    const record = await Promise.race([b.resumed(rpcId), c.resumed(rpcId)]);
    expect(record).toMatchObject({ rpcId, outcome: 'answered', answer: red, askedOn: 'a', mode: 'blocking' });
    // Several reconcile rounds later, still handed over once, and recorded so.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(resumedCount(rpcId, [b, c])).toBe(1);
    expect(await withStore((store) => store.get(rpcId))).toMatchObject({ resumedAt: expect.any(String) });
  });
});

describe('faults', { timeout: 90_000 }, () => {
  it('a node SIGKILLed while its claim waits inside PostgreSQL: the claim commits once, the asker gets that answer, nobody else is accepted', async () => {
    const [a, b, c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const onB = await b.connect();
    const onC = await c.connect();
    a.send({ cmd: 'ask', id: 'q1', sessionId: 'agent-a' });
    const rpcId = await shown(onB);
    await onC.next('question/requested', (frame) => frame.rpcId === rpcId, 10_000);
    const release = await holdRowUntilAClaimWaits(rpcId, () => void onB.answer(rpcId, 'agent-a', red).catch(() => {}));
    b.child.kill('SIGKILL');
    await b.exited;
    // The claim was already inside PostgreSQL: it runs when the row is free, with or without its node.
    await release();
    expect(await a.settled('q1')).toEqual({ id: 'q1', ok: true, answer: red });
    expect(await withStore((store) => store.get(rpcId))).toMatchObject({ outcome: 'answered', answer: red });
    // Told on C too (the store's NOTIFY went out with the commit): a later answer there is refused.
    await onC.next('question/resolved', (frame) => frame.rpcId === rpcId, 10_000);
    expect(await c.answerOverHttp(rpcId, 'agent-a', blue)).toMatchObject({ body: { accepted: false, reason: 'not-pending' } });
    expect(resumedCount(rpcId, [a, c])).toBe(0);
  });

  it('a detached question whose answering node is SIGKILLed mid-claim reaches exactly one onResume on the survivors', async () => {
    const [a, b, c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const onB = await b.connect();
    a.send({ cmd: 'askDetached', id: 'd1', sessionId: 'agent-b', state: { step: 3 } });
    const { rpcId } = await a.wait((line) => ('detached' in line ? line.detached : undefined), 'detached ask');
    expect(await shown(onB)).toBe(rpcId);
    const release = await holdRowUntilAClaimWaits(rpcId!, () => void onB.answer(rpcId!, 'agent-b', blue).catch(() => {}));
    b.child.kill('SIGKILL');
    await b.exited;
    await release();
    const record = await Promise.race([a.resumed(rpcId!), c.resumed(rpcId!)]);
    expect(record).toMatchObject({ outcome: 'answered', answer: blue, state: { step: 3 } });
    // Several reconcile rounds later (and past b's liveness), still exactly one handler ran.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(resumedCount(rpcId!, [a, c])).toBe(1);
    expect(await withStore((store) => store.listAwaitingResume())).toEqual([]);
  });

  it('keeps a question pending across a PostgreSQL restart and takes its answer on another node afterwards', async () => {
    const [a, b] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const onB = await b.connect();
    a.send({ cmd: 'ask', id: 'q1', sessionId: 'agent-a' });
    const rpcId = await shown(onB);
    await postgres.restart();
    await answerUntilRecorded(onB, rpcId, red);
    // Every node lost touch with PostgreSQL and none could refresh its liveness meanwhile: B must not take A for gone.
    expect(await a.settled('q1')).toEqual({ id: 'q1', ok: true, answer: red });
    expect(await withStore((store) => store.get(rpcId))).toMatchObject({ outcome: 'answered', answer: red });
  });

  it('survives every node connection being cut with pg_terminate_backend: questions and answers cross nodes again', async () => {
    const [a, b, c] = [await startNode('a'), await startNode('b'), await startNode('c')];
    const onC = await c.connect();
    a.send({ cmd: 'ask', id: 'before', sessionId: 'agent-a' });
    const pendingRpcId = await shown(onC);
    const raw = rawPool();
    const { rows } = await raw.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE (application_name = 'askseam' OR application_name LIKE 'askseam-bus %') AND pid <> pg_backend_pid()");
    expect(rows.length).toBeGreaterThanOrEqual(3);
    // The question asked before the cut is still answerable, once, through another node.
    await answerUntilRecorded(onC, pendingRpcId, red);
    expect(await a.settled('before')).toMatchObject({ ok: true, answer: red });
    // And a new question asked after it reaches the other nodes over the re-made LISTEN connections.
    // B may have missed the first one's settlement while its LISTEN was down, and replay it to a new
    // client until its resync has read the store: that one is not the question looked for.
    const onB = await b.connect();
    a.send({ cmd: 'ask', id: 'after', sessionId: 'agent-a' });
    const next = await shown(onB, pendingRpcId);
    // A pooled connection the cut left behind may still fail one claim ("send the response again"):
    // the receipt must then say so, and the resent answer must be taken, once.
    await answerUntilRecorded(onB, next, blue);
    expect(await a.settled('after')).toMatchObject({ ok: true, answer: blue });
    expect(resumedCount(next, [a, b, c]) + resumedCount(pendingRpcId, [a, b, c])).toBe(0);
  });
});
