import { UserQuestions } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { AiSdkError } from './errors.js';
import { answerApprovalRequests, toolApprovalResponse } from './approval-requests.js';
import { askseamToolApproval, askseamToolApprovalFor } from './tool-approval.js';
import { createAskClarificationTool, createAskUserQuestionTool, createExitPlanModeTool } from './tools.js';

const userQuestions = new UserQuestions();
const signal = new AbortController().signal;

function refusal(build: () => unknown): AiSdkError {
  try {
    build();
  } catch (error) {
    if (AiSdkError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an AiSdkError');
}

describe('wiring mistakes are refused when the tool or approval is built', () => {
  it.each([
    ['no options', () => createAskUserQuestionTool(undefined as never), /createAskUserQuestionTool needs an options object/],
    ['no seam', () => createAskUserQuestionTool({} as never), /createAskUserQuestionTool: userQuestions must be the UserQuestions seam/],
    ['a timeout of zero', () => createAskUserQuestionTool({ userQuestions, timeoutMs: 0 }), /timeoutMs must be a positive number of milliseconds or left out; it is number 0/],
    ['a signal that is not one', () => createAskUserQuestionTool({ userQuestions, signal: 'stop' as never }), /signal must be an AbortSignal or left out; it is the string "stop"/],
    ['exit_plan_mode without PlanMode', () => createExitPlanModeTool({ userQuestions } as never), /planMode must be the PlanMode of @askseam\/plan-mode/],
    ['an approval without a seam', () => askseamToolApproval({} as never), /askseamToolApproval: userQuestions must be the UserQuestions seam/],
    ['tools that are not names', () => askseamToolApproval({ userQuestions, signal, tools: ['deploy', ' '] }), /tools must be an array of tool names \(non-blank strings\)/],
    ['a reason that is not a function', () => askseamToolApproval({ userQuestions, signal, reason: 'because' as never }), /reason must be a function of the tool call/],
    ['an approval without the run’s signal', () => askseamToolApproval({ userQuestions } as never), /askseamToolApproval: signal is required: pass the abortSignal you give the run/],
    ['a per-tool approval without the run’s signal', () => askseamToolApprovalFor('deploy', { userQuestions } as never), /askseamToolApprovalFor: signal is required/],
    ['a per-tool approval without a name', () => askseamToolApprovalFor('', { userQuestions, signal }), /the first argument must be the tool's name/],
    ['a response without an approval id', () => toolApprovalResponse('', { approved: true }), /approvalId must be the approvalId/],
  ])('%s → INVALID_OPTIONS', (_case, build, message) => {
    const error = refusal(build);
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toMatch(message);
  });

  it('lets a clarify tool go without a seam when the run is not interactive', () => {
    expect(createAskClarificationTool({ interactive: false })).toHaveProperty('execute');
  });

  it('refuses requests that are not an array', async () => {
    await expect(answerApprovalRequests({ userQuestions, requests: undefined as never })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('askseamToolApproval outside any run', () => {
  it('leaves tools it is not told to gate alone, without asking', async () => {
    const approval = askseamToolApproval({ userQuestions, signal, tools: ['deploy'] });
    await expect(approval({ toolCall: { toolName: 'read_file', toolCallId: 'c1', input: {} }, tools: undefined })).resolves.toBe('not-applicable');
  });

  it('denies, saying nobody could decide, when the card cannot be asked (no provider), instead of throwing into the loop', async () => {
    const approval = askseamToolApproval({ userQuestions, signal });
    const status = await approval({ toolCall: { toolName: 'deploy', toolCallId: 'c1', input: { env: 'prod' } }, tools: undefined });
    expect(status).toEqual({ type: 'denied', reason: expect.stringMatching(/^Not run: the approval for deploy could not be asked \(NO_PROVIDER: /) });
  });

  it('denies when the run is stopped while the person’s Approve is on its way (fail closed)', async () => {
    const controller = new AbortController();
    const seam = new UserQuestions();
    // The provider ignores the signal and answers Approve, and the run is stopped in the same moment.
    seam.registerProvider({
      ask: async () => {
        controller.abort();
        return { answers: [{ id: 'tool-approval', selected: ['Approve'] }] };
      },
    });
    const approval = askseamToolApproval({ userQuestions: seam, signal: controller.signal });
    const status = await approval({ toolCall: { toolName: 'deploy', toolCallId: 'c1', input: { env: 'prod' } }, tools: undefined });
    expect(status).toEqual({ type: 'denied', reason: 'Not run: the approval request for deploy was withdrawn because the run was stopped.' });
  });

  it('denies, saying why, when the input is too large to show on a card', async () => {
    const seam = new UserQuestions();
    seam.registerProvider({ ask: async () => ({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] }) });
    const approval = askseamToolApproval({ userQuestions: seam, signal });
    const status = await approval({ toolCall: { toolName: 'upload', toolCallId: 'c1', input: { blob: 'x'.repeat(70_000) } }, tools: undefined });
    expect(status).toEqual({ type: 'denied', reason: expect.stringMatching(/^Not run: the approval for upload could not be asked \(BAD_INTENT: /) });
  });
});
