// An in-process MCP server (createSdkMcpServer) with one tool a person must approve: the deferred
// MCP tool of the tests. Every call it really runs is recorded, so a test sees whether, how often
// and with what input the approved tool ran.
import { createSdkMcpServer, tool, type McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';

/** The CLI's name for the tool: `mcp__<server>__<tool>`. */
export const shipToolName = 'mcp__deploy__ship';

export function deployServer(calls: { version: string }[] = []): McpSdkServerConfigWithInstance {
  const ship = tool('ship', 'Ship a version to production.', { version: z.string() }, async ({ version }) => {
    calls.push({ version });
    return { content: [{ type: 'text', text: `shipped ${version}` }] };
  });
  return createSdkMcpServer({ name: 'deploy', version: '1.0.0', tools: [ship] });
}
