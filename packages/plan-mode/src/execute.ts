import { askToolErrorHints, errorResult, toolErrorResult, type AskToolErrorCode, type AskToolResult } from '@askseam/tool-ask-user';
import { hasUserQuestionErrorCode, type AgentRef, type AskUserQuestionAnswer, type AskUserQuestionRequest, type UserQuestions } from '@askseam/user-questions';
import { parseExitPlanModeArgs } from './arguments.js';
import { dismissedReviewHint, planModeErrorHints, stillPlanningNote } from './hints.js';
import { planProblem } from './plan.js';
import type { PlanMode } from './plan-mode.js';
import { isPlanApproved, planFeedback, planReviewQuestion } from './review.js';

/**
 * Plan mode's own failures: no calling agent, the agent is not in plan mode, the plan is not a
 * Markdown document with a "# " title, or there is no seam to ask through.
 */
export type PlanModeErrorCode = 'NO_AGENT' | 'NOT_IN_PLAN_MODE' | 'INVALID_PLAN' | 'NO_SEAM';

/** Every code an `exit_plan_mode` error result can carry. */
export type ExitPlanModeErrorCode = AskToolErrorCode | PlanModeErrorCode;

/** What `exit_plan_mode` hands back to the model loop: the shape of every askseam tool result. */
export type ExitPlanModeResult = AskToolResult<ExitPlanModeErrorCode>;

export interface ExitPlanModeContext {
  /** The seam the review goes through. Without it the call fails `NO_SEAM`. */
  userQuestions?: Pick<UserQuestions, 'ask'> | undefined;
  /** The calling agent, the registry's own object (the seam compares by identity). */
  agent?: AgentRef | undefined;
  /** Whose plan mode the approval ends. */
  planMode: PlanMode;
  /** Aborting it withdraws the review (`ASK_ABORTED`). */
  signal?: AbortSignal | undefined;
  /** Give up after this many milliseconds (`ASK_TIMEOUT`). */
  timeoutMs?: number | undefined;
}

/**
 * Run one `exit_plan_mode` call: check it, ask the user to review the plan, and end plan mode only
 * on consent. Every failure comes back as an error result; nothing is thrown.
 */
export async function executeExitPlanMode(args: unknown, context: ExitPlanModeContext): Promise<ExitPlanModeResult> {
  const { agent, planMode, userQuestions } = context;
  // The checks of docs/design.md ("Plan mode: exit_plan_mode"), in order.
  if (agent === undefined) {
    return errorResult('NO_AGENT', 'exit_plan_mode was called without a calling agent, so there is no plan mode to end.', planModeErrorHints.NO_AGENT);
  }
  if (!planMode.isActive(agent.id)) {
    return errorResult('NOT_IN_PLAN_MODE', `Agent "${agent.id}" is not in plan mode.`, planModeErrorHints.NOT_IN_PLAN_MODE);
  }
  const parsed = parseExitPlanModeArgs(args);
  if (!parsed.ok) return errorResult('INVALID_ARGUMENTS', parsed.error.message, askToolErrorHints.INVALID_ARGUMENTS);
  const { plan } = parsed.value;
  const problem = planProblem(plan);
  if (problem !== undefined) return errorResult('INVALID_PLAN', problem, planModeErrorHints.INVALID_PLAN);
  if (userQuestions === undefined) {
    return errorResult('NO_SEAM', 'No user-question seam is configured, so nobody can review the plan.', planModeErrorHints.NO_SEAM);
  }

  const request: AskUserQuestionRequest = { questions: [planReviewQuestion(plan)], agent };
  if (context.signal !== undefined) request.signal = context.signal;
  if (context.timeoutMs !== undefined) request.timeoutMs = context.timeoutMs;
  let answer: AskUserQuestionAnswer;
  try {
    answer = await userQuestions.ask(request);
  } catch (error) {
    return reviewFailure(error);
  }

  if (isPlanApproved(answer)) {
    // Re-checked after the wait: if plan mode ended meanwhile (another review of this agent was
    // approved first), this approval must not tell the model to implement a second plan.
    if (!planMode.exit(agent.id)) {
      return errorResult(
        'NOT_IN_PLAN_MODE',
        `Agent "${agent.id}" left plan mode while this plan was under review, so this approval changes nothing.`,
        planModeErrorHints.NOT_IN_PLAN_MODE,
      );
    }
    return { isError: false, text: 'The user approved the plan. Plan mode is off: implement the plan as written.' };
  }
  const feedback = planFeedback(answer);
  if (feedback === undefined) {
    return {
      isError: false,
      text:
        'The user did not approve the plan. You are still in plan mode: do not start implementing. ' +
        'Ask what they would like changed or refine the plan, then call exit_plan_mode again.',
    };
  }
  return {
    isError: false,
    text:
      `The user did not approve the plan yet and wrote:\n\n${feedback}\n\n` +
      'You are still in plan mode: revise the plan with this feedback, then call exit_plan_mode again.',
  };
}

function reviewFailure(error: unknown): ExitPlanModeResult {
  // A dismissed review means "let me talk", not "stop": the agent waits, still planning.
  if (hasUserQuestionErrorCode(error, 'ASK_CANCELLED')) {
    return errorResult('ASK_CANCELLED', 'The user dismissed the plan review to speak instead.', dismissedReviewHint);
  }
  const failure = toolErrorResult(error);
  return { ...failure, text: `${failure.text}\n${stillPlanningNote}` };
}
