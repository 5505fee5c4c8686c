// The docs/scaling.md example, run as written: two nodes on one real Redis, the question asked on
// one and answered by a client of the other. The page shows its regions (checked by pnpm lint).
import { randomBytes, randomUUID } from 'node:crypto';
import type { QuestionRecord } from '@askseam/store';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { RawClient } from '../test/raw-client.js';
import { startNode, type RunningNode } from './multi-node-app.js';

let redis: TestRedisServer;
const running: RunningNode[] = [];
const clients: RawClient[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const node of running.splice(0)) await node.stop();
});

it('answers on node B a question an agent asked on node A', async () => {
  const keyPrefix = `docs-${randomUUID().slice(0, 8)}:`;
  const agent: AgentRef = { id: 'support-bot' };
  const seam = () => new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const resumed: QuestionRecord[] = [];
  const sealKey = randomBytes(32).toString('base64');
  const base = { redisUrl: redis.url, keyPrefix, sealKey, token: 'docs-token', onResume: (record: QuestionRecord) => void resumed.push(record) };
  const onA = seam();
  const a = await startNode({ ...base, userQuestions: onA });
  running.push(a);
  const b = await startNode({ ...base, userQuestions: seam() });
  running.push(b);

  const client = await RawClient.connect(`${b.host.url}?token=docs-token`);
  clients.push(client);
  const asking = onA.ask({ agent, questions: [{ id: 'env', question: 'Which environment?', options: [{ label: 'staging' }, { label: 'production' }] }] });
  const { rpcId } = await client.next('question/requested', () => true, 10_000);
  expect((await client.answer(rpcId, 'support-bot', { answers: [{ id: 'env', selected: ['staging'] }] })).accepted).toBe(true);
  await expect(asking).resolves.toEqual({ answers: [{ id: 'env', selected: ['staging'] }] });
  expect(resumed).toEqual([]);
});
