import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonValue } from '@askseam/store';
import { UserQuestions, type AgentRef, type ApprovalTool } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteBranch, startApprovalApp, type ApprovalApp } from './approval-app.js';

const token = 'approval-app-token';
const agent: AgentRef = { id: 'coder' };

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-approval-app-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dir: string, runs: { tool: ApprovalTool; state: JsonValue | undefined }[] = [], lines: string[] = []): Promise<ApprovalApp & { userQuestions: UserQuestions }> {
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const app = await startApprovalApp({ dataDir: dir, token, userQuestions, runTool: async (tool, state) => void runs.push({ tool, state }), tell: (line) => lines.push(line) });
  closers.push(() => app.close());
  return Object.assign(app, { userQuestions });
}

/** What a webhook or a chat bot does: list the waiting questions, answer the first over HTTP. */
async function answerFirst(app: ApprovalApp, sessionId: string, item: { selected: string[]; custom?: string }): Promise<void> {
  const base = app.host.url.replace(/^ws:/, 'http:');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let rpcId: string | undefined;
  await expect.poll(async () => {
    const listed = (await (await fetch(`${base}/questions`, { headers })).json()) as { questions: { rpcId: string }[] };
    rpcId = listed.questions[0]?.rpcId;
    return rpcId;
  }).toBeDefined();
  const response = await fetch(`${base}/questions/${rpcId}/answer`, { method: 'POST', headers, body: JSON.stringify({ sessionId, answer: { answers: [{ id: 'tool-approval', ...item }] } }) });
  expect(response.status).toBe(200);
}

describe('docs/approvals.md: the approval app', () => {
  it('runs the tool once the person approves a blocking approval', async () => {
    const app = await start(dataDir());
    const removed: string[] = [];
    const result = deleteBranch(app.userQuestions, agent, 'feature/x', async (branch) => void removed.push(branch));
    await answerFirst(app, 'coder', { selected: ['Approve'] });
    expect(await result).toBe('Deleted feature/x.');
    expect(removed).toEqual(['feature/x']);
  });

  it('tells the model the reason of a denial, and runs nothing', async () => {
    const app = await start(dataDir());
    const removed: string[] = [];
    const result = deleteBranch(app.userQuestions, agent, 'main', async (branch) => void removed.push(branch));
    await answerFirst(app, 'coder', { selected: [], custom: 'Never delete main.' });
    expect(await result).toBe('The user denied deleting main: Never delete main.');
    expect(removed).toEqual([]);
  });

  it('runs a detached approval given after a restart once, with the saved state', async () => {
    const dir = dataDir();
    const first = await start(dir);
    await first.requestApproval('coder', { name: 'deploy', input: { version: '1.4.0' } }, { run: 'paused-run-7' });
    await first.close();

    const runs: { tool: ApprovalTool; state: JsonValue | undefined }[] = [];
    const second = await start(dir, runs);
    await answerFirst(second, 'coder', { selected: ['Approve'] });
    await expect.poll(() => runs).toEqual([{ tool: { name: 'deploy', input: { version: '1.4.0' } }, state: { run: 'paused-run-7' } }]);
  });

  it('does not run a detached approval the person denied, and says why', async () => {
    const lines: string[] = [];
    const runs: { tool: ApprovalTool; state: JsonValue | undefined }[] = [];
    const app = await start(dataDir(), runs, lines);
    await app.requestApproval('coder', { name: 'deploy', input: {} }, null);
    await answerFirst(app, 'coder', { selected: [], custom: 'Not on a Friday.' });
    await expect.poll(() => lines).toEqual(['deploy: denied: Not on a Friday.']);
    expect(runs).toEqual([]);
  });
});
