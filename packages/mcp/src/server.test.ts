// The SDK's own Client against createAskseamMcpServer over the SDK's in-memory transport; a person
// answers through a real WebSocket host and client.
import { readFileSync } from 'node:fs';
import { askUserQuestionTool } from '@askseam/tool-ask-user';
import { exitPlanModeTool } from '@askseam/plan-mode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { personAtHost, type Person } from '@askseam/test-support';
import { approveToolCallTool } from './approval-tool.js';
import { McpBridgeError } from './errors.js';
import { createAskseamMcpServer, type AskseamMcpServerOptions } from './server.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

async function connected(options: Partial<AskseamMcpServerOptions> = {}): Promise<{ person: Person; client: Client }> {
  const person = await personAtHost();
  cleanups.push(() => person.close());
  const server = createAskseamMcpServer({ userQuestions: person.userQuestions, agent: person.agent, ...options });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return { person, client };
}

function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  expect(content).toHaveLength(1);
  const block = content[0]!;
  if (block.type !== 'text') throw new Error(`Expected text content, got ${block.type}`);
  return block.text;
}

const dbQuestion = {
  id: 'db',
  question: 'Which database should the service use?',
  options: [{ label: 'Postgres (Recommended)', description: 'Already run by ops.' }, { label: 'SQLite' }],
};

describe('createAskseamMcpServer', () => {
  it('lists the three tools with askseam’s own descriptions and JSON Schemas', async () => {
    const { client } = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ask_user_question', 'exit_plan_mode', 'approve_tool_call']);
    const [ask, plan, approve] = tools;
    expect(ask!.description).toBe(askUserQuestionTool.description);
    expect(ask!.inputSchema).toEqual({ $schema: expect.any(String), ...askUserQuestionTool.jsonSchema });
    expect(plan!.inputSchema).toEqual({ $schema: expect.any(String), ...exitPlanModeTool.jsonSchema });
    expect(approve!.inputSchema).toEqual({ $schema: expect.any(String), ...approveToolCallTool.jsonSchema });
  });

  it('names itself askseam at the version of the installed package in initialize', async () => {
    const { client } = await connected();
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(client.getServerVersion()).toEqual({ name: 'askseam', version });
  });

  it('serves only the tools named in options.tools', async () => {
    const { client } = await connected({ tools: ['ask_user_question'] });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ask_user_question']);
  });

  it('brings the person’s answer back to the model as askseam’s answer JSON', async () => {
    const { person, client } = await connected();
    const question = person.nextQuestion();
    const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [dbQuestion] } });
    const pending = await question;
    expect(pending.sessionId).toBe(person.agent.id);
    expect(pending.questions[0]!.options![0]!.label).toBe('Postgres (Recommended)');
    await pending.answer({ answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }] });
    const result = await call;
    expect(result.isError).toBe(false);
    expect(JSON.parse(textOf(result))).toEqual({ answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }] });
  });

  it('answers a malformed call with askseam’s corrective text, not the SDK’s validation error, and asks nobody', async () => {
    const { person, client } = await connected();
    const result = await client.callTool({ name: 'ask_user_question', arguments: { questions: [{ id: 'x', question: 'Pick', multiSelect: true }] } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^Error: /);
    expect(text).toContain('multi_select');
    expect(text).not.toContain('Input validation error');
    expect(person.host.pending()).toEqual([]);
  });

  it('reviews a plan with exit_plan_mode and tells the model it was approved', async () => {
    const { person, client } = await connected();
    const question = person.nextQuestion();
    const call = client.callTool({ name: 'exit_plan_mode', arguments: { plan: '# Add caching\n\n1. Put Redis in front of the reads.' } });
    const pending = await question;
    const review = pending.questions[0]!;
    expect(review.intent).toMatchObject({ kind: 'plan-review' });
    await pending.answer({ answers: [{ id: review.id, selected: [review.intent!.approve] }] });
    const result = await call;
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain('The user approved the plan');
  });

  it('asks for a tool approval and answers allow with the input when the person approves', async () => {
    const { person, client } = await connected();
    const question = person.nextQuestion();
    const input = { branch: 'feature/old' };
    const call = client.callTool({ name: 'approve_tool_call', arguments: { tool_name: 'delete_branch', input, reason: 'It was merged.' } });
    const pending = await question;
    expect(pending.questions[0]!.intent).toMatchObject({ kind: 'tool-approval', tool: { name: 'delete_branch', input } });
    await pending.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });
    const result = await call;
    expect(result.isError).toBe(false);
    expect(JSON.parse(textOf(result))).toEqual({ behavior: 'allow', updatedInput: input });
  });

  it('answers deny with the person’s reason when they deny in their own words', async () => {
    const { person, client } = await connected();
    const question = person.nextQuestion();
    const call = client.callTool({ name: 'approve_tool_call', arguments: { tool_name: 'deploy', input: { env: 'prod' } } });
    await (await question).answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'Not on a Friday.' }] });
    const result = await call;
    expect(result.isError).toBe(false);
    expect(JSON.parse(textOf(result))).toEqual({ behavior: 'deny', message: 'The user denied running deploy: Not on a Friday.' });
  });

  it('answers a dismissed approval as an error whose text still denies, never as an approval', async () => {
    const { person, client } = await connected();
    const question = person.nextQuestion();
    const call = client.callTool({ name: 'approve_tool_call', arguments: { tool_name: 'deploy', input: {} } });
    await (await question).cancel();
    const result = await call;
    expect(result.isError).toBe(true);
    const parsed = JSON.parse(textOf(result)) as { behavior: string; message: string };
    expect(parsed.behavior).toBe('deny');
    expect(parsed.message).toContain('ASK_CANCELLED');
  });

  it('withdraws the question when the client cancels the call (the first tools/call of the session)', async () => {
    const { person, client } = await connected();
    const question = person.nextQuestion();
    const resolved = person.nextResolved();
    const abort = new AbortController();
    const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [dbQuestion] } }, undefined, { signal: abort.signal });
    call.catch(() => undefined);
    const pending = await question;
    abort.abort('The user pressed Escape.');
    await expect(call).rejects.toThrow();
    expect(await resolved).toMatchObject({ rpcId: pending.rpcId, outcome: 'cancelled' });
    expect(person.host.pending()).toEqual([]);
  });

  it('sends progress notifications while the person has not answered, when the client asked', async () => {
    const { person, client } = await connected({ progressIntervalMs: 10 });
    const question = person.nextQuestion();
    const progress: number[] = [];
    let sawProgress!: () => void;
    const firstProgress = new Promise<void>((resolve) => (sawProgress = resolve));
    const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [dbQuestion] } }, undefined, {
      onprogress: (notification) => {
        progress.push(notification.progress);
        sawProgress();
      },
      resetTimeoutOnProgress: true,
    });
    const pending = await question;
    await firstProgress;
    await pending.answer({ answers: [{ id: 'db', selected: ['SQLite'] }] });
    await call;
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('refuses options it cannot use with INVALID_OPTIONS', async () => {
    const person = await personAtHost();
    cleanups.push(() => person.close());
    const attempt = (options: Partial<AskseamMcpServerOptions>) => () => createAskseamMcpServer({ userQuestions: person.userQuestions, ...options });
    for (const bad of [{ timeoutMs: -1 }, { progressIntervalMs: 0 }, { tools: [] }, { tools: ['ask_everyone' as never] }]) {
      expect(attempt(bad)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    }
    expect(() => createAskseamMcpServer({} as never)).toThrow(McpBridgeError);
  });
});
