// One host node in its own process, on a shared PostgreSQL store and bus: what the PostgreSQL
// multi-node tests start three of. It prints `{"ready":…}` once listening, then takes JSON commands on stdin
// (`ask`, `askDetached`) and reports on stdout what became of them and what reached onResume.
import { createInterface } from 'node:readline';
import { createWebSocketHost } from '@askseam/host-ws';
import { PostgresQuestionBus, PostgresQuestionStore } from '@askseam/store-postgres';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';

type Command = { cmd: 'ask'; id: string; sessionId: string } | { cmd: 'askDetached'; id: string; sessionId: string; state?: unknown };

const question = { id: 'colour', question: 'Which colour?', options: [{ label: 'Red' }, { label: 'Blue' }] };

function say(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** Warnings and errors to stderr, with a time: a test that times out prints them with its failure. */
const stderrLogger = {
  debug: () => {},
  info: () => {},
  warn: (message: string, fields?: Record<string, unknown>) => process.stderr.write(`${new Date().toISOString()} warn ${message} ${JSON.stringify(fields ?? {})}\n`),
  error: (message: string, fields?: Record<string, unknown>) => process.stderr.write(`${new Date().toISOString()} error ${message} ${JSON.stringify(fields ?? {})}\n`),
};

async function main(): Promise<void> {
  const [url, schema, nodeId, token, reconcileMs] = process.argv.slice(2);
  if (url === undefined || schema === undefined || nodeId === undefined || token === undefined) {
    throw new Error('usage: postgres-node-child <postgres url> <schema> <node id> <token> [reconcileMs]');
  }
  const agents = new Map<string, AgentRef>(['agent-a', 'agent-b'].map((id) => [id, { id }]));
  const userQuestions = new UserQuestions({ agents: { get: (id) => agents.get(id), roots: () => agents.values() } });
  const store = new PostgresQuestionStore({ connectionString: url, schema });
  // A short liveness ttl: the tests that kill a node wait for it to count as gone.
  const bus = new PostgresQuestionBus({ connectionString: url, schema, nodeId, livenessTtlMs: 1_500, logger: stderrLogger });
  const host = await createWebSocketHost({
    userQuestions,
    token,
    store,
    bus,
    ...(reconcileMs === undefined ? {} : { reconcileMs: Number(reconcileMs) }),
    logger: stderrLogger,
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
  await bus.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
