// The three ways docs/mcp.md wires askseam into MCP, compiled and run by mcp-app.test.ts. Each
// takes the transport it talks over, so the tests can link a real SDK peer in memory; in an app
// that is `new StdioServerTransport()`, a Streamable HTTP transport, or the client's transport.
import { createAskseamMcpServer, createElicitationProvider, handleElicitation, registerAskseamTools } from '@askseam/mcp';
import type { AgentRef, UserQuestions } from '@askseam/user-questions';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** 1. askseam as an MCP server: the client's model calls ask_user_question, a person answers on askseam's page. */
export async function serveAskseamTools(userQuestions: UserQuestions, agent: AgentRef, transport: Transport): Promise<McpServer> {
  // #region own-server
  const server = createAskseamMcpServer({ userQuestions, agent });
  await server.connect(transport);
  // #endregion own-server
  return server;
}

/** 2. A server of your own whose askseam questions are asked in the MCP client's own form. */
export async function serveWithClientForms(userQuestions: UserQuestions, transport: Transport): Promise<McpServer> {
  // #region elicitation-provider
  const server = new McpServer({ name: 'my-server', version: '1.0.0' });
  userQuestions.registerProvider(createElicitationProvider(server));
  // #endregion elicitation-provider
  // The model's ask_user_question on this server is then answered in the client's form too.
  registerAskseamTools(server, { userQuestions, tools: ['ask_user_question'] });
  await server.connect(transport);
  return server;
}

/** 3. An agent's MCP client: any server's elicitation/create is shown to a person through askseam. */
export async function connectAgentClient(userQuestions: UserQuestions, agent: AgentRef, transport: Transport): Promise<Client> {
  // #region elicitation-handler
  const client = new Client({ name: 'my-agent', version: '1.0.0' });
  handleElicitation(client, { userQuestions, agent }); // before connect()
  await client.connect(transport);
  // #endregion elicitation-handler
  return client;
}
