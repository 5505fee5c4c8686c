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

// The factories share their names with the askseam tool objects they wrap, on purpose: in this
// package each builds the AI SDK tool of that askseam tool for one agent (docs/decisions.md).

/** `ask_user_question` as an AI SDK tool: put it in `tools` under `ask_user_question`. */
export function askUserQuestionTool(options: AskUserQuestionContext): AskseamAiSdkTool {
  checkCommon('askUserQuestionTool', options, { seamRequired: true });
  return toAiSdkTool(askUserQuestionBase, { ...options });
}

/** `exit_plan_mode` as an AI SDK tool: the person reviews the plan; plan mode ends only on approval. */
export function exitPlanModeTool(options: ExitPlanModeContext): AskseamAiSdkTool {
  checkCommon('exitPlanModeTool', options, { seamRequired: true });
  if (!(options.planMode instanceof PlanMode)) {
    throw new AiSdkError('INVALID_OPTIONS', 'exitPlanModeTool: planMode must be the PlanMode of @askseam/plan-mode whose state the approval ends.');
  }
  return toAiSdkTool(exitPlanModeBase, { ...options });
}

/** `ask_clarification` (DeerFlow-style) as an AI SDK tool. */
export function askClarificationTool(options: ClarifyToolContext): AskseamAiSdkTool {
  checkCommon('askClarificationTool', options, { seamRequired: options?.interactive !== false });
  return toAiSdkTool(askClarificationBase, { ...options });
}

/** `request_human_input` (12-factor) as an AI SDK tool. */
export function requestHumanInputTool(options: ClarifyToolContext): AskseamAiSdkTool {
  checkCommon('requestHumanInputTool', options, { seamRequired: options?.interactive !== false });
  return toAiSdkTool(requestHumanInputBase, { ...options });
}

/** `request_clarification` (missing fields of a business tool call) as an AI SDK tool. */
export function requestClarificationTool(options: RequestClarificationContext): AskseamAiSdkTool {
  checkCommon('requestClarificationTool', options, { seamRequired: options?.interactive !== false });
  return toAiSdkTool(requestClarificationBase, { ...options });
}

function checkCommon(factory: string, options: unknown, { seamRequired }: { seamRequired: boolean }): void {
  requireOptions(factory, options);
  if (seamRequired || options.userQuestions !== undefined) requireSeam(factory, options.userQuestions);
  checkTimeout(factory, options.timeoutMs);
  checkSignal(factory, options.signal);
}
