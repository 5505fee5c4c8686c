import type { McpServerStatus, Query } from '@anthropic-ai/claude-agent-sdk';
import { ClaudeAgentSdkError } from './errors.js';

// Why a resumed deferred call can find its tool missing. The resumed CLI tries the deferred call
// as soon as it starts, while MCP servers (in-process `createSdkMcpServer` ones included) are
// still connecting: the call then ends with `terminal_reason: 'tool_deferred_unavailable'` (in a
// result whose subtype is "success"), having run nothing. The server usually connects a moment
// later, so resume.ts waits for it here and asks the CLI to try the call again.

/** How long to wait for the deferred tool's MCP server to leave `pending`: the CLI's own wait for an MCP call. */
const connectWaitMs = 30_000;
const pollEveryMs = 100;

/** The CLI's tool name for a server's tool: `mcp__<server>__<tool>`, the server name with other characters as `_`. */
function mcpToolName(serverName: string, toolName: string): string {
  return `mcp__${serverName.replace(/[^a-zA-Z0-9_-]/g, '_')}__${toolName}`;
}

/** The server `toolName` belongs to: the one listing it, else (still connecting, no list yet) the longest name prefix. */
function serverOf(toolName: string, servers: McpServerStatus[]): McpServerStatus | undefined {
  const listing = servers.find((server) => server.tools?.some((tool) => mcpToolName(server.name, tool.name) === toolName));
  if (listing !== undefined) return listing;
  const byPrefix = servers.filter((server) => toolName.startsWith(mcpToolName(server.name, '')));
  return byPrefix.sort((a, b) => b.name.length - a.name.length)[0];
}

/** The error for a deferred call the resumed CLI could not run: nothing ran, and the decision is still unused. */
export function unavailableError(toolName: string, rpcId: string, why: string): ClaudeAgentSdkError {
  return new ClaudeAgentSdkError(
    'DEFERRED_TOOL_UNAVAILABLE',
    `The resumed Claude session could not run the deferred ${toolName} call (askseam question ${rpcId}): ${why}. Nothing ran and the person's decision was not used: pass the tools and mcpServers the first query ran with, and resume again (thrown from onResume, the question stays unresumed and the next host started on the store hands it over again).`,
  );
}

/**
 * Resolves once the MCP server serving `toolName` is connected and lists the tool, so a retry of
 * the deferred call can run; rejects with `DEFERRED_TOOL_UNAVAILABLE` when it will not be (not a
 * configured server's tool, a server that failed or needs auth, or still pending after the wait).
 */
export async function waitForDeferredTool(run: Query, toolName: string, rpcId: string): Promise<void> {
  const deadline = Date.now() + connectWaitMs;
  for (;;) {
    const server = serverOf(toolName, await run.mcpServerStatus());
    if (server === undefined) throw unavailableError(toolName, rpcId, toolName.startsWith('mcp__') ? 'no MCP server of this run serves it' : 'this run does not offer the tool');
    if (server.status === 'connected') {
      if (server.tools?.some((tool) => mcpToolName(server.name, tool.name) === toolName) === false) throw unavailableError(toolName, rpcId, `its MCP server "${server.name}" is connected but no longer lists the tool`);
      return;
    }
    if (server.status !== 'pending') throw unavailableError(toolName, rpcId, `its MCP server "${server.name}" is ${server.status}${server.error === undefined ? '' : ` (${server.error})`}`);
    if (Date.now() >= deadline) throw unavailableError(toolName, rpcId, `its MCP server "${server.name}" was still connecting after ${connectWaitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, pollEveryMs));
  }
}
