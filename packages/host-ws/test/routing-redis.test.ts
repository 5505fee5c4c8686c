// Two host processes on one real redis-server, one routed question: both nodes' timers reach
// tier 1, exactly one of them escalates it (one `escalated` event, in the shared log too), and a
// person of tier 1 answers through the other node.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { bundleChild, removeBundles } from '@askseam/test-support';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ChildNode } from './child-node.js';
import { RawClient } from './raw-client.js';

type Line = { ready: { url: string } } | { detached: { id: string; rpcId?: string; code?: string } } | { escalated: { rpcId: string; tier: number } };

class Node extends ChildNode<Line> {
  url = '';

  constructor(child: ChildProcess, nodeId: string) {
    super(nodeId, child, 15_000);
  }
}

let redis: TestRedisServer;
let script: string;
const nodes: Node[] = [];
const clients: RawClient[] = [];

beforeAll(async () => {
  [redis, script] = await Promise.all([startRedisServer(), bundleChild(new URL('./routing-node-child.ts', import.meta.url))]);
});

afterAll(async () => {
  await redis?.stop();
  removeBundles();
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const node of nodes.splice(0)) await node.stop();
});

async function startNode(prefix: string, nodeId: string, afterMs: number): Promise<Node> {
  const node = new Node(spawn(process.execPath, [script, redis.url, prefix, nodeId, String(afterMs)], { stdio: ['pipe', 'pipe', 'pipe'] }), nodeId);
  nodes.push(node);
  node.url = (await node.wait((line) => ('ready' in line ? line.ready : undefined), 'ready line', 20_000)).url;
  return node;
}

async function connectAs(node: Node, name: string): Promise<RawClient> {
  const client = await RawClient.connect(`${node.url}?as=${name}`);
  clients.push(client);
  await client.next('hello');
  return client;
}

it('escalates a tier exactly once across two nodes, and a tier-1 person answers on the other node', async () => {
  const prefix = `r${randomUUID().slice(0, 8)}:`;
  const [a, b] = await Promise.all([startNode(prefix, 'node-a', 1_000), startNode(prefix, 'node-b', 1_000)]);
  const carol = await connectAs(b, 'carol');
  a.child.stdin!.write(`${JSON.stringify({ cmd: 'askDetached', id: 'q1' })}\n`);
  const { rpcId } = await a.wait((line) => ('detached' in line && line.detached.id === 'q1' ? line.detached : undefined), 'the detached ask');
  expect(rpcId).toBeDefined();

  // Tier 1 reached on node b (whichever node escalated it): carol is shown it and may answer.
  const requested = await carol.next('question/requested', () => true, 15_000);
  expect(requested.rpcId).toBe(rpcId);
  // Both nodes' timers are due at the same stored time; give the slower one time to try too.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await carol.answer(rpcId!, 'agent-a', { answers: [{ id: 'colour', selected: ['Red'] }] })).toMatchObject({ accepted: true });

  // Both nodes' timers fired; one escalation in all, and one in the shared log.
  const store = new RedisQuestionStore({ url: redis.url, keyPrefix: prefix });
  try {
    const events = await store.readEvents('agent-a');
    expect(events.filter((event) => event.type === 'escalated').map((event) => event.data.tier)).toEqual([1]);
  } finally {
    await store.close();
  }
  const escalations = [...a.lines, ...b.lines].filter((line) => 'escalated' in line);
  expect(escalations).toEqual([{ escalated: { rpcId, tier: 1 } }]);
});
