// askseam as the AI SDK's toolApproval: the real loop stops at a tool call, a real client sees the
// approval card and decides, and the model reads the outcome in its next call.
import { approvalOf } from '@askseam/client';
import { generateText, jsonSchema, stepCountIs, streamText, tool, ToolLoopAgent, type ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { answerApprovalRequests, askseamToolApproval, askseamToolApprovalFor, createAskUserQuestionTool, pendingApprovalRequests } from '../src/index.js';
import { personAtHost, type Person } from '@askseam/test-support';
import { scriptedModel, toolResultsSeen } from './scripted-model.js';

let person: Person;
afterEach(async () => {
  await person?.close();
});

/** A business tool the person must approve; `deleted` records every run of it. */
function deleteBranchTool() {
  const deleted: string[] = [];
  const deleteBranch = tool({
    description: 'Deletes a git branch on the remote.',
    inputSchema: jsonSchema<{ branch: string }>({ type: 'object', properties: { branch: { type: 'string' } }, required: ['branch'] }),
    execute: async ({ branch }) => {
      deleted.push(branch);
      return `Deleted ${branch}.`;
    },
  });
  return { deleted, deleteBranch };
}

// The runs here are never stopped; the approval still needs a signal (see the withdrawn-run tests).
const neverStopped = new AbortController().signal;

const callDelete = { toolCall: { name: 'delete_branch', input: { branch: 'feature/old' } } };

describe('askseamToolApproval in generateText', () => {
  it('shows the approval card and runs the tool once the person approves', async () => {
    person = await personAtHost();
    const { deleted, deleteBranch } = deleteBranchTool();
    const model = scriptedModel([callDelete, { text: 'Done.' }]);
    const run = generateText({
      model,
      tools: { delete_branch: deleteBranch },
      toolApproval: askseamToolApproval({ userQuestions: person.userQuestions, agent: person.agent, signal: neverStopped, reason: ({ input }) => `Merged: ${JSON.stringify(input)}` }),
      prompt: 'Clean up.',
      stopWhen: stepCountIs(3),
    });
    const question = await person.nextQuestion();
    const card = approvalOf(question.questions);
    expect(card).toMatchObject({ toolName: 'delete_branch', toolDescription: 'Deletes a git branch on the remote.', input: { branch: 'feature/old' }, reason: 'Merged: {"branch":"feature/old"}' });
    await question.answer({ answers: [{ id: card!.id, selected: [card!.approve] }] });
    const result = await run;

    expect(deleted).toEqual(['feature/old']);
    expect(result.text).toBe('Done.');
    expect(toolResultsSeen(model, 1)).toEqual([expect.objectContaining({ toolName: 'delete_branch', output: { type: 'text', value: 'Deleted feature/old.' } })]);
  });

  it('does not run a tool the person dismissed, and tells the model nobody decided', async () => {
    person = await personAtHost();
    const { deleted, deleteBranch } = deleteBranchTool();
    const model = scriptedModel([callDelete, { text: 'I will ask first.' }]);
    const run = generateText({
      model,
      tools: { delete_branch: deleteBranch },
      toolApproval: askseamToolApproval({ userQuestions: person.userQuestions, agent: person.agent, signal: neverStopped }),
      prompt: 'Clean up.',
      stopWhen: stepCountIs(3),
    });
    await (await person.nextQuestion()).cancel();
    const result = await run;

    expect(deleted).toEqual([]);
    expect(result.text).toBe('I will ask first.');
    const [seen] = toolResultsSeen(model, 1);
    expect(seen).toMatchObject({ output: { type: 'execution-denied', reason: expect.stringMatching(/^Not run: the person dismissed the approval request for delete_branch without deciding/) } });
  });

  it('withdraws the card when the signal given for the run fires, and the tool does not run', async () => {
    person = await personAtHost();
    const { deleted, deleteBranch } = deleteBranchTool();
    const controller = new AbortController();
    const run = generateText({
      model: scriptedModel([callDelete, { text: 'unreached' }]),
      tools: { delete_branch: deleteBranch },
      toolApproval: askseamToolApproval({ userQuestions: person.userQuestions, agent: person.agent, signal: controller.signal }),
      prompt: 'Clean up.',
      stopWhen: stepCountIs(3),
      abortSignal: controller.signal,
    });
    run.catch(() => undefined);
    const question = await person.nextQuestion();
    const resolved = person.nextResolved();
    controller.abort();
    expect(await resolved).toMatchObject({ rpcId: question.rpcId, outcome: 'cancelled' });
    await expect(run).rejects.toThrow();
    expect(deleted).toEqual([]);
    expect(person.host.pending()).toEqual([]);
  });

  it('asks no approval for askseam’s own question tools', async () => {
    person = await personAtHost();
    const model = scriptedModel([
      { toolCall: { name: 'ask_user_question', input: { questions: [{ id: 'go', question: 'Go on?', options: [{ label: 'Yes' }, { label: 'No' }] }] } } },
      { text: 'Going on.' },
    ]);
    const run = generateText({
      model,
      tools: { ask_user_question: createAskUserQuestionTool({ userQuestions: person.userQuestions, agent: person.agent }) },
      toolApproval: askseamToolApproval({ userQuestions: person.userQuestions, agent: person.agent, signal: neverStopped }),
      prompt: 'Continue?',
      stopWhen: stepCountIs(3),
    });
    const question = await person.nextQuestion();
    expect(approvalOf(question.questions)).toBeUndefined();
    await question.answer({ answers: [{ id: 'go', selected: ['Yes'] }] });
    expect((await run).text).toBe('Going on.');
    expect(person.shown).toHaveLength(1);
  });
});

describe('askseamToolApproval in streamText', () => {
  it('denies with the person’s reason, which the model reads in the execution-denied output', async () => {
    person = await personAtHost();
    const { deleted, deleteBranch } = deleteBranchTool();
    const model = scriptedModel([callDelete, { text: 'Understood, keeping it.' }]);
    const result = streamText({
      model,
      tools: { delete_branch: deleteBranch },
      toolApproval: { delete_branch: askseamToolApprovalFor('delete_branch', { userQuestions: person.userQuestions, agent: person.agent, signal: neverStopped, description: 'Deletes a git branch.' }) },
      prompt: 'Clean up.',
      stopWhen: stepCountIs(3),
    });
    const question = await person.nextQuestion();
    expect(approvalOf(question.questions)).toMatchObject({ toolName: 'delete_branch', toolDescription: 'Deletes a git branch.' });
    await question.answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'QA still uses it.' }] });

    expect(await result.text).toBe('Understood, keeping it.');
    expect(deleted).toEqual([]);
    expect(toolResultsSeen(model, 1)).toEqual([expect.objectContaining({ toolName: 'delete_branch', output: { type: 'execution-denied', reason: 'QA still uses it.' } })]);
  });
});

describe('askseamToolApproval in a ToolLoopAgent', () => {
  it('gates the agent’s tool on the person’s approval', async () => {
    person = await personAtHost();
    const { deleted, deleteBranch } = deleteBranchTool();
    const model = scriptedModel([callDelete, { text: 'Done.' }]);
    const agent = new ToolLoopAgent({
      model,
      tools: { delete_branch: deleteBranch },
      toolApproval: askseamToolApproval({ userQuestions: person.userQuestions, agent: person.agent, signal: neverStopped, tools: ['delete_branch'] }),
      stopWhen: stepCountIs(3),
    });
    const run = agent.generate({ prompt: 'Clean up.' });
    const question = await person.nextQuestion();
    await question.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    expect((await run).text).toBe('Done.');
    expect(deleted).toEqual(['feature/old']);
  });
});

describe('the user-approval round trip', () => {
  it('stops at the request, asks the person through askseam, and continues from the response message', async () => {
    person = await personAtHost();
    const { deleted, deleteBranch } = deleteBranchTool();
    const model = scriptedModel([callDelete, { text: 'Deleted it.' }]);
    const tools = { delete_branch: deleteBranch };
    const messages: ModelMessage[] = [{ role: 'user', content: 'Clean up.' }];
    const first = await generateText({ model, tools, toolApproval: { delete_branch: { type: 'user-approval', reason: 'It was merged.' } }, messages, stopWhen: stepCountIs(3) });
    const requests = pendingApprovalRequests(first.content);
    expect(requests).toEqual([expect.objectContaining({ type: 'tool-approval-request', reason: 'It was merged.' })]);
    expect(deleted).toEqual([]);

    const answering = answerApprovalRequests({ userQuestions: person.userQuestions, agent: person.agent, requests, tools });
    const question = await person.nextQuestion();
    expect(approvalOf(question.questions)).toMatchObject({ toolName: 'delete_branch', reason: 'It was merged.', toolDescription: 'Deletes a git branch on the remote.' });
    await question.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });
    const response = await answering;
    expect(response).toEqual({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requests[0]!.approvalId, approved: true }] });

    const second = await generateText({ model, tools, messages: [...messages, ...first.response.messages, response!], stopWhen: stepCountIs(3) });
    expect(deleted).toEqual(['feature/old']);
    expect(second.text).toBe('Deleted it.');
    expect(toolResultsSeen(model, 1)).toEqual([expect.objectContaining({ toolName: 'delete_branch', output: { type: 'text', value: 'Deleted feature/old.' } })]);
  });

  it('resolves undefined and asks nobody when no request waits', async () => {
    person = await personAtHost();
    expect(await answerApprovalRequests({ userQuestions: person.userQuestions, agent: person.agent, requests: [] })).toBeUndefined();
    expect(person.shown).toEqual([]);
  });
});
