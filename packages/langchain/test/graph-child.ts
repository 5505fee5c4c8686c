// The process the restart test SIGKILLs: the durable-graph example on two SQLite files, one
// deployment started and paused at its question. It prints one JSON line once the question is
// saved, then waits to be killed.
import { UserQuestions } from '@askseam/user-questions';
import { startDurableGraph } from '../examples/durable-graph.js';

async function main(): Promise<void> {
  const [checkpointFile, questionFile, token] = process.argv.slice(2);
  if (checkpointFile === undefined || questionFile === undefined || token === undefined) throw new Error('usage: graph-child <checkpoints> <questions> <token>');
  const userQuestions = new UserQuestions({ agents: { get: () => undefined, roots: () => [] } });
  let nodeStarts = 0;
  const app = await startDurableGraph({ userQuestions, token, checkpointFile, questionFile, onNodeStart: () => nodeStarts++ });
  await app.deploy('api', 'thread-1');
  const [question] = await app.host.store.listPending('all');
  process.stdout.write(`${JSON.stringify({ rpcId: question?.rpcId, nodeStarts })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
