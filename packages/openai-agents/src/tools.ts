import {
  askClarificationTool as askClarification,
  requestClarificationTool as requestClarification,
  requestHumanInputTool as requestHumanInput,
  type ClarifyToolContext,
  type RequestClarificationContext,
} from '@askseam/clarify';
import { exitPlanModeTool as exitPlanMode, type ExitPlanModeContext } from '@askseam/plan-mode';
import { askUserQuestionTool as askUserQuestion, type AskUserQuestionContext } from '@askseam/tool-ask-user';
import type { FunctionTool } from '@openai/agents';
import { agentsToolFrom } from './agents-tool.js';

// One factory per askseam tool, named `create…Tool` (`askUserQuestionTool` is the tool object of
// @askseam/tool-ask-user, in every package). Each takes the tool's own context (the seam, the
// calling agent, a timeout…); the run's abort signal is added per call.

/** `ask_user_question` as an Agents SDK tool, in strict mode with askseam's strict schema. */
export function createAskUserQuestionTool(context: AskUserQuestionContext): FunctionTool {
  return agentsToolFrom(askUserQuestion, context);
}

/**
 * `exit_plan_mode` as an Agents SDK tool, in strict mode: its one field, `plan`, is required, so
 * its schema is already strict.
 */
export function createExitPlanModeTool(context: ExitPlanModeContext): FunctionTool {
  return agentsToolFrom(exitPlanMode, context, { strict: true });
}

/**
 * `ask_clarification` as an Agents SDK tool. Not strict: its optional fields stay optional, so the
 * model may leave them out, and askseam reads what it sends (leniently, as documented in clarify).
 */
export function createAskClarificationTool(context: ClarifyToolContext): FunctionTool {
  return agentsToolFrom(askClarification, context);
}

/** `request_human_input` as an Agents SDK tool (not strict, like `ask_clarification`). */
export function createRequestHumanInputTool(context: ClarifyToolContext): FunctionTool {
  return agentsToolFrom(requestHumanInput, context);
}

/**
 * `request_clarification` as an Agents SDK tool. Not strict: its free-form `known_args` object has
 * no strict form (the SDK refuses to make it strict).
 */
export function createRequestClarificationTool(context: RequestClarificationContext): FunctionTool {
  return agentsToolFrom(requestClarification, context);
}
