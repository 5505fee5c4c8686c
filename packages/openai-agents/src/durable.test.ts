// Durable approvals within one process: the run is saved with the approval, the host is closed
// and a new one opened on the same SQLite file, and the decision resumes the run from onResume.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { askApprovalDetached } from '@askseam/host-ws';
import type { QuestionRecord } from '@askseam/store';
import { Agent, Runner } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { deployAgent } from '../test/deploy-agent.js';
import { cleanupPeople, openSqlite, startPerson, tempDbFile, type Person } from '../test/person.js';
import { askRunApprovalDetached, OpenAIAgentsError, resumeRunFromApproval, type ResumedRun } from './index.js';

afterEach(cleanupPeople);

const runner = new Runner({ tracingDisabled: true });
type DeployAgent = ReturnType<typeof deployAgent>;

function runsIn(ledger: string): string[] {
  return existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n').filter(Boolean) : [];
}

/** Start a run that stops for approval of every scripted call, and save the approval; then close that host. */
async function savedRun(file: string, ledger: string, calls: ReturnType<typeof functionCall>[]): Promise<string> {
  const first = await startPerson({ store: openSqlite(file) });
  const result = await runner.run(deployAgent(new ScriptedModel([calls]), ledger), 'Ship it.');
  const { rpcId } = await askRunApprovalDetached(first.host, result, { agent: first.agent });
  await first.host.close();
  return rpcId;
}

/** A new host on the same file whose onResume resumes runs for `agent`, and records the raw records too. */
async function resumingHost(file: string, agent: Agent<any, any>) {
  const resumed: (ResumedRun<undefined, DeployAgent> | undefined)[] = [];
  const records: QuestionRecord[] = [];
  const errors: unknown[] = [];
  const person: Person = await startPerson({
    store: openSqlite(file),
    onResume: async (record) => {
      records.push(record);
      try {
        resumed.push(await resumeRunFromApproval(record, { host: person.host, agent: agent as DeployAgent, runner }));
      } catch (error) {
        errors.push(error);
      }
    },
  });
  return { person, resumed, records, errors };
}

describe('askRunApprovalDetached and resumeRunFromApproval', () => {
  it('does not run a call denied after a restart, and the model reads the reason', async () => {
    const file = tempDbFile();
    const ledger = join(dirname(file), 'deploys.log');
    await savedRun(file, ledger, [functionCall('deploy', { version: '2.0.0' }, { callId: 'call-1' })]);
    const model = new ScriptedModel([[assistantMessage('Not deploying.')]]);
    const { person, resumed } = await resumingHost(file, deployAgent(model, ledger));

    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'Not on a Friday.' }] });

    await expect.poll(() => resumed.length).toBe(1);
    expect(resumed[0]).toMatchObject({ status: 'finished' });
    expect(runsIn(ledger)).toEqual([]);
    const input = model.lastCall?.request.input;
    expect(Array.isArray(input) && input.find((item) => item.type === 'function_call_result')).toMatchObject({
      output: { type: 'text', text: 'The user denied running deploy. It did not run. Their reason: Not on a Friday.' },
    });
  });

  it('asks about a second call of the same step as a new saved approval, and runs the approved one once', async () => {
    const file = tempDbFile();
    const ledger = join(dirname(file), 'deploys.log');
    await savedRun(file, ledger, [functionCall('deploy', { version: '1.0.0' }, { callId: 'call-1' }), functionCall('deploy', { version: '1.0.1' }, { callId: 'call-2' })]);
    const { person, resumed } = await resumingHost(file, deployAgent(new ScriptedModel([[assistantMessage('Done.')]]), ledger));

    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: ['Deny'] }] });
    await expect.poll(() => resumed.length).toBe(1);
    expect(resumed[0]).toMatchObject({ status: 'awaiting-approval' });
    expect(runsIn(ledger)).toEqual([]);

    const second = await person.nextQuestion();
    expect(second.rpcId).toBe((resumed[0] as { rpcId: string }).rpcId);
    expect(second.sessionId).toBe(person.agent.id);
    await second.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });
    await expect.poll(() => resumed.length).toBe(2);
    expect(resumed[1]).toMatchObject({ status: 'finished' });
    expect(runsIn(ledger)).toEqual(['1.0.1']);
  });

  it('rejects a dismissed approval as no decision, and runs nothing', async () => {
    const file = tempDbFile();
    const ledger = join(dirname(file), 'deploys.log');
    await savedRun(file, ledger, [functionCall('deploy', { version: '3.0.0' }, { callId: 'call-1' })]);
    const model = new ScriptedModel([[assistantMessage('Waiting for a decision.')]]);
    const { person, resumed } = await resumingHost(file, deployAgent(model, ledger));

    await (await person.nextQuestion()).cancel();

    await expect.poll(() => resumed.length).toBe(1);
    expect(runsIn(ledger)).toEqual([]);
    const input = model.lastCall?.request.input;
    expect(Array.isArray(input) && input.find((item) => item.type === 'function_call_result')).toMatchObject({
      output: { type: 'text', text: 'The user dismissed the approval request for deploy, so it did not run. Do not assume it was approved.' },
    });
  });

  it('refuses RUN_STATE_UNREADABLE for an agent the run was not saved with, and runs nothing', async () => {
    const file = tempDbFile();
    const ledger = join(dirname(file), 'deploys.log');
    await savedRun(file, ledger, [functionCall('deploy', { version: '4.0.0' }, { callId: 'call-1' })]);
    const stranger = new Agent({ name: 'someone-else', model: new ScriptedModel([]) });
    const { person, errors } = await resumingHost(file, stranger);

    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    await expect.poll(() => errors.length).toBe(1);
    expect(OpenAIAgentsError.isInstance(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({ code: 'RUN_STATE_UNREADABLE', message: expect.stringContaining('someone-else') });
    expect(runsIn(ledger)).toEqual([]);
  });

  it('refuses RUN_STATE_MISMATCH when the saved run no longer waits on the decided call', async () => {
    const file = tempDbFile();
    const ledger = join(dirname(file), 'deploys.log');
    await savedRun(file, ledger, [functionCall('deploy', { version: '5.0.0' }, { callId: 'call-1' })]);
    const records: QuestionRecord[] = [];
    const person = await startPerson({ store: openSqlite(file), onResume: (record) => void records.push(record) });
    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });
    await expect.poll(() => records.length).toBe(1);

    // The same record, its state pointing at a call the run does not wait on.
    const record = records[0]!;
    const tampered = { ...record, state: { ...(record.state as object), callId: 'call-other' } } as QuestionRecord;
    const again = resumeRunFromApproval(tampered, { host: person.host, agent: deployAgent(new ScriptedModel([]), ledger), runner });
    await expect(again).rejects.toMatchObject({ code: 'RUN_STATE_MISMATCH', message: expect.stringContaining('call-other') });
    expect(runsIn(ledger)).toEqual([]);
  });

  it('returns undefined for a record it did not save, so one onResume serves every question', async () => {
    const file = tempDbFile();
    const { person, records, resumed } = await resumingHost(file, deployAgent(new ScriptedModel([]), join(dirname(file), 'deploys.log')));
    await askApprovalDetached(person.host, { tool: { name: 'deploy', input: {} }, agent: person.agent, state: { mine: true } });
    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    await expect.poll(() => records.length).toBe(1);
    await expect.poll(() => resumed).toEqual([undefined]);
  });

  it('refuses NO_INTERRUPTIONS for a run that waits on nothing, and saves nothing', async () => {
    const file = tempDbFile();
    const person = await startPerson({ store: openSqlite(file) });
    const result = await runner.run(new Agent({ name: 'idle', model: new ScriptedModel([[assistantMessage('Hi.')]]) }), 'Hi.');

    const asked = askRunApprovalDetached(person.host, result, { agent: person.agent });
    await expect(asked).rejects.toMatchObject({ code: 'NO_INTERRUPTIONS' });
    expect(person.host.pending()).toEqual([]);
  });
});
