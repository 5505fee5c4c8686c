import type { PlanModeErrorCode } from './execute.js';

/** What the model should do after each of plan mode's own failures (the seam's are in tool-ask-user). */
export const planModeErrorHints: Readonly<Record<PlanModeErrorCode, string>> = {
  NO_AGENT:
    'This is a setup problem of the application, not a fault in your call. Do not retry; stay in plan mode and present the plan in your reply instead.',
  NOT_IN_PLAN_MODE: 'There is no plan to approve. Do not call exit_plan_mode; carry on with your task.',
  INVALID_PLAN: 'Rewrite the plan so that its first line is a "# " title, followed by the steps, and call exit_plan_mode again.',
  NO_SEAM:
    'Nobody can review the plan here (a setup problem, not a fault in your call). Do not retry; stay in plan mode and present the plan in your reply instead.',
};

/** The hint for a dismissed review: the user wants to talk, so the agent waits in plan mode. */
export const dismissedReviewHint = 'Stay in plan mode and wait for their message.';

/** Added to every other failure of the review, so the model never reads an error as consent. */
export const stillPlanningNote = 'The plan was not approved; you are still in plan mode.';
