// The durable approval, run for real: one host and SQLite file per "process", the first closed
// before the person decides, the decision given to the second through a real client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalOf, connectQuestions, type PendingQuestion } from '@askseam/client';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { jsonSchema, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { scriptedModel, toolResultsSeen, type ScriptStep } from '../test/scripted-model.js';
import { startDurableRelease } from './durable-release.js';

const token = 'durable-release-token';
const agent: AgentRef = { id: 'coder' };
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function world(dataDir: string, script: ScriptStep[], removed: string[], lines: string[]) {
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const model = scriptedModel(script);
  const tools = {
    delete_branch: tool({
      description: 'Deletes a git branch on the remote.',
      inputSchema: jsonSchema<{ branch: string }>({ type: 'object', properties: { branch: { type: 'string' } }, required: ['branch'] }),
      execute: async ({ branch }) => {
        removed.push(branch);
        return `Deleted ${branch}.`;
      },
    }),
  };
  return { model, start: () => startDurableRelease({ dataDir, token, userQuestions, model, tools, tell: (line) => lines.push(line) }) };
}

async function firstQuestion(url: string): Promise<PendingQuestion> {
  const client = connectQuestions({ url, token, WebSocket });
  closers.push(() => client.close());
  return new Promise((resolve) => client.on('requested', resolve));
}

describe('a durable approval (examples/durable-release.ts)', () => {
  it('continues the run in the restarted process once the person approves, and the tool runs once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'askseam-ai-sdk-durable-'));
    closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const removed: string[] = [];
    const lines: string[] = [];

    const before = await world(dataDir, [{ toolCall: { name: 'delete_branch', input: { branch: 'feature/old' } } }], removed, lines).start();
    const [rpcId] = await before.start('conv-1', agent.id, 'Clean up.');
    await before.close();
    expect(removed).toEqual([]);

    const after = world(dataDir, [{ text: 'Deleted feature/old, as you approved.' }], removed, lines);
    const second = await after.start();
    closers.push(() => second.close());
    const card = await firstQuestion(second.host.url);
    expect(card.rpcId).toBe(rpcId);
    expect(approvalOf(card.questions)).toMatchObject({ toolName: 'delete_branch', input: { branch: 'feature/old' } });
    await card.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    await expect.poll(() => lines).toEqual(['Deleted feature/old, as you approved.']);
    expect(removed).toEqual(['feature/old']);
    expect(toolResultsSeen(after.model, 0)).toEqual([expect.objectContaining({ toolName: 'delete_branch', output: { type: 'text', value: 'Deleted feature/old.' } })]);
  });
});
