// createElicitationProvider between the SDK's own McpServer and Client: the client's elicitation
// handler stands for the person at the MCP client's form.
import { UserQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createElicitationProvider } from './elicitation-provider.js';
import { registerAskseamTools } from './server.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

type FormHandler = (request: ElicitRequest, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;

async function paired(person: FormHandler | undefined): Promise<{ userQuestions: UserQuestions; client: Client; server: McpServer; forms: ElicitRequest[] }> {
  const server = new McpServer({ name: 'app', version: '1.0.0' });
  const userQuestions = new UserQuestions();
  userQuestions.registerProvider(createElicitationProvider(server));
  registerAskseamTools(server, { userQuestions, tools: ['ask_user_question'] });
  const client = new Client({ name: 'person-client', version: '1.0.0' }, person === undefined ? {} : { capabilities: { elicitation: { form: {} } } });
  const forms: ElicitRequest[] = [];
  if (person !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      forms.push(request);
      return person(request, extra.signal);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return { userQuestions, client, server, forms };
}

const db: AskUserQuestionItem = { id: 'db', question: 'Which database?', options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }] };

describe('createElicitationProvider', () => {
  it('asks through the client’s form and returns the checked answer, with the person’s own words', async () => {
    const { userQuestions, forms } = await paired(() => ({ action: 'accept', content: { db_other: 'CockroachDB' } }));
    const answer = await userQuestions.ask({ questions: [db] });
    expect(answer).toEqual({ answers: [{ id: 'db', selected: [], custom: 'CockroachDB' }] });
    expect(forms[0]!.params).toMatchObject({ mode: 'form', message: 'Which database?', requestedSchema: { type: 'object' } });
  });

  it('answers a model’s ask_user_question call through the client’s own elicitation', async () => {
    const { client } = await paired(() => ({ action: 'accept', content: { db: 'SQLite' } }));
    const result = await client.callTool({ name: 'ask_user_question', arguments: { questions: [db] } });
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: '{"answers":[{"id":"db","selected":["SQLite"]}]}' }]);
  });

  it('rejects ASK_CANCELLED and keeps decline apart from cancel', async () => {
    const declined = await paired(() => ({ action: 'decline' }));
    await expect(declined.userQuestions.ask({ questions: [db] })).rejects.toMatchObject({ code: 'ASK_CANCELLED', message: expect.stringContaining('"decline"'), cause: { action: 'decline' } });
    const cancelled = await paired(() => ({ action: 'cancel' }));
    await expect(cancelled.userQuestions.ask({ questions: [db] })).rejects.toMatchObject({ code: 'ASK_CANCELLED', message: expect.stringContaining('"cancel"'), cause: { action: 'cancel' } });
  });

  it('turns content outside the requested schema (the SDK’s -32602) into ELICITATION_CONTENT_INVALID, never an answer', async () => {
    const { userQuestions } = await paired(() => ({ action: 'accept', content: { db: 'MongoDB' } }));
    await expect(userQuestions.ask({ questions: [db] })).rejects.toMatchObject({ name: 'McpBridgeError', code: 'ELICITATION_CONTENT_INVALID' });
  });

  it('asks again, saying what was wrong, when the accepted form does not make a fitting answer', async () => {
    let round = 0;
    const { userQuestions, forms } = await paired(() => {
      round++;
      return round === 1 ? { action: 'accept', content: { db: 'SQLite', db_other: 'MySQL' } } : { action: 'accept', content: { db: 'SQLite', db_other: '' } };
    });
    await expect(userQuestions.ask({ questions: [db] })).resolves.toEqual({ answers: [{ id: 'db', selected: ['SQLite'] }] });
    expect(forms).toHaveLength(2);
    const second = forms[1]!.params as { message: string; requestedSchema: { properties: Record<string, { default?: unknown }> } };
    expect(second.message).toMatch(/^Your answer could not be used: .*single-select/);
    expect(second.requestedSchema.properties.db!.default).toBe('SQLite');
  });

  it('gives up with ELICITATION_CONTENT_INVALID after maxAttempts misfits', async () => {
    const { userQuestions, forms } = await paired(() => ({ action: 'accept', content: {} }));
    const required: AskUserQuestionItem = { ...db, required: true };
    await expect(userQuestions.ask({ questions: [required] })).rejects.toMatchObject({ code: 'ELICITATION_CONTENT_INVALID', message: expect.stringContaining('required') });
    expect(forms).toHaveLength(3);
  });

  it('refuses with NO_ELICITATION before sending anything when the client lacks the capability', async () => {
    const { userQuestions } = await paired(undefined);
    await expect(userQuestions.ask({ questions: [db] })).rejects.toMatchObject({ name: 'McpBridgeError', code: 'NO_ELICITATION', message: expect.stringContaining('person-client') });
  });

  it('cancels the form on the client when the seam’s timeout fires, even for the server’s first request', async () => {
    let formCancelled!: (reason: unknown) => void;
    const cancelledOnClient = new Promise((resolve) => (formCancelled = resolve));
    const { userQuestions } = await paired(
      (_request, signal) =>
        new Promise<ElicitResult>((resolve) => {
          signal.addEventListener('abort', () => {
            formCancelled(signal.reason);
            resolve({ action: 'cancel' });
          });
        }),
    );
    await expect(userQuestions.ask({ questions: [db], timeoutMs: 30 })).rejects.toMatchObject({ code: 'ASK_TIMEOUT' });
    await expect(cancelledOnClient).resolves.toBeDefined();
  });

  it.each<[string, AskUserQuestionItem]>([
    ['worded as a secret', { id: 'token', question: 'Paste your GitHub personal access token' }],
    ['worded as a secret in Chinese', { id: 'mima', question: '请输入数据库密码', input: { kind: 'text' } }],
    ['marked sensitive', { id: 'code', question: 'The code on the back of the letter', input: { kind: 'text' }, sensitive: true }],
  ])('refuses a question %s with SENSITIVE_QUESTION and sends no form', async (_, question) => {
    const { userQuestions, forms } = await paired(() => ({ action: 'accept', content: {} }));
    await expect(userQuestions.ask({ questions: [db, question] })).rejects.toMatchObject({
      name: 'McpBridgeError',
      code: 'SENSITIVE_QUESTION',
      message: expect.stringContaining(`"${question.id}"`),
    });
    expect(forms).toEqual([]);
  });

  it('tells the model that asked for a secret why nothing was asked and how to go on without it', async () => {
    const { client, forms } = await paired(() => ({ action: 'accept', content: {} }));
    const result = await client.callTool({ name: 'ask_user_question', arguments: { questions: [{ id: 'key', question: 'Please paste your OpenAI API key' }] } });
    expect(result.isError).toBe(true);
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(text).toContain('forbids asking for secrets');
    expect(text).toContain('environment variable');
    expect(forms).toEqual([]);
  });

  it('still asks a choice that merely mentions a secret, since its values are the options', async () => {
    const { userQuestions, forms } = await paired(() => ({ action: 'accept', content: { rotate: 'Yes' } }));
    const rotate: AskUserQuestionItem = { id: 'rotate', question: 'Rotate the API key now?', options: [{ label: 'Yes' }, { label: 'No' }] };
    await expect(userQuestions.ask({ questions: [rotate] })).resolves.toEqual({ answers: [{ id: 'rotate', selected: ['Yes'] }] });
    expect(forms).toHaveLength(1);
  });

  it('refuses a maxAttempts it cannot use', () => {
    const server = new McpServer({ name: 'app', version: '1.0.0' });
    expect(() => createElicitationProvider(server, { maxAttempts: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
