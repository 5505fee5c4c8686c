import { askToolErrorHints, errorResult, toolErrorResult, type AskToolResult } from '@askseam/tool-ask-user';
import type { AskUserQuestionRequest } from '@askseam/user-questions';
import { ClarifyError } from './errors.js';
import type { ClarifyToolContext } from './execute.js';
import { resumePendingAction, type ResumedAction } from './pending-action.js';
import type { PhraseMissingFields } from './phrase.js';
import { readRequestClarificationArgs } from './request-clarification-args.js';
import { preparePendingAction } from './request-clarification.js';
import type { PendingAction } from './request-clarification-schema.js';

/** What the host passes with each request_clarification call: the clarification context plus the phrasing step. */
export interface RequestClarificationContext extends ClarifyToolContext {
  /** The phrasing step (an LLM call in production). Default: `defaultPhrase`. */
  phrase?: PhraseMissingFields;
}

/**
 * Run one request_clarification call: read the declared missing fields, word them for the user,
 * ask through the seam and wait, then tell the model the merged arguments to call its tool with.
 * Never throws.
 */
export async function executeRequestClarification(args: unknown, context: RequestClarificationContext): Promise<AskToolResult> {
  const read = readRequestClarificationArgs(args);
  if (!read.ok) return errorResult('INVALID_ARGUMENTS', read.error.message, askToolErrorHints.INVALID_ARGUMENTS);
  const pending = read.value;
  if (context.interactive === false) return { isError: false, text: nonInteractiveClarificationText(pending) };
  if (context.userQuestions === undefined) {
    return errorResult('NO_PROVIDER', 'No user-question seam is configured, so there is no one to ask.', askToolErrorHints.NO_PROVIDER);
  }
  const prepared = await preparePendingAction(pending, {
    ...(context.phrase === undefined ? {} : { phrase: context.phrase }),
    ...(context.lang === undefined ? {} : { lang: context.lang }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  if (!prepared.ok) return errorResult('INVALID_ARGUMENTS', prepared.error.message, askToolErrorHints.INVALID_ARGUMENTS);

  const request: AskUserQuestionRequest = { ...prepared.value.request };
  if (context.agent !== undefined) request.agent = context.agent;
  if (context.signal !== undefined) request.signal = context.signal;
  if (context.timeoutMs !== undefined) request.timeoutMs = context.timeoutMs;
  try {
    const answer = await context.userQuestions.ask(request);
    return { isError: false, text: resumedActionText(resumePendingAction(pending, answer)) };
  } catch (error) {
    // The seam checked the answer against these very questions, so a misfit here is a provider's fault.
    if (ClarifyError.isInstance(error)) return errorResult('BAD_ANSWER', error.message, askToolErrorHints.BAD_ANSWER);
    return toolErrorResult(error);
  }
}

/**
 * What the model reads once the user answered: the tool and its merged arguments as compact JSON,
 * the optional fields skipped, and what to do next.
 */
export function resumedActionText(resumed: ResumedAction): string {
  const { tool, args, skipped } = resumed;
  const next =
    skipped.length === 0
      ? `The user gave the missing values. Call ${tool} now with exactly these arguments.`
      : `The user gave the missing values and skipped the optional ${skipped.length === 1 ? 'field' : 'fields'} in "skipped". Call ${tool} now with exactly these arguments; do not ask for the skipped ${skipped.length === 1 ? 'one' : 'ones'} again.`;
  return JSON.stringify({ tool, arguments: args, ...(skipped.length === 0 ? {} : { skipped }), next });
}

/** The result when no human is present in this run: decide on stated assumptions, or report what is missing. */
export function nonInteractiveClarificationText(pending: PendingAction): string {
  const names = pending.missing.map((field) => field.name).join(', ');
  return (
    `Nobody can answer questions in this run (it is not interactive), so the missing arguments of ${pending.tool} (${names}) were not asked for. ` +
    `Do not wait and do not ask again: if reasonable values can be assumed, call ${pending.tool} with them and state each assumption clearly; otherwise do not call it, and list what is missing in your final result.`
  );
}
