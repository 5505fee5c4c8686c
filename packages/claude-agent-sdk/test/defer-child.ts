// The process that is SIGKILLed: a host on a SQLite file and a real query() whose PreToolUse hook
// defers the tool call. It saves the deferred call as a detached askseam question, prints one JSON
// line, and waits to be killed: nobody answers while it lives. With `deploy` as its fourth argument
// it also runs the in-process MCP server of deploy-server.ts, whose tool it defers too.
import { query, type Options, type SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { askDeferredToolUse, askseamCanUseTool, deferToolUse } from '@askseam/claude-agent-sdk';
import { createWebSocketHost } from '@askseam/host-ws';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { deployServer, shipToolName } from './deploy-server.js';

async function main(): Promise<void> {
  const [file, token, optionsJson, servers] = process.argv.slice(2);
  if (file === undefined || token === undefined || optionsJson === undefined) throw new Error('usage: defer-child <sqlite file> <token> <query options JSON> [deploy]');
  const base = JSON.parse(optionsJson) as Options;
  const agent: AgentRef = { id: 'agent-claude' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const host = await createWebSocketHost({ userQuestions, token, store: new SqliteQuestionStore(file) });
  let result: SDKResultMessage | undefined;
  // canUseTool too: the CLI offers AskUserQuestion only to a run with a permission host, and a
  // turn of several tool calls ignores `defer` and asks canUseTool instead.
  const mcp: Options = servers === 'deploy' ? { mcpServers: { deploy: deployServer() } } : {};
  const options: Options = { ...base, ...mcp, hooks: { PreToolUse: [{ matcher: `AskUserQuestion|Bash|${shipToolName}`, hooks: [deferToolUse] }] }, canUseTool: askseamCanUseTool(userQuestions, { agent }) };
  for await (const message of query({ prompt: 'Set things up.', options })) if (message.type === 'result') result = message;
  if (result === undefined) throw new Error('the query ended without a result');
  const { rpcId } = await askDeferredToolUse(host, result, { agent, state: { ticket: 'T-42' } });
  process.stdout.write(`${JSON.stringify({ rpcId, terminalReason: result.terminal_reason, deferred: 'deferred_tool_use' in result ? result.deferred_tool_use : undefined, sessionId: result.session_id })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
