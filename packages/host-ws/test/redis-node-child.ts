// One host node in its own process, on a shared Redis store and bus: what the multi-node tests
// start two or three of. It prints `{"ready":…}` once listening, then takes JSON commands on stdin
// (`ask`, `askDetached`) and reports on stdout what became of them and what reached onResume.
import { createInterface } from 'node:readline';
import { RedisQuestionBus } from '@askseam/bus-redis';
import { createWebSocketHost } from '@askseam/host-ws';
import { RedisQuestionStore } from '@askseam/store-redis';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';

type Command = { cmd: 'ask'; id: string; sessionId: string } | { cmd: 'askDetached'; id: string; sessionId: string; state?: unknown };

const question = { id: 'colour', question: 'Which colour?', options: [{ label: 'Red' }, { label: 'Blue' }] };

function say(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

async function main(): Promise<void> {
  const [url, keyPrefix, nodeId, token, reconcileMs] = process.argv.slice(2);
  if (url === undefined || keyPrefix === undefined || nodeId === undefined || token === undefined) {
    throw new Error('usage: redis-node-child <redis url> <key prefix> <node id> <token> [reconcileMs]');
  }
  const agents = new Map<string, AgentRef>(['agent-a', 'agent-b'].map((id) => [id, { id }]));
  const userQuestions = new UserQuestions({ agents: { get: (id) => agents.get(id), roots: () => agents.values() } });
  const store = new RedisQuestionStore({ url, keyPrefix });
  // A short liveness ttl: the test that kills a node waits for it to count as gone.
  const bus = new RedisQuestionBus({ url, keyPrefix, nodeId, livenessTtlMs: 1_500 });
  const host = await createWebSocketHost({
    userQuestions,
    token,
    store,
    bus,
    ...(reconcileMs === undefined ? {} : { reconcileMs: Number(reconcileMs) }),
    onResume: (record) => say({ resumed: record }),
  });
  say({ ready: { url: host.url, nodeId } });

  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as Command;
    if (command.cmd === 'ask') {
      const agent = agents.get(command.sessionId)!;
      userQuestions.ask({ agent, questions: [question] }).then(
        (answer) => say({ settled: { id: command.id, ok: true, answer } }),
        (error: { code?: string; message?: string }) => say({ settled: { id: command.id, ok: false, code: error.code, message: error.message } }),
      );
    } else {
      host.askDetached({ sessionId: command.sessionId, questions: [question], state: (command.state ?? null) as never }).then(
        ({ rpcId }) => say({ detached: { id: command.id, rpcId } }),
        (error: { code?: string; message?: string }) => say({ detached: { id: command.id, code: error.code, message: error.message } }),
      );
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
