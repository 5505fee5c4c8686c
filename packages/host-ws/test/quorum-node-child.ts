// One host node in its own process, on a shared store (Redis with its bus, or a SQLite file), for
// the quorum tests: people connect as `?user=<id>`; it prints `{"ready":…}` once listening, then
// takes `{ cmd: 'approve', id, approvals }` on stdin (an askApproval with that quorum) and reports
// each decision, with who made it, on stdout.
import { createInterface } from 'node:readline';
import { RedisQuestionBus } from '@askseam/bus-redis';
import { createWebSocketHost } from '@askseam/host-ws';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { RedisQuestionStore } from '@askseam/store-redis';
import { askApproval, UserQuestions, type AgentRef } from '@askseam/user-questions';

function say(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

async function main(): Promise<void> {
  const [kind, where, keyPrefix, nodeId] = process.argv.slice(2);
  if ((kind !== 'redis' && kind !== 'sqlite') || where === undefined || keyPrefix === undefined || nodeId === undefined) {
    throw new Error('usage: quorum-node-child redis|sqlite <redis url | sqlite file> <key prefix> <node id>');
  }
  const agent: AgentRef = { id: 'agent-a' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const store = kind === 'redis' ? new RedisQuestionStore({ url: where, keyPrefix }) : new SqliteQuestionStore(where);
  const bus = kind === 'redis' ? new RedisQuestionBus({ url: where, keyPrefix, nodeId }) : undefined;
  const host = await createWebSocketHost({
    userQuestions,
    store,
    ...(bus === undefined ? {} : { bus }),
    authenticate: (req) => {
      const user = new URL(req.url ?? '/', 'http://node').searchParams.get('user');
      return user === null ? undefined : { id: user, canSee: () => true };
    },
    onResume: (record) => say({ resumed: { rpcId: record.rpcId, votes: record.votes?.map((vote) => vote.principalId) ?? [] } }),
  });
  say({ ready: { url: host.url, nodeId } });

  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as { cmd: 'approve'; id: string; approvals: number };
    askApproval(userQuestions, { agent, tool: { name: 'migrate_db', input: { database: 'prod' } }, quorum: { approvals: command.approvals } }).then(
      (decision) => say({ decided: { id: command.id, ...decision } }),
      (error: { code?: string; message?: string }) => say({ decided: { id: command.id, code: error.code, message: error.message } }),
    );
  }
  await host.close();
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
