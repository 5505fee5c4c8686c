// The process the kill test SIGKILLs: a host on a SQLite file with one blocking and one detached
// question pending. It prints one JSON line once both are saved, then waits to be killed.
import { createWebSocketHost } from '@askseam/host-ws';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';

async function main(): Promise<void> {
  const [file, token] = process.argv.slice(2);
  if (file === undefined || token === undefined) throw new Error('usage: kill-child <sqlite file> <token>');
  const agent: AgentRef = { id: 'agent-a' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const store = new SqliteQuestionStore(file);
  const host = await createWebSocketHost({ userQuestions, token, store });
  const question = { id: 'colour', question: 'Which colour?', options: [{ label: 'Red' }, { label: 'Blue' }] };
  // This agent waits in this process, which is about to die: its answer must reach the next host's onResume.
  void userQuestions.ask({ agent, questions: [question] }).catch(() => {});
  const { rpcId: detached } = await host.askDetached({ sessionId: 'agent-b', questions: [question], state: { resumeAt: 'step-7' } });
  while ((await store.listPending('all')).length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  const blocking = host.pending().find((entry) => entry.sessionId === 'agent-a')?.rpcId;
  process.stdout.write(`${JSON.stringify({ url: host.url, blocking, detached })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
