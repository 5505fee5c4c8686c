import {
  askClarificationTool as askClarificationBase,
  requestClarificationTool as requestClarificationBase,
  requestHumanInputTool as requestHumanInputBase,
  type ClarifyToolContext,
  type RequestClarificationContext,
} from '@askseam/clarify';
import { PlanMode, exitPlanModeTool as exitPlanModeBase, type ExitPlanModeContext } from '@askseam/plan-mode';
import { askUserQuestionTool as askUserQuestionBase, type AskUserQuestionContext } from '@askseam/tool-ask-user';
import { AiSdkError } from './errors.js';
import { checkSignal, checkTimeout, requireOptions, requireSeam } from './options.js';
import { toAiSdkTool, type AskseamAiSdkTool } from './to-ai-sdk-tool.js';

// One factory per askseam tool, named `create…Tool`: `askUserQuestionTool` and its siblings are the
// tool objects of @askseam/tool-ask-user, plan-mode and clarify, in every package (docs/decisions.md).

/** `ask_user_question` as an AI SDK tool: put it in `tools` under `ask_user_question`. */
export function createAskUserQuestionTool(options: AskUserQuestionContext): AskseamAiSdkTool {
  checkCommon('createAskUserQuestionTool', options, { seamRequired: true });
  return toAiSdkTool(askUserQuestionBase, { ...options });
}

/** `exit_plan_mode` as an AI SDK tool: the person reviews the plan; plan mode ends only on approval. */
export function createExitPlanModeTool(options: ExitPlanModeContext): AskseamAiSdkTool {
  checkCommon('createExitPlanModeTool', options, { seamRequired: true });
  if (!(options.planMode instanceof PlanMode)) {
    throw new AiSdkError('INVALID_OPTIONS', 'createExitPlanModeTool: planMode must be the PlanMode of @askseam/plan-mode whose state the approval ends.');
  }
  return toAiSdkTool(exitPlanModeBase, { ...options });
}

/** `ask_clarification` (DeerFlow-style) as an AI SDK tool. */
export function createAskClarificationTool(options: ClarifyToolContext): AskseamAiSdkTool {
  checkCommon('createAskClarificationTool', options, { seamRequired: options?.interactive !== false });
  return toAiSdkTool(askClarificationBase, { ...options });
}

/** `request_human_input` (12-factor) as an AI SDK tool. */
export function createRequestHumanInputTool(options: ClarifyToolContext): AskseamAiSdkTool {
  checkCommon('createRequestHumanInputTool', options, { seamRequired: options?.interactive !== false });
  return toAiSdkTool(requestHumanInputBase, { ...options });
}

/** `request_clarification` (missing fields of a business tool call) as an AI SDK tool. */
export function createRequestClarificationTool(options: RequestClarificationContext): AskseamAiSdkTool {
  checkCommon('createRequestClarificationTool', options, { seamRequired: options?.interactive !== false });
  return toAiSdkTool(requestClarificationBase, { ...options });
}

function checkCommon(factory: string, options: unknown, { seamRequired }: { seamRequired: boolean }): void {
  requireOptions(factory, options);
  if (seamRequired || options.userQuestions !== undefined) requireSeam(factory, options.userQuestions);
  checkTimeout(factory, options.timeoutMs);
  checkSignal(factory, options.signal);
}
