import { describe, expect, it } from 'vitest';
import { approvalDecisionOf, approvalQuestions, askApproval } from './approval.js';
import { UserQuestionError } from './errors.js';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from './schemas.js';
import { agentRegistry, scriptedProvider, waitForAbort } from './testing/index.js';
import type { AskUserQuestionRequest } from './types.js';
import { UserQuestions } from './user-questions.js';

const agent = { id: 'coder' };
const tool = { name: 'delete_branch', input: { branch: 'feature/x', force: true }, description: 'Deletes a git branch.' };

/** A live root agent and a provider whose reply the test writes. */
function seamAnswering(reply: (request: AskUserQuestionRequest) => AskUserQuestionAnswer | Promise<AskUserQuestionAnswer>) {
  const userQuestions = new UserQuestions({ agents: agentRegistry([agent]) });
  const provider = scriptedProvider(reply);
  userQuestions.registerProvider(provider);
  return { userQuestions, provider };
}

const answerWith = (item: { selected: string[]; custom?: string }) => (): AskUserQuestionAnswer => ({ answers: [{ id: 'tool-approval', ...item }] });

async function rejectionOf(promise: Promise<unknown>): Promise<UserQuestionError> {
  const error: unknown = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!UserQuestionError.isInstance(error)) throw new Error(`expected a UserQuestionError, got ${String(error)}`);
  return error;
}

describe('approvalQuestions', () => {
  it('builds one Approve / Deny question whose intent carries the tool and names Approve', () => {
    expect(approvalQuestions({ tool, reason: 'The branch was merged.' })).toEqual([
      {
        id: 'tool-approval',
        header: 'Tool approval',
        question: 'Allow the agent to run delete_branch?',
        detail: 'The branch was merged.',
        options: [
          { label: 'Approve', description: 'Run the tool with these arguments.' },
          { label: 'Deny', description: 'Do not run it. To tell the agent why, answer in your own words instead.' },
        ],
        intent: { kind: 'tool-approval', approve: 'Approve', tool },
      },
    ]);
  });

  it('words the question in Chinese for lang zh, approving 批准', () => {
    const [question] = approvalQuestions({ tool: { name: 'rm', input: [] }, lang: 'zh' });
    expect(question).toMatchObject({ header: '工具审批', question: '允许智能体运行 rm 吗？', options: [{ label: '批准' }, { label: '拒绝' }], intent: { approve: '批准' } });
    expect(question).not.toHaveProperty('detail');
  });

  it('refuses a request without a tool with BAD_INTENT', () => {
    expect(() => approvalQuestions({} as never)).toThrow(expect.objectContaining({ code: 'BAD_INTENT' }));
  });
});

describe('approvalDecisionOf', () => {
  const questions = approvalQuestions({ tool });

  it.each<[string, { selected: string[]; custom?: string } | undefined, unknown]>([
    ['Approve alone', { selected: ['Approve'] }, { approved: true }],
    ['Deny', { selected: ['Deny'] }, { approved: false }],
    ['own words (a reason), trimmed', { selected: [], custom: '  not on a Friday ' }, { approved: false, reason: 'not on a Friday' }],
    ['a skip', { selected: [] }, { approved: false }],
    ['no answer item for the question', undefined, { approved: false }],
  ])('reads %s', (_name, item, decision) => {
    const answer: AskUserQuestionAnswer = { answers: item === undefined ? [] : [{ id: 'tool-approval', ...item }] };
    expect(approvalDecisionOf(questions, answer)).toEqual(decision);
  });

  it('reads the approve label the intent names, not the first option', () => {
    const [question] = approvalQuestions({ tool });
    const swapped: AskUserQuestionItem = { ...question!, options: [{ label: 'No' }, { label: 'Ship it' }], intent: { kind: 'tool-approval', approve: 'Ship it', tool } };
    expect(approvalDecisionOf([swapped], { answers: [{ id: 'tool-approval', selected: ['No'] }] })).toEqual({ approved: false });
    expect(approvalDecisionOf([swapped], { answers: [{ id: 'tool-approval', selected: ['Ship it'] }] })).toEqual({ approved: true });
  });

  it('refuses questions that are not an approval with INVALID_QUESTIONS', () => {
    expect(() => approvalDecisionOf([{ id: 'q', question: 'Which?' }], { answers: [] })).toThrow(expect.objectContaining({ code: 'INVALID_QUESTIONS' }));
  });
});

describe('askApproval', () => {
  it('resolves approved when the person chooses Approve, asking through the seam with the agent and urgency', async () => {
    const { userQuestions, provider } = seamAnswering(answerWith({ selected: ['Approve'] }));
    await expect(askApproval(userQuestions, { tool, agent, urgency: 'high' })).resolves.toEqual({ approved: true });
    expect(provider.requests[0]).toMatchObject({ agent, urgency: 'high', questions: [{ id: 'tool-approval', intent: { kind: 'tool-approval', tool } }] });
  });

  it('resolves with who decided when the provider says (by), and without by when it cannot', async () => {
    const people = [
      { principalId: 'alex', via: 'websocket' },
      { principalId: 'sam', via: 'slack', user: 'U0SAM', destination: 'slack:C0123' },
    ];
    const userQuestions = new UserQuestions({ agents: agentRegistry([agent]) });
    userQuestions.registerProvider({
      ask: async (request) => {
        request.answeredBy?.(people);
        return { answers: [{ id: 'tool-approval', selected: ['Approve'] }] };
      },
    });
    const outcome = await askApproval(userQuestions, { tool, agent, quorum: { approvals: 2 } });
    expect(outcome).toEqual({ approved: true, by: people });
    // Its own copies: the provider's objects are not handed on.
    expect(outcome.by![1]).not.toBe(people[1]);
  });

  it('puts the quorum on the intent', () => {
    const [question] = approvalQuestions({ tool, quorum: { approvals: 2, from: [{ group: 'dba' }] } });
    expect(question!.intent).toEqual({ kind: 'tool-approval', approve: 'Approve', tool, quorum: { approvals: 2, from: [{ group: 'dba' }] } });
  });

  it('resolves denied with the reason the person wrote', async () => {
    const { userQuestions } = seamAnswering(answerWith({ selected: [], custom: 'Keep the branch until the release.' }));
    await expect(askApproval(userQuestions, { tool, agent })).resolves.toEqual({ approved: false, reason: 'Keep the branch until the release.' });
  });

  it('resolves denied without a reason when the person chooses Deny', async () => {
    const { userQuestions } = seamAnswering(answerWith({ selected: ['Deny'] }));
    await expect(askApproval(userQuestions, { tool, agent })).resolves.toEqual({ approved: false });
  });

  it('rejects ASK_CANCELLED when the person dismisses it: a dismissal is not a denial', async () => {
    const { userQuestions } = seamAnswering(() => {
      throw new UserQuestionError('ASK_CANCELLED', 'The user dismissed the questions.');
    });
    expect((await rejectionOf(askApproval(userQuestions, { tool, agent }))).code).toBe('ASK_CANCELLED');
  });

  it('rejects ASK_TIMEOUT when nobody decides in time', async () => {
    const { userQuestions } = seamAnswering(waitForAbort);
    expect((await rejectionOf(askApproval(userQuestions, { tool, agent, timeoutMs: 1 }))).code).toBe('ASK_TIMEOUT');
  });

  it('rejects ASK_ABORTED when the run is withdrawn, and the provider sees the abort', async () => {
    const { userQuestions, provider } = seamAnswering(waitForAbort);
    const run = new AbortController();
    const decision = askApproval(userQuestions, { tool, agent, signal: run.signal });
    await expect.poll(() => provider.requests.length).toBe(1);
    run.abort();
    expect((await rejectionOf(decision)).code).toBe('ASK_ABORTED');
    expect(provider.requests[0]?.signal?.aborted).toBe(true);
  });

  it('rejects BAD_INTENT for an input that is not JSON, asking nobody', async () => {
    const { userQuestions, provider } = seamAnswering(answerWith({ selected: ['Approve'] }));
    const error = await rejectionOf(askApproval(userQuestions, { tool: { name: 'x', input: { at: new Date() } }, agent }));
    expect(error.code).toBe('BAD_INTENT');
    expect(error.message).toContain('tool.input.at is an instance of Date');
    expect(provider.requests).toHaveLength(0);
  });
});
