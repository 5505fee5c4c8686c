import type { AgentRef, AskUserQuestionRequest, UserQuestions } from '@askseam/user-questions';
import { parseAskUserQuestionArgs } from './arguments.js';
import { askToolErrorHints } from './hints.js';
import { answerText, errorResult, toolErrorResult, type AskToolResult } from './result.js';

/** What the host passes with each call: the seam, and who is asking. */
export interface AskUserQuestionContext {
  /** The seam. Anything with its `ask` works; pass the real `UserQuestions` so its gates run. */
  userQuestions: Pick<UserQuestions, 'ask'>;
  /** The calling agent, the registry's own object (the seam compares by identity). */
  agent?: AgentRef;
  /** Aborting it withdraws the question (`ASK_ABORTED`). */
  signal?: AbortSignal;
  /** Give up after this many milliseconds (`ASK_TIMEOUT`). */
  timeoutMs?: number;
}

/**
 * Run one `ask_user_question` call: read the model's arguments, ask through the seam, and return
 * the answers as compact JSON text. Every failure comes back as an error result; nothing is thrown.
 */
export async function executeAskUserQuestion(args: unknown, context: AskUserQuestionContext): Promise<AskToolResult> {
  const parsed = parseAskUserQuestionArgs(args);
  if (!parsed.ok) return errorResult('INVALID_ARGUMENTS', parsed.error.message, askToolErrorHints.INVALID_ARGUMENTS);

  const request: AskUserQuestionRequest = { questions: parsed.value };
  if (context.agent !== undefined) request.agent = context.agent;
  if (context.signal !== undefined) request.signal = context.signal;
  if (context.timeoutMs !== undefined) request.timeoutMs = context.timeoutMs;
  try {
    const answer = await context.userQuestions.ask(request);
    return { isError: false, text: answerText(answer) };
  } catch (error) {
    return toolErrorResult(error);
  }
}
