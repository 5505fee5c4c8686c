// docs/mcp.md's wiring run for real: the SDK's own Client and McpServer over its in-memory
// transport, and a person answering through a real WebSocket host and @askseam/client.
import { UserQuestions } from '@askseam/user-questions';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { personAtHost } from '@askseam/test-support';
import { connectAgentClient, serveAskseamTools, serveWithClientForms } from './mcp-app.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

const dbQuestion = { id: 'db', question: 'Which database?', options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }] };

describe('docs/mcp.md: the MCP wiring', () => {
  it('serves askseam’s tools: a model’s ask_user_question is answered by the person at the page', async () => {
    const person = await personAtHost();
    cleanups.push(() => person.close());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = await serveAskseamTools(person.userQuestions, person.agent, serverSide);
    cleanups.push(() => server.close());
    const modelClient = new Client({ name: 'model-client', version: '1.0.0' });
    await modelClient.connect(clientSide);

    expect((await modelClient.listTools()).tools.map((tool) => tool.name)).toEqual(['ask_user_question', 'exit_plan_mode', 'approve_tool_call']);
    const asked = person.nextQuestion();
    const call = modelClient.callTool({ name: 'ask_user_question', arguments: { questions: [dbQuestion] } });
    await (await asked).answer({ answers: [{ id: 'db', selected: ['SQLite'] }] });

    const result = await call;
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: '{"answers":[{"id":"db","selected":["SQLite"]}]}' }]);
  });

  it('asks through the client’s form: userQuestions.ask and the model’s ask_user_question both get the form’s answer', async () => {
    const userQuestions = new UserQuestions();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = await serveWithClientForms(userQuestions, serverSide);
    cleanups.push(() => server.close());
    // The person at the MCP client's form: the client's own elicitation handler.
    const forms: ElicitRequest[] = [];
    const formClient = new Client({ name: 'form-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    formClient.setRequestHandler(ElicitRequestSchema, (request) => {
      forms.push(request);
      return { action: 'accept', content: { db: 'SQLite' } };
    });
    await formClient.connect(clientSide);

    expect(await userQuestions.ask({ questions: [dbQuestion] })).toEqual({ answers: [{ id: 'db', selected: ['SQLite'] }] });
    const result = await formClient.callTool({ name: 'ask_user_question', arguments: { questions: [dbQuestion] } });
    expect(result.content).toEqual([{ type: 'text', text: '{"answers":[{"id":"db","selected":["SQLite"]}]}' }]);
    expect(forms.map((form) => form.params.message)).toEqual(['Which database?', 'Which database?']);
  });

  it('answers a server’s elicitation through askseam: the person’s answer goes back as accepted content', async () => {
    const person = await personAtHost();
    cleanups.push(() => person.close());
    const server = new McpServer({ name: 'deploy-server', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = await connectAgentClient(person.userQuestions, person.agent, clientSide);
    cleanups.push(() => client.close());

    const asked = person.nextQuestion();
    const result = server.server.elicitInput({
      mode: 'form',
      message: 'Deploy settings',
      requestedSchema: { type: 'object', properties: { env: { type: 'string', title: 'Environment', oneOf: [{ const: 'prod', title: 'Production' }, { const: 'staging', title: 'Staging' }] } }, required: ['env'] },
    });
    const pending = await asked;
    expect(pending.questions[0]).toMatchObject({ question: 'Environment', options: [{ label: 'Production' }, { label: 'Staging' }] });
    await pending.answer({ answers: [{ id: 'env', selected: ['Staging'] }] });

    await expect(result).resolves.toEqual({ action: 'accept', content: { env: 'staging' } });
  });
});
