// The durable approval, for real: a process runs the agent until it stops for an approval,
// saves the approval with the paused run on SQLite and is SIGKILLed. A new process's host gets the
// person's approval, restores the run and goes on: the tool runs exactly once, and a later restart
// runs nothing again.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { QuestionRecord } from '@askseam/store';
import { approvalOf } from '@askseam/client';
import { Runner } from '@openai/agents';
import { assistantMessage, ScriptedModel } from '@openai/agents/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { resumeRunFromApproval, type ResumedRun } from '../src/index.js';
import { deployAgent } from './deploy-agent.js';
import { bundleChild, cleanupChildren, killed, startChild, TEST_TOKEN as TOKEN } from '@askseam/test-support';
import { cleanupPeople, openSqlite, startPerson, tempDbFile } from './person.js';

afterEach(async () => {
  cleanupChildren();
  await cleanupPeople();
});

const runner = new Runner({ tracingDisabled: true });

function runsIn(ledger: string): string[] {
  return existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n').filter(Boolean) : [];
}

describe('a durable approval across a SIGKILL', () => {
  it('resumes the run in the next process once the person approves, and the tool runs exactly once', async () => {
    const file = tempDbFile();
    const ledger = join(dirname(file), 'deploys.log');
    const script = await bundleChild(new URL('./agents-child.ts', import.meta.url));
    const { child, ready } = await startChild<{ rpcId: string; interruptions: number }>(script, [file, TOKEN, ledger]);
    expect(ready.interruptions).toBe(1);
    expect(await killed(child)).toBe('SIGKILL');
    expect(runsIn(ledger)).toEqual([]);

    // The next process: the same agent (a fresh model that says what happens after the tool), a host on the same file.
    const model = new ScriptedModel([[assistantMessage('Deployed 1.4.0 as approved.')]]);
    const agent = deployAgent(model, ledger);
    const resumed: (ResumedRun<undefined, typeof agent> | undefined)[] = [];
    const store = openSqlite(file);
    const person = await startPerson({
      store,
      onResume: async (record: QuestionRecord) => void resumed.push(await resumeRunFromApproval(record, { host: person.host, agent, runner })),
    });

    const question = await person.nextQuestion();
    expect(question.rpcId).toBe(ready.rpcId);
    const card = approvalOf(question.questions);
    expect(card).toMatchObject({ toolName: 'deploy', toolDescription: 'Deploys a version to production.', input: { version: '1.4.0' } });
    await question.answer({ answers: [{ id: card!.id, selected: [card!.approve] }] });

    await expect.poll(() => resumed.length).toBe(1);
    expect(resumed[0]).toMatchObject({ status: 'finished' });
    expect(resumed[0]?.result?.finalOutput).toBe('Deployed 1.4.0 as approved.');
    expect(runsIn(ledger)).toEqual(['1.4.0']);
    const input = model.lastCall?.request.input;
    expect(Array.isArray(input) && input.find((item) => item.type === 'function_call_result')).toMatchObject({ callId: 'call-deploy', output: { type: 'text', text: 'Deployed 1.4.0.' } });

    // Restart again on the same file: the approval was handed over once and is not resumed twice.
    await person.host.close();
    expect(await store.listAwaitingResume()).toEqual([]);
    const again: QuestionRecord[] = [];
    const next = await startPerson({ store, onResume: (record) => void again.push(record) });
    expect(next.host.pending()).toEqual([]);
    expect(await store.listAwaitingResume()).toEqual([]);
    expect(again).toEqual([]);
    expect(runsIn(ledger)).toEqual(['1.4.0']);
  });
});
