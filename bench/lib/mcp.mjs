// The peer: the official MCP TypeScript SDK doing the same job. A server tool asks the user
// through `elicitInput`; the client's elicitation handler answers at once. Streamable HTTP
// transport on 127.0.0.1, stateful (one session), SSE responses (the SDK default).
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mcpContent, mcpElicitParams } from './fixtures.mjs';
import { now } from './stats.mjs';

export async function startMcp() {
  const params = mcpElicitParams();
  const mcp = new McpServer({ name: 'askseam-bench-peer', version: '1.0.0' });
  mcp.registerTool('ask_user_question', { description: 'Ask the user three questions.' }, async (extra) => {
    // relatedRequestId puts the elicitation on this tool call's own SSE stream.
    const result = await mcp.server.elicitInput(params, { relatedRequestId: extra.requestId });
    if (result.action !== 'accept') return { isError: true, content: [{ type: 'text', text: `Error: ${result.action}` }] };
    return { content: [{ type: 'text', text: JSON.stringify(result.content) }] };
  });

  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const server = createServer((req, res) => {
    transport.handleRequest(req, res).catch((error) => {
      console.error('MCP request failed', error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = new URL(`http://127.0.0.1:${server.address().port}/mcp`);

  const client = new Client({ name: 'askseam-bench-user', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const content = mcpContent();
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content }));
  const clientTransport = new StreamableHTTPClientTransport(url);
  await client.connect(clientTransport);

  async function roundTrip() {
    const result = await client.callTool({ name: 'ask_user_question', arguments: {} });
    if (result.isError) throw new Error(`MCP tool failed: ${JSON.stringify(result.content)}`);
    return result.content[0].text;
  }

  /** Server-initiated elicitation alone (no tool call around it), over the session's GET stream. */
  async function elicitOnly() {
    const result = await mcp.server.elicitInput(params);
    if (result.action !== 'accept') throw new Error(`MCP elicitation was ${result.action}`);
    return result.content;
  }

  async function latencies(fn, count) {
    const samples = [];
    for (let i = 0; i < count; i++) {
      const start = now();
      await fn();
      samples.push(now() - start);
    }
    return samples;
  }

  return {
    roundTrip,
    elicitOnly,
    latencies: (count) => latencies(roundTrip, count),
    elicitLatencies: (count) => latencies(elicitOnly, count),
    async close() {
      await clientTransport.terminateSession().catch(() => {});
      await client.close();
      await mcp.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
