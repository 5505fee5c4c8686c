// The long wait, for real: a child process runs query() with the defer hook, saves the deferred
// call as a detached askseam question on a SQLite file, and is SIGKILLed. A new host on the same
// file takes the person's answer from a client, and its onResume resumes the Claude session,
// whose scripted model then reads the answer.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Options, SDKMessage, SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { approvalOf, connectQuestions, type PendingQuestion } from '@askseam/client';
import { createWebSocketHost } from '@askseam/host-ws';
import type { QuestionRecord } from '@askseam/store';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bundleChild, cleanupChildren, killed, startChild } from '@askseam/test-support';
import { deployServer, shipToolName } from '../test/deploy-server.js';
import { claudeSandbox, resultText, startScriptedMessagesApi, type SentBlock } from '../test/scripted-messages-api.js';
import { askseamCanUseTool } from './can-use-tool.js';
import { ClaudeAgentSdkError } from './errors.js';
import { askDeferredToolUse } from './defer.js';
import { deferredToolUseFromRecord, resumeDeferredToolUse, type DeferredToolUse } from './resume.js';

const TOKEN = 'claude-defer-token-0123456789';
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  cleanupChildren();
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

const database = {
  question: 'Which database should the service use?',
  header: 'Database',
  multiSelect: false,
  options: [
    { label: 'Postgres', description: 'A server, relational.' },
    { label: 'SQLite', description: 'One file next to the app.' },
  ],
};

interface ChildReady {
  rpcId: string;
  terminalReason: string;
  deferred: { id: string; name: string; input: unknown };
  sessionId: string;
}

/** The first process: runs until the tool call is deferred and saved, then is killed. With `deploy` it serves deploy-server.ts. */
async function deferInAChildThenKill(toolUse: { id: string; name: string; input: Record<string, unknown> }, servers?: 'deploy') {
  const api = await startScriptedMessagesApi();
  cleanups.push(() => api.close());
  const sandbox = claudeSandbox(api.url);
  cleanups.push(() => sandbox.remove());
  const dbDir = mkdtempSync(join(tmpdir(), 'askseam-claude-db-'));
  cleanups.push(() => rmSync(dbDir, { recursive: true, force: true }));
  const file = join(dbDir, 'questions.db');
  const base: Options = { cwd: sandbox.dir, env: sandbox.env, settingSources: [], tools: ['AskUserQuestion', 'Bash'] };

  api.reply({ toolUse });
  // The Claude Agent SDK finds its native CLI next to itself, so it stays an import of its installed
  // copy; zod too, so the deploy server's schema is one the SDK's own zod reads.
  const script = await bundleChild(new URL('../test/defer-child.ts', import.meta.url), { installed: { '@anthropic-ai/claude-agent-sdk': 'claude-agent-sdk', zod: 'claude-agent-sdk' } });
  const { child, ready } = await startChild<ChildReady>(script, [file, TOKEN, JSON.stringify(base), ...(servers === undefined ? [] : [servers])]);
  expect(await killed(child)).toBe('SIGKILL');
  return { api, base, file, ready };
}

type Resumed = { deferred: DeferredToolUse | undefined; messages: SDKMessage[] };

/**
 * The next process: a host on the same file whose onResume resumes the Claude session. `resumed`
 * settles with the first record handed over: its messages, or what resumeDeferredToolUse threw
 * (rethrown from onResume, as an app would, so the host keeps the record unresumed).
 */
async function hostOnFile(file: string, base: Options) {
  const store = new SqliteQuestionStore(file);
  const agent: AgentRef = { id: 'agent-claude' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  // The resumed run gets the options the first one ran with, canUseTool included.
  const options: Options = { ...base, canUseTool: askseamCanUseTool(userQuestions, { agent }) };
  let settle!: { resolve: (value: Resumed) => void; reject: (error: unknown) => void };
  const resumed = new Promise<Resumed>((resolve, reject) => (settle = { resolve, reject }));
  const host = await createWebSocketHost({
    userQuestions,
    token: TOKEN,
    store,
    onResume: async (record: QuestionRecord) => {
      const deferred = deferredToolUseFromRecord(record);
      const messages: SDKMessage[] = [];
      try {
        if (deferred !== undefined) for await (const message of resumeDeferredToolUse(deferred, options)) messages.push(message);
      } catch (error) {
        settle.reject(error);
        throw error;
      }
      settle.resolve({ deferred, messages });
    },
  });
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= host.close().then(() => store.close()));
  cleanups.push(close);
  return { host, store, resumed, close };
}

/** The next process, with the person's client connected and the replayed question in hand. */
async function resumeInANewHost(file: string, base: Options) {
  const next = await hostOnFile(file, base);
  const client = connectQuestions({ url: next.host.url, token: TOKEN, WebSocket });
  cleanups.push(() => client.close());
  const replayed = new Promise<PendingQuestion>((resolve) => {
    const off = client.on('requested', (question) => (off(), resolve(question)));
  });
  return { ...next, client, replayed: await replayed };
}

function resultOf(messages: SDKMessage[]): SDKResultMessage | undefined {
  return messages.findLast((message): message is SDKResultMessage => message.type === 'result');
}

// A child process, a bundle and two CLI starts per test: generous on a shared, busy machine.
describe('a deferred tool call answered after its process was killed', { timeout: 60_000 }, () => {
  it('resumes the Claude session with the person\'s answer to AskUserQuestion', async () => {
    const { api, base, file, ready } = await deferInAChildThenKill({ id: 'toolu_later', name: 'AskUserQuestion', input: { questions: [database] } });
    expect(ready).toMatchObject({ terminalReason: 'tool_deferred', deferred: { id: 'toolu_later', name: 'AskUserQuestion' } });

    api.reply({ text: 'SQLite it is.' });
    const { replayed, resumed } = await resumeInANewHost(file, base);
    expect(replayed.rpcId).toBe(ready.rpcId);
    expect(replayed.questions).toEqual([expect.objectContaining({ id: 'q1', question: database.question })]);
    await replayed.answer({ answers: [{ id: 'q1', selected: ['SQLite'] }] });

    const { deferred, messages } = await resumed;
    expect(deferred).toMatchObject({ rpcId: ready.rpcId, claudeSessionId: ready.sessionId, toolUseId: 'toolu_later', kind: 'questions', outcome: 'answered', state: { ticket: 'T-42' } });
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', result: 'SQLite it is.', terminal_reason: 'completed' });
    expect(resultText(api.toolResult('toolu_later'))).toContain(`"${database.question}"="SQLite"`);
    // No new prompt was sent on resume: one request before the kill, one after the answer.
    expect(api.requests).toHaveLength(2);
  });

  it('runs the approved tool in the resumed session', async () => {
    const { api, base, file, ready } = await deferInAChildThenKill({ id: 'toolu_sh', name: 'Bash', input: { command: 'touch approved-later.txt && echo ran-after-restart', description: 'Mark' } });
    expect(ready.deferred).toMatchObject({ id: 'toolu_sh', name: 'Bash' });

    api.reply({ text: 'Done.' });
    const { replayed, resumed } = await resumeInANewHost(file, base);
    const card = approvalOf(replayed.questions);
    expect(card).toMatchObject({ toolName: 'Bash', input: { command: 'touch approved-later.txt && echo ran-after-restart', description: 'Mark' } });
    await replayed.answer({ answers: [{ id: card!.id, selected: [card!.approve] }] });

    const { messages } = await resumed;
    expect(resultOf(messages)).toMatchObject({ result: 'Done.' });
    expect(resultText(api.toolResult('toolu_sh'))).toContain('ran-after-restart');
    expect(existsSync(join(base.cwd!, 'approved-later.txt'))).toBe(true);
  });

  it('keeps the tool from running when the person denies it later, and Claude reads the reason', async () => {
    const { api, base, file } = await deferInAChildThenKill({ id: 'toolu_no', name: 'Bash', input: { command: 'touch denied-later.txt', description: 'Mark' } });

    api.reply({ text: 'Skipped.' });
    const { replayed, resumed } = await resumeInANewHost(file, base);
    await replayed.answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'Wait for the freeze to end.' }] });

    await resumed;
    const block = api.toolResult('toolu_no');
    expect(block?.is_error).toBe(true);
    expect(resultText(block)).toContain('The user denied running Bash: Wait for the freeze to end.');
    expect(existsSync(join(base.cwd!, 'denied-later.txt'))).toBe(false);
  });
});

// The tool is served by an in-process MCP server (createSdkMcpServer), which the resumed CLI
// connects only after it has started, and it tries the deferred call at once on start.
// Two hosts, a child process and up to three CLI starts in one test: more generous still.
describe('a deferred MCP tool call approved after its process was killed', { timeout: 120_000 }, () => {
  const approve = (question: PendingQuestion) => {
    const card = approvalOf(question.questions);
    expect(card).toMatchObject({ toolName: shipToolName, input: { version: '1.2.3' } });
    return question.answer({ answers: [{ id: card!.id, selected: [card!.approve] }] });
  };

  it('runs the approved MCP tool once, with the approved input, and Claude reads its result', async () => {
    const { api, base, file, ready } = await deferInAChildThenKill({ id: 'toolu_ship', name: shipToolName, input: { version: '1.2.3' } }, 'deploy');
    expect(ready).toMatchObject({ terminalReason: 'tool_deferred', deferred: { id: 'toolu_ship', name: shipToolName } });

    api.reply({ text: 'Shipped.' });
    const calls: { version: string }[] = [];
    const { replayed, resumed } = await resumeInANewHost(file, { ...base, mcpServers: { deploy: deployServer(calls) } });
    await approve(replayed);

    const { messages } = await resumed;
    expect(calls).toEqual([{ version: '1.2.3' }]);
    // One result, the real one: no "isn't available" notice streamed as a success.
    expect(messages.filter((message) => message.type === 'result')).toEqual([expect.objectContaining({ subtype: 'success', is_error: false, result: 'Shipped.', terminal_reason: 'completed' })]);
    expect(resultText(api.toolResult('toolu_ship'))).toBe('shipped 1.2.3');
    // Claude read the tool's result and no words of ours: the turn after the call holds only that result.
    expect(api.requests).toHaveLength(2);
    const afterCall = api.requests[1]!.messages.at(-1)!.content as SentBlock[];
    expect(afterCall.map((block) => block.type)).toEqual(['tool_result']);
  });

  it('reports a call it could not run as DEFERRED_TOOL_UNAVAILABLE and keeps the decision for the next host', async () => {
    const { api, base, file, ready } = await deferInAChildThenKill({ id: 'toolu_ship', name: shipToolName, input: { version: '1.2.3' } }, 'deploy');

    // This host resumes without the MCP server, so the call cannot run here.
    const first = await resumeInANewHost(file, base);
    await approve(first.replayed);
    const error = await first.resumed.catch((caught: unknown) => caught);
    expect(ClaudeAgentSdkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'DEFERRED_TOOL_UNAVAILABLE', message: expect.stringContaining(shipToolName) });
    expect(api.requests).toHaveLength(1);
    await first.close();

    // The next host on the store is handed the same answered record, and its run has the server.
    api.reply({ text: 'Shipped.' });
    const calls: { version: string }[] = [];
    const second = await hostOnFile(file, { ...base, mcpServers: { deploy: deployServer(calls) } });
    const { deferred, messages } = await second.resumed;
    expect(deferred).toMatchObject({ rpcId: ready.rpcId, kind: 'approval', outcome: 'answered', decision: { approved: true } });
    expect(calls).toEqual([{ version: '1.2.3' }]);
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', is_error: false, result: 'Shipped.', terminal_reason: 'completed' });
    expect(resultText(api.toolResult('toolu_ship'))).toBe('shipped 1.2.3');
  });
});

describe('askDeferredToolUse', () => {
  it('refuses a result that deferred nothing, and saves nothing', async () => {
    const asked: unknown[] = [];
    const host = { askDetached: async (request: unknown) => (asked.push(request), { rpcId: 'never' }) };
    const completed = { type: 'result', subtype: 'success', terminal_reason: 'completed', session_id: 's' } as unknown as SDKResultMessage;
    const error = await askDeferredToolUse(host, completed, { sessionId: 'agent-claude' }).catch((caught: unknown) => caught);
    expect(ClaudeAgentSdkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'NOT_DEFERRED' });
    expect(asked).toEqual([]);
  });
});

describe('resumeDeferredToolUse', () => {
  const answered: DeferredToolUse = { rpcId: 'r1', claudeSessionId: 's1', toolUseId: 'toolu_1', toolName: 'AskUserQuestion', kind: 'questions', outcome: 'answered', answer: { answers: [] } };

  it('refuses a question nobody has settled, before starting the CLI', async () => {
    const error = await resumeDeferredToolUse({ ...answered, outcome: 'pending' }, {}).next().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'NOT_SETTLED' });
  });

  it('reports a Claude Code process that fails as RESUME_FAILED, with its error as the cause', { timeout: 60_000 }, async () => {
    const api = await startScriptedMessagesApi();
    cleanups.push(() => api.close());
    const sandbox = claudeSandbox(api.url);
    cleanups.push(() => sandbox.remove());
    const approved: DeferredToolUse = { rpcId: 'r2', claudeSessionId: randomUUID(), toolUseId: 'toolu_2', toolName: 'Bash', kind: 'approval', outcome: 'answered', decision: { approved: true } };
    const messages: SDKMessage[] = [];
    const error = await (async () => {
      for await (const message of resumeDeferredToolUse(approved, { cwd: sandbox.dir, env: sandbox.env, settingSources: [] })) messages.push(message);
    })().catch((caught: unknown) => caught);
    expect(ClaudeAgentSdkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'RESUME_FAILED', message: expect.stringContaining(approved.claudeSessionId), cause: expect.any(Error) });
    // What the CLI streamed before it failed reads as an error, never as a success.
    expect(messages).not.toContainEqual(expect.objectContaining({ type: 'result', is_error: false }));
  });

  it('refuses to resume a deferred AskUserQuestion without canUseTool', async () => {
    const error = await resumeDeferredToolUse(answered, {}).next().catch((caught: unknown) => caught);
    expect(ClaudeAgentSdkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MISSING_CAN_USE_TOOL' });
  });
});
