// Tool approvals in the real Agents SDK loop: a tool with needsApproval interrupts the real Runner,
// askseam asks the person (a real client on a real host) and the run goes on with the decision.
import { approvalOf } from '@askseam/client';
import { Agent, Runner, tool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupPeople, startPerson, type Person } from '../test/person.js';
import { answerInterruptions, runWithApprovals } from './index.js';

afterEach(cleanupPeople);

const runner = new Runner({ tracingDisabled: true });

/** A tool that needs approval and records every time it really runs. */
function deleteBranchTool(ran: string[]) {
  return tool({
    name: 'delete_branch',
    description: 'Deletes a git branch on the remote.',
    parameters: { type: 'object', properties: { branch: { type: 'string' } }, required: ['branch'], additionalProperties: false },
    needsApproval: true,
    execute: async (input) => {
      const { branch } = input as { branch: string };
      ran.push(branch);
      return `Deleted ${branch}.`;
    },
  });
}

function outputSeen(model: ScriptedModel, callId: string): unknown {
  const input = model.lastCall?.request.input;
  const item = Array.isArray(input) ? input.find((each) => each.type === 'function_call_result' && each.callId === callId) : undefined;
  return item?.type === 'function_call_result' ? item.output : undefined;
}

function setUp(person: Person, ran: string[], calls: ReturnType<typeof functionCall>[]) {
  const model = new ScriptedModel([calls, [assistantMessage('Done.')]]);
  const agent = new Agent({ name: 'coder', model, tools: [deleteBranchTool(ran)] });
  const run = runWithApprovals(runner, agent, 'Clean up merged branches.', { userQuestions: person.userQuestions, agent: person.agent });
  run.catch(() => undefined);
  return { model, run };
}

describe('runWithApprovals', () => {
  it('shows the person an approval card for the call, and runs the tool once they approve', async () => {
    const person = await startPerson();
    const ran: string[] = [];
    const { model, run } = setUp(person, ran, [functionCall('delete_branch', { branch: 'feature/x' }, { callId: 'call-1' })]);

    const card = approvalOf((await person.nextQuestion()).questions);
    expect(card).toMatchObject({ toolName: 'delete_branch', toolDescription: 'Deletes a git branch on the remote.', input: { branch: 'feature/x' } });
    await person.shown[0]!.answer({ answers: [{ id: card!.id, selected: [card!.approve] }] });

    expect((await run).finalOutput).toBe('Done.');
    expect(ran).toEqual(['feature/x']);
    expect(outputSeen(model, 'call-1')).toEqual({ type: 'text', text: 'Deleted feature/x.' });
  });

  it('does not run a denied call, and the model reads the person’s reason', async () => {
    const person = await startPerson();
    const ran: string[] = [];
    const { model, run } = setUp(person, ran, [functionCall('delete_branch', { branch: 'main' }, { callId: 'call-1' })]);

    const question = await person.nextQuestion();
    await question.answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'Never delete main.' }] });

    expect((await run).finalOutput).toBe('Done.');
    expect(ran).toEqual([]);
    expect(outputSeen(model, 'call-1')).toEqual({ type: 'text', text: 'The user denied running delete_branch. It did not run. Their reason: Never delete main.' });
  });

  it('rejects a call whose card the person dismissed, telling the model nobody approved it', async () => {
    const person = await startPerson();
    const ran: string[] = [];
    const { model, run } = setUp(person, ran, [functionCall('delete_branch', { branch: 'old' }, { callId: 'call-1' })]);

    await (await person.nextQuestion()).cancel();

    expect((await run).finalOutput).toBe('Done.');
    expect(ran).toEqual([]);
    expect(outputSeen(model, 'call-1')).toEqual({ type: 'text', text: 'The user dismissed the approval request for delete_branch, so it did not run. Do not assume it was approved.' });
  });

  it('asks about each of several calls in one step, and runs only the approved one', async () => {
    const person = await startPerson();
    const ran: string[] = [];
    const { model, run } = setUp(person, ran, [
      functionCall('delete_branch', { branch: 'keep-me' }, { callId: 'call-1' }),
      functionCall('delete_branch', { branch: 'stale' }, { callId: 'call-2' }),
    ]);

    const first = await person.nextQuestion();
    expect(approvalOf(first.questions)?.input).toEqual({ branch: 'keep-me' });
    await first.answer({ answers: [{ id: 'tool-approval', selected: ['Deny'] }] });
    const second = await person.nextQuestion();
    expect(approvalOf(second.questions)?.input).toEqual({ branch: 'stale' });
    await second.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    await run;
    expect(ran).toEqual(['stale']);
    expect(outputSeen(model, 'call-1')).toEqual({ type: 'text', text: 'The user denied running delete_branch. It did not run.' });
    expect(outputSeen(model, 'call-2')).toEqual({ type: 'text', text: 'Deleted stale.' });
  });

  it('ends with ASK_ABORTED and runs nothing when the signal fires while the person decides', async () => {
    const person = await startPerson();
    const ran: string[] = [];
    const model = new ScriptedModel([[functionCall('delete_branch', { branch: 'x' }, { callId: 'call-1' })]]);
    const agent = new Agent({ name: 'coder', model, tools: [deleteBranchTool(ran)] });
    const controller = new AbortController();
    const run = runWithApprovals(runner, agent, 'Go.', { userQuestions: person.userQuestions, agent: person.agent, signal: controller.signal });
    run.catch(() => undefined);

    await person.nextQuestion();
    controller.abort();

    await expect(run).rejects.toMatchObject({ code: 'ASK_ABORTED' });
    expect(ran).toEqual([]);
  });
});

describe('answerInterruptions', () => {
  it('records the decisions in the state the app runs again itself', async () => {
    const person = await startPerson();
    const ran: string[] = [];
    const model = new ScriptedModel([[functionCall('delete_branch', { branch: 'x' }, { callId: 'call-1' })], [assistantMessage('Done.')]]);
    const agent = new Agent({ name: 'coder', model, tools: [deleteBranchTool(ran)] });
    const first = await runner.run(agent, 'Go.');
    expect(first.interruptions.map((item) => item.type)).toEqual(['tool_approval_item']);

    const decided = answerInterruptions(first, { userQuestions: person.userQuestions, agent: person.agent });
    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });
    const state = await decided;
    expect(state).toBe(first.state);
    expect(ran).toEqual([]);

    await runner.run(agent, state);
    expect(ran).toEqual(['x']);
  });
});
