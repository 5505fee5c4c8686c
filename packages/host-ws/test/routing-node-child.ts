// One routed host node in its own process, on a shared Redis store and bus: the routing test starts
// two. It prints `{"ready":…}` once listening and `{"escalated":…}` for each escalation it makes,
// and takes `askDetached` commands on stdin.
import { createInterface } from 'node:readline';
import { RedisQuestionBus } from '@askseam/bus-redis';
import { createWebSocketHost, type Principal } from '@askseam/host-ws';
import { RedisQuestionStore } from '@askseam/store-redis';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';

const question = { id: 'colour', question: 'Which colour?', options: [{ label: 'Red' }, { label: 'Blue' }] };
const people: Record<string, string[]> = { alice: ['oncall'], carol: ['leads'], bob: [] };

function say(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

async function main(): Promise<void> {
  const [url, keyPrefix, nodeId, afterMs] = process.argv.slice(2);
  if (url === undefined || keyPrefix === undefined || nodeId === undefined || afterMs === undefined) {
    throw new Error('usage: routing-node-child <redis url> <key prefix> <node id> <tier 1 after ms>');
  }
  const agents = new Map<string, AgentRef>([['agent-a', { id: 'agent-a' }]]);
  const userQuestions = new UserQuestions({ agents: { get: (id) => agents.get(id), roots: () => agents.values() } });
  const store = new RedisQuestionStore({ url, keyPrefix });
  const bus = new RedisQuestionBus({ url, keyPrefix, nodeId, livenessTtlMs: 1_500 });
  const host = await createWebSocketHost({
    userQuestions,
    store,
    bus,
    reconcileMs: 500,
    authenticate: (req): Principal | undefined => {
      const name = new URL(req.url ?? '/', 'http://x').searchParams.get('as') ?? '';
      const groups = people[name];
      return groups === undefined ? undefined : { id: name, canSee: () => true, groups };
    },
    route: () => [{ answerers: [{ principal: 'alice' }] }, { answerers: [{ group: 'leads' }], after: Number(afterMs) }],
    onEvent: (event) => {
      if (event.type === 'escalated') say({ escalated: { rpcId: event.rpcId, tier: event.tier } });
    },
  });
  say({ ready: { url: host.url, nodeId } });

  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as { cmd: 'askDetached'; id: string };
    host.askDetached({ sessionId: 'agent-a', questions: [question] }).then(
      ({ rpcId }) => say({ detached: { id: command.id, rpcId } }),
      (error: { code?: string; message?: string }) => say({ detached: { id: command.id, code: error.code, message: error.message } }),
    );
  }
  await host.close();
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
