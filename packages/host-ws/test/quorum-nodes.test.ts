// Quorum approvals across processes: two host processes on one real redis-server with people
// voting on both at once, and a host restart on a SQLite file between two votes. Each host is a
// child process (test/quorum-node-child.ts); people are separate authenticated sockets.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { bundleChild, removeBundles } from '@askseam/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RawClient } from './raw-client.js';
import { ChildNode } from './child-node.js';

const approve = { answers: [{ id: 'tool-approval', selected: ['Approve'] }] };

type Line = { ready: { url: string } } | { decided: { id: string; approved?: boolean; by?: { principalId: string }[]; code?: string } } | { resumed: { rpcId: string; votes: string[] } };

class Node extends ChildNode<Line> {
  url = '';

  constructor(nodeId: string, child: ChildProcess) {
    super(nodeId, child, 15_000);
  }

  async as(user: string): Promise<RawClient> {
    const client = await RawClient.connect(`${this.url}?user=${user}`);
    clients.push(client);
    return client;
  }
}

let script: string;
const nodes: Node[] = [];
const clients: RawClient[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  script = await bundleChild(new URL('./quorum-node-child.ts', import.meta.url));
});

afterAll(() => removeBundles());

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const node of nodes.splice(0)) await node.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function startNode(args: string[]): Promise<Node> {
  const node = new Node(String(nodes.length + 1), spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] }));
  nodes.push(node);
  node.url = (await node.wait((line) => ('ready' in line ? line.ready : undefined), 'ready line', 20_000)).url;
  return node;
}

function decided(node: Node, id: string) {
  return node.wait((line) => ('decided' in line && line.decided.id === id ? line.decided : undefined), `decision ${id}`);
}

describe('two host processes on one redis-server', () => {
  let redis: TestRedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('show a vote counted on one node to the people on the other', async () => {
    const prefix = `q${randomUUID().slice(0, 8)}:`;
    const [a, b] = [await startNode(['redis', redis.url, prefix, 'node-a']), await startNode(['redis', redis.url, prefix, 'node-b'])];
    const [alex, sam] = [await a.as('alex'), await b.as('sam')];
    a.send({ cmd: 'approve', id: 'progress', approvals: 2 });
    const { rpcId } = await alex.next('question/requested');
    await sam.next('question/requested');
    expect(await alex.answer(rpcId, 'agent-a', approve)).toMatchObject({ accepted: true, votes: [{ principalId: 'alex' }] });
    expect(await sam.next('question/requested', (frame) => frame.votes !== undefined, 10_000)).toMatchObject({ rpcId, votes: [{ principalId: 'alex', via: 'websocket' }] });
    await sam.answer(rpcId, 'agent-a', approve);
    expect(await decided(a, 'progress')).toMatchObject({ approved: true, by: [{ principalId: 'alex' }, { principalId: 'sam' }] });
  });

  it('keep every distinct vote cast on both at once and settle each approval exactly once', async () => {
    const prefix = `q${randomUUID().slice(0, 8)}:`;
    const [a, b] = [await startNode(['redis', redis.url, prefix, 'node-a']), await startNode(['redis', redis.url, prefix, 'node-b'])];
    // Six people, three on each node; the approval needs three of them.
    const people = await Promise.all(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((user, index) => (index % 2 === 0 ? a : b).as(user)));
    const store = new RedisQuestionStore({ url: redis.url, keyPrefix: prefix });
    try {
      for (let round = 0; round < 5; round += 1) {
        const id = `round-${round}`;
        a.send({ cmd: 'approve', id, approvals: 3 });
        const shown = await Promise.all(people.map((person) => person.next('question/requested', (frame) => !person.all('receipt').some((receipt) => receipt.rpcId === frame.rpcId) && frame.votes === undefined, 10_000)));
        const rpcId = shown[0]!.rpcId;
        expect(shown.every((frame) => frame.rpcId === rpcId)).toBe(true);
        // Everyone approves at once, on both nodes.
        const receipts = await Promise.all(people.map((person) => person.answer(rpcId, 'agent-a', approve)));
        const decision = await decided(a, id);
        expect(decision.approved).toBe(true);
        const approvers = decision.by!.map((person) => person.principalId);
        expect(approvers).toHaveLength(3);
        expect(new Set(approvers).size).toBe(3);
        // Exactly three receipts counted (two with progress, one that settled); the rest came too late.
        expect(receipts.filter((receipt) => receipt.accepted)).toHaveLength(3);
        expect(receipts.filter((receipt) => !receipt.accepted && receipt.reason === 'not-pending')).toHaveLength(3);
        const record = await store.get(rpcId);
        expect(record?.votes?.map((vote) => vote.principalId)).toEqual(approvers);
        const log = (await store.readEvents('agent-a')).filter((event) => event.rpcId === rpcId);
        expect(log.filter((event) => event.type === 'response_from_human')).toHaveLength(1);
        expect(log.filter((event) => event.type === 'vote_cast').map((event) => (event.data as { principalId: string }).principalId)).toEqual(approvers);
      }
      // Decided once each: no second decision line, and nothing went to onResume (the asker had it).
      expect(a.lines.filter((line) => 'decided' in line)).toHaveLength(5);
      expect([...a.lines, ...b.lines].filter((line) => 'resumed' in line)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('a host restart on SQLite between votes', () => {
  it('keeps the first vote, shows it after the restart, and the second vote settles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'askseam-quorum-'));
    dirs.push(dir);
    const file = join(dir, 'questions.db');
    const before = await startNode(['sqlite', file, '-', 'node-1']);
    before.send({ cmd: 'approve', id: 'migrate', approvals: 2 });
    const alex = await before.as('alex');
    const { rpcId } = await alex.next('question/requested');
    expect(await alex.answer(rpcId, 'agent-a', approve)).toMatchObject({ accepted: true, votes: [{ principalId: 'alex' }] });
    // The asker's process dies; the question and alex's vote stay on disk.
    before.child.kill('SIGKILL');
    await before.exited;

    const after = await startNode(['sqlite', file, '-', 'node-2']);
    const sam = await after.as('sam');
    const shown = await sam.next('question/requested');
    expect(shown).toMatchObject({ rpcId, votes: [{ principalId: 'alex', via: 'websocket' }] });
    // alex again is still one vote; sam's completes the quorum.
    const alexAgain = await after.as('alex');
    await alexAgain.next('question/requested');
    expect(await alexAgain.answer(rpcId, 'agent-a', approve)).toMatchObject({ accepted: true, votes: [{ principalId: 'alex' }] });
    expect(await sam.answer(rpcId, 'agent-a', approve)).toEqual({ type: 'receipt', id: expect.any(String), rpcId, accepted: true });
    // Its asker is gone, so the decision reaches onResume, with both approvers.
    expect(await after.wait((line) => ('resumed' in line ? line.resumed : undefined), 'onResume')).toEqual({ rpcId, votes: ['alex', 'sam'] });
    const store = new SqliteQuestionStore(file);
    try {
      const events = await store.readEvents('agent-a');
      expect(events.filter((event) => event.type === 'vote_cast').map((event) => (event.data as { principalId: string }).principalId)).toEqual(['alex', 'sam']);
    } finally {
      await store.close();
    }
  });
});
