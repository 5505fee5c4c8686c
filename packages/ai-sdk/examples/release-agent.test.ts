// The example app, run for real: the SDK's mock model scripts the calls, a real host and client answer.
import { approvalOf } from '@askseam/client';
import { afterEach, describe, expect, it } from 'vitest';
import { personAtHost, type Person } from '@askseam/test-support';
import { scriptedModel, toolResultsSeen } from '../test/scripted-model.js';
import { releaseWithApprovalStop, runRelease, runReleaseAgent } from './release-agent.js';

let person: Person;
afterEach(async () => {
  await person?.close();
});

const whichBranch = {
  toolCall: {
    name: 'ask_user_question',
    input: { questions: [{ id: 'branch', question: 'Which branch should I delete?', options: [{ label: 'feature/old' }, { label: 'feature/older' }] }] },
  },
};
const deleteOld = { toolCall: { name: 'delete_branch', input: { branch: 'feature/old' }, id: 'call-delete' } };

describe('the release agent (examples/release-agent.ts)', () => {
  it('asks a question, then asks approval, then deletes: the person answers both', async () => {
    person = await personAtHost();
    const removed: string[] = [];
    const model = scriptedModel([whichBranch, deleteOld, { text: 'Deleted feature/old.' }]);
    const run = runReleaseAgent(
      { model, userQuestions: person.userQuestions, agent: person.agent, removeBranch: async (branch) => void removed.push(branch) },
      'Clean up merged branches.',
      new AbortController().signal,
    );

    const question = await person.nextQuestion();
    expect(approvalOf(question.questions)).toBeUndefined();
    await question.answer({ answers: [{ id: 'branch', selected: ['feature/old'] }] });
    const approval = await person.nextQuestion();
    expect(approvalOf(approval.questions)).toMatchObject({ toolName: 'delete_branch', input: { branch: 'feature/old' } });
    await approval.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    expect((await run).text).toBe('Deleted feature/old.');
    expect(removed).toEqual(['feature/old']);
    expect(toolResultsSeen(model, 1)).toEqual([expect.objectContaining({ output: { type: 'text', value: '{"answers":[{"id":"branch","selected":["feature/old"]}]}' } })]);
  });

  it.each([
    ['generateText run', runRelease],
    ['ToolLoopAgent run', runReleaseAgent],
  ])('stops a %s and closes its approval card with one signal: an Approve given after the stop runs nothing', async (_kind, runWith) => {
    person = await personAtHost();
    const removed: string[] = [];
    const controller = new AbortController();
    const run = runWith(
      { model: scriptedModel([deleteOld, { text: 'unreached' }]), userQuestions: person.userQuestions, agent: person.agent, removeBranch: async (branch) => void removed.push(branch) },
      'Clean up.',
      controller.signal,
    );
    run.catch(() => undefined);
    const card = await person.nextQuestion();
    const resolved = person.nextResolved();
    controller.abort();
    expect(await resolved).toMatchObject({ rpcId: card.rpcId, outcome: 'cancelled' });
    // The person had the card open and presses Approve after the stop: the host refuses it.
    await expect(card.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] })).rejects.toThrow();
    await expect(run).rejects.toThrow();
    expect(removed).toEqual([]);
    expect(person.host.pending()).toEqual([]);
  });

  it('denies through the user-approval round trip, and the model reads the person’s reason', async () => {
    person = await personAtHost();
    const removed: string[] = [];
    const model = scriptedModel([deleteOld, { text: 'Kept it.' }]);
    const run = releaseWithApprovalStop(
      { model, userQuestions: person.userQuestions, agent: person.agent, removeBranch: async (branch) => void removed.push(branch) },
      [{ role: 'user', content: 'Clean up.' }],
    );
    const card = await person.nextQuestion();
    await card.answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'Not before the release.' }] });

    expect((await run).text).toBe('Kept it.');
    expect(removed).toEqual([]);
    expect(toolResultsSeen(model, 1)).toEqual([expect.objectContaining({ toolCallId: 'call-delete', output: { type: 'execution-denied', reason: 'Not before the release.' } })]);
  });
});
