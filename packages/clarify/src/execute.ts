import { askToolErrorHints, errorResult, toolErrorResult, type AskToolResult } from '@askseam/tool-ask-user';
import type { AgentRef, AskUserQuestionRequest, UserQuestions } from '@askseam/user-questions';
import { compileAskClarification } from './ask-clarification-compile.js';
import type { CompileOptions, CompileResult } from './compiled.js';
import { nonInteractiveText } from './description.js';
import { compileRequestHumanInput } from './request-human-input.js';
import { clarificationResultText } from './result.js';

/** What the host passes with each call of a clarification tool. */
export interface ClarifyToolContext extends CompileOptions {
  /** The seam. Needed unless the run is not interactive. */
  userQuestions?: Pick<UserQuestions, 'ask'>;
  /** The calling agent, the registry's own object (the seam compares by identity). */
  agent?: AgentRef;
  /** Aborting it withdraws the question (`ASK_ABORTED`). */
  signal?: AbortSignal;
  /** Give up after this many milliseconds (`ASK_TIMEOUT`). */
  timeoutMs?: number;
  /**
   * `false` when no human is present in this run (a webhook or scheduled run): nothing is asked,
   * and the model is told to proceed on stated assumptions. Default `true`.
   */
  interactive?: boolean;
}

/** Run one ask_clarification call: compile, ask through the seam, and answer the model in JSON. Never throws. */
export function executeAskClarification(args: unknown, context: ClarifyToolContext): Promise<AskToolResult> {
  return execute(compileAskClarification(args, compileOptions(context)), context);
}

/** Run one request_human_input call: compile, ask through the seam (urgency included), and answer in JSON. Never throws. */
export function executeRequestHumanInput(args: unknown, context: ClarifyToolContext): Promise<AskToolResult> {
  return execute(compileRequestHumanInput(args, compileOptions(context)), context);
}

function compileOptions({ lang, budget }: ClarifyToolContext): CompileOptions {
  return { ...(lang === undefined ? {} : { lang }), ...(budget === undefined ? {} : { budget }) };
}

async function execute(compiled: CompileResult, context: ClarifyToolContext): Promise<AskToolResult> {
  if (!compiled.ok) return errorResult('INVALID_ARGUMENTS', compiled.error.message, askToolErrorHints.INVALID_ARGUMENTS);
  const { value } = compiled;
  if (context.interactive === false) return { isError: false, text: nonInteractiveText(value.humanInput.question) };
  if (context.userQuestions === undefined) {
    return errorResult('NO_PROVIDER', 'No user-question seam is configured, so there is no one to ask.', askToolErrorHints.NO_PROVIDER);
  }
  const request: AskUserQuestionRequest = { ...value.request };
  if (context.agent !== undefined) request.agent = context.agent;
  if (context.signal !== undefined) request.signal = context.signal;
  if (context.timeoutMs !== undefined) request.timeoutMs = context.timeoutMs;
  try {
    const answer = await context.userQuestions.ask(request);
    return { isError: false, text: clarificationResultText(value, answer) };
  } catch (error) {
    return toolErrorResult(error);
  }
}
