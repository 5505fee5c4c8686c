import { UserQuestionError, type AskUserQuestionAnswer, type UserQuestionErrorCode } from '@askseam/user-questions';
import { askToolErrorHints } from './hints.js';

/**
 * Why a tool call failed. The seam's codes, plus two that belong to the tool alone:
 * `INVALID_ARGUMENTS` (the model's arguments do not fit the schema; nothing was asked) and
 * `PROVIDER_FAILED` (something other than a `UserQuestionError` was thrown while asking,
 * normally by the provider; its message is kept).
 */
export type AskToolErrorCode = UserQuestionErrorCode | 'INVALID_ARGUMENTS' | 'PROVIDER_FAILED';

export interface AskToolSuccess {
  isError: false;
  /** What the model reads: for ask_user_question, the compact JSON of the answers. */
  text: string;
}

export interface AskToolFailure<Code extends string = AskToolErrorCode> {
  isError: true;
  /** `Error: <message>` and, on the next line, what the model should do now. */
  text: string;
  code: Code;
}

/**
 * What a tool hands back to the model loop. Errors are values, never thrown at the loop. Other
 * tools (plan mode) widen `Code` with their own codes and keep the same shape.
 */
export type AskToolResult<Code extends string = AskToolErrorCode> = AskToolSuccess | AskToolFailure<Code>;

/** An error result in the one shape every askseam tool uses: `Error: <message>\n<hint>`. */
export function errorResult<Code extends string>(code: Code, message: string, hint: string): AskToolFailure<Code> {
  return { isError: true, text: `Error: ${message}\n${hint}`, code };
}

/**
 * Any thrown value as an error result: a `UserQuestionError` keeps its code and message and gets
 * that code's hint; anything else becomes `PROVIDER_FAILED` with its message kept.
 */
export function toolErrorResult(error: unknown): AskToolFailure {
  if (UserQuestionError.isInstance(error) && isKnownCode(error.code)) {
    return errorResult(error.code, error.message, askToolErrorHints[error.code]);
  }
  return errorResult('PROVIDER_FAILED', `Asking the user failed: ${messageOf(error)}`, askToolErrorHints.PROVIDER_FAILED);
}

/** The answer as the model reads it: compact JSON, `custom` only where the user typed one. */
export function answerText(answer: AskUserQuestionAnswer): string {
  // Written field by field, not copied first: the key order is fixed and nothing else a provider
  // attached leaks out (the seam has already made the caller's one copy of the answer).
  const items = answer.answers.map(({ id, selected, custom }) => {
    const head = `{"id":${JSON.stringify(id)},"selected":${JSON.stringify(selected)}`;
    return custom === undefined ? `${head}}` : `${head},"custom":${JSON.stringify(custom)}}`;
  });
  return `{"answers":[${items.join(',')}]}`;
}

// A UserQuestionError from a newer copy of the seam may carry a code this table does not know yet.
function isKnownCode(code: string): code is AskToolErrorCode {
  return Object.hasOwn(askToolErrorHints, code);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return String(error);
}
