// The process the kill test SIGKILLs: it runs the agent until the run stops for an approval, saves
// that approval with the paused run on a SQLite file, prints one JSON line, then waits to be killed.
import { createWebSocketHost } from '@askseam/host-ws';
import { askRunApprovalDetached } from '@askseam/openai-agents';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions } from '@askseam/user-questions';
import { Runner } from '@openai/agents';
import { functionCall, ScriptedModel } from '@openai/agents/testing';
import { deployAgent } from './deploy-agent.js';

async function main(): Promise<void> {
  const [file, token, ledger] = process.argv.slice(2);
  if (file === undefined || token === undefined || ledger === undefined) throw new Error('usage: agents-child <sqlite file> <token> <ledger file>');
  const host = await createWebSocketHost({ userQuestions: new UserQuestions(), token, store: new SqliteQuestionStore(file) });
  const model = new ScriptedModel([[functionCall('deploy', { version: '1.4.0' }, { callId: 'call-deploy' })]]);
  const result = await new Runner({ tracingDisabled: true }).run(deployAgent(model, ledger), 'Ship 1.4.0.');
  const { rpcId } = await askRunApprovalDetached(host, result, { sessionId: 'agent-coder' });
  process.stdout.write(`${JSON.stringify({ rpcId, interruptions: result.interruptions.length })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
