// One host node in its own process, on a shared Redis store and bus: what the multi-node tests
// start two or three of. It prints `{"ready":…}` once listening, then takes JSON commands on stdin
// (`ask`, `askDetached`, `pending`) and reports on stdout what became of them, what it holds and
// what reached onResume.
//
// Arguments: <where> <key prefix> <node id> <token> [reconcileMs] [holds]. <where> is a redis://
// URL, or `cluster:<host:port>,<host:port>,…` for a Redis Cluster. With holds `share` the node also
// takes `?as=<session>` connections: a person who sees that one session and says so, so the node
// serves only the sessions of the people connected to it (docs/scaling.md, "A node's share").
import type { IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { RedisQuestionBus } from '@askseam/bus-redis';
import { createWebSocketHost, type Principal } from '@askseam/host-ws';
import { RedisQuestionStore } from '@askseam/store-redis';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';

type Command =
  | { cmd: 'ask'; id: string; sessionId: string }
  | { cmd: 'askDetached'; id: string; sessionId: string; state?: unknown }
  | { cmd: 'pending'; id: string };

const question = { id: 'colour', question: 'Which colour?', options: [{ label: 'Red' }, { label: 'Blue' }] };

function say(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** `?as=<session>`: a person who sees that one session, and says so (`sessionsExhaustive`). */
function oneSessionPerson(req: IncomingMessage): Principal | undefined {
  const session = new URL(req.url ?? '/', 'http://host').searchParams.get('as');
  if (session === null) return undefined;
  return { id: `person-of-${session}`, canSee: (sessionId) => sessionId === session, sessions: [session], sessionsExhaustive: true };
}

async function main(): Promise<void> {
  const [where, keyPrefix, nodeId, token, reconcileMs, holds] = process.argv.slice(2);
  if (where === undefined || keyPrefix === undefined || nodeId === undefined || token === undefined) {
    throw new Error('usage: redis-node-child <redis url | cluster:host:port,…> <key prefix> <node id> <token> [reconcileMs] [everything|share]');
  }
  // Any session id is an agent of this node: the cluster tests spread many sessions over the nodes.
  const agents = new Map<string, AgentRef>(['agent-a', 'agent-b'].map((id) => [id, { id }]));
  const agentOf = (id: string): AgentRef => {
    if (!agents.has(id)) agents.set(id, { id });
    return agents.get(id)!;
  };
  const userQuestions = new UserQuestions({ agents: { get: (id) => agents.get(id), roots: () => agents.values() } });
  const at = where.startsWith('cluster:') ? { nodes: where.slice('cluster:'.length).split(',').map((node) => `redis://${node}`) } : { url: where };
  const store = new RedisQuestionStore({ ...at, keyPrefix });
  // A short liveness ttl: the test that kills a node waits for it to count as gone.
  const bus = new RedisQuestionBus({ ...at, keyPrefix, nodeId, livenessTtlMs: 1_500 });
  const host = await createWebSocketHost({
    userQuestions,
    token,
    store,
    bus,
    ...(reconcileMs === undefined ? {} : { reconcileMs: Number(reconcileMs) }),
    ...(holds === 'share' ? { holds: 'share' as const, authenticate: oneSessionPerson } : {}),
    onResume: (record) => say({ resumed: record }),
  });
  say({ ready: { url: host.url, nodeId } });

  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as Command;
    if (command.cmd === 'ask') {
      const agent = agentOf(command.sessionId);
      userQuestions.ask({ agent, questions: [question] }).then(
        (answer) => say({ settled: { id: command.id, ok: true, answer } }),
        (error: { code?: string; message?: string }) => say({ settled: { id: command.id, ok: false, code: error.code, message: error.message } }),
      );
    } else if (command.cmd === 'askDetached') {
      host.askDetached({ sessionId: command.sessionId, questions: [question], state: (command.state ?? null) as never }).then(
        ({ rpcId }) => say({ detached: { id: command.id, rpcId } }),
        (error: { code?: string; message?: string }) => say({ detached: { id: command.id, code: error.code, message: error.message } }),
      );
    } else {
      say({ pending: { id: command.id, rpcIds: host.pending().map((entry) => entry.rpcId) } });
    }
  }
  // stdin closed: leave cleanly.
  await host.close();
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
