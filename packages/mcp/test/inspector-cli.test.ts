// The askseam-mcp bin as the MCP Inspector's CLI sees it (`@modelcontextprotocol/inspector` 2.x,
// `mcp-inspector --cli`): a client nobody here wrote lists the tools and calls them over stdio.
// The inspector spawns the bin itself and passes the bin's stderr through to its own, so the test
// reads the printed page URL and token there, as a person at the terminal would, and answers
// through a real socket.
import type { PendingQuestion, QuestionClient } from '@askseam/client';
import { exitPlanModeTool } from '@askseam/plan-mode';
import { askUserQuestionTool } from '@askseam/tool-ask-user';
import { UserQuestions } from '@askseam/user-questions';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approveToolCallTool } from '../src/approval-tool.js';
import { once } from '@askseam/test-support';
import { assertBinBuilt, binPath, exitOf, pagePrinted, personAt } from './spawned-bin.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});
beforeAll(assertBinBuilt);

/** The inspector's own launcher script, found through its package.json `bin`. */
async function inspectorBin(): Promise<string> {
  const packageJson = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
  const { bin } = JSON.parse(await readFile(packageJson, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(packageJson), bin['mcp-inspector']!);
}

interface InspectorRun {
  child: ChildProcess;
  /** Everything the inspector wrote on stdout, once it has exited. */
  finished: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `mcp-inspector --cli node dist/bin.js <args>`, with a HOME of its own so it never reads or writes the developer's ~/.mcp-inspector. */
async function runInspector(args: string[]): Promise<InspectorRun> {
  const home = await mkdtemp(join(tmpdir(), 'askseam-inspector-'));
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  const child = spawn(process.execPath, [await inspectorBin(), '--cli', process.execPath, binPath, '--format', 'json', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: home, USERPROFILE: home },
  });
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exitOf(child);
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const finished = exitOf(child).then(({ code }) => ({ code, stdout, stderr }));
  return { child, finished };
}

function resultOf(stdout: string): Record<string, unknown> {
  const parsed = JSON.parse(stdout) as { result?: Record<string, unknown> };
  if (parsed.result === undefined) throw new Error(`The inspector printed no result:\n${stdout}`);
  return parsed.result;
}

/**
 * The first question that reaches the person. The inspector sends its call as soon as it is
 * connected, so the question may already be pending (replayed on connect) before the test listens.
 */
function firstQuestion(person: QuestionClient): Promise<PendingQuestion> {
  const [already] = person.pending.values();
  return already === undefined ? once(person, 'requested') : Promise.resolve(already);
}

const question = { id: 'lang', question: 'Which language should the CLI be written in?', options: [{ label: 'TypeScript (Recommended)' }, { label: 'Go' }] };

describe('askseam-mcp under the MCP Inspector CLI (stdio, spawned by the inspector)', () => {
  it('tools/list lists the three tools with askseam’s own input schemas', async () => {
    const { finished } = await runInspector(['--method', 'tools/list']);
    const { code, stdout, stderr } = await finished;
    expect(code, stderr).toBe(0);
    const { tools } = resultOf(stdout) as { tools: { name: string; description: string; inputSchema: unknown }[] };
    expect(tools.map((tool) => tool.name)).toEqual(['ask_user_question', 'exit_plan_mode', 'approve_tool_call']);
    const [ask, plan, approve] = tools;
    expect(ask!.description).toBe(askUserQuestionTool.description);
    expect(ask!.inputSchema).toEqual({ $schema: expect.any(String), ...askUserQuestionTool.jsonSchema });
    expect(plan!.inputSchema).toEqual({ $schema: expect.any(String), ...exitPlanModeTool.jsonSchema });
    expect(approve!.inputSchema).toEqual({ $schema: expect.any(String), ...approveToolCallTool.jsonSchema });
  });

  it('tools/call of ask_user_question returns the answer a person gave on the page', async () => {
    const { child, finished } = await runInspector(['--method', 'tools/call', '--tool-name', 'ask_user_question', '--tool-args-json', JSON.stringify({ questions: [question] })]);
    const page = await pagePrinted(child.stderr!);
    const person = await personAt(page);
    cleanups.push(() => person.close());
    const pending = await firstQuestion(person);
    expect(pending.questions).toMatchObject([{ id: 'lang', question: question.question }]);
    await pending.answer({ answers: [{ id: 'lang', selected: [], custom: 'Zig' }] });
    const { code, stdout, stderr } = await finished;
    expect(code, stderr).toBe(0);
    const result = resultOf(stdout) as { content: { type: string; text: string }[]; isError?: boolean };
    expect(result.isError).toBe(false);
    expect(result.content).toHaveLength(1);
    expect(JSON.parse(result.content[0]!.text)).toEqual({ answers: [{ id: 'lang', selected: [], custom: 'Zig' }] });
  });

  it('a malformed tools/call comes back with askseam’s corrective text, not the SDK’s validation error', async () => {
    const malformed = { questions: [{ id: 'lang', question: 'Which language?', options: 'TypeScript, Go' }] };
    const { finished } = await runInspector(['--method', 'tools/call', '--tool-name', 'ask_user_question', '--tool-args-json', JSON.stringify(malformed)]);
    // What askseam's tool answers to the same arguments, straight from its own check.
    const expected = await askUserQuestionTool.execute(malformed, { userQuestions: new UserQuestions() });
    expect(expected.isError).toBe(true);
    const { code, stdout } = await finished;
    // The inspector exits 5 when a tool returns isError: true, and still prints the result.
    expect(code).toBe(5);
    const result = resultOf(stdout) as { content: { type: string; text: string }[]; isError?: boolean };
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expected.text }]);
    expect(expected.text).toContain('questions[0].options (question "lang") must be an array, not a string.');
  });
});
