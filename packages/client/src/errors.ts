import type { AnswerMismatch } from '@askseam/user-questions';

/** Every code a `QuestionClientError` can carry. */
export const questionClientErrorCodes = [
  // answer()/cancel() rejections
  'invalid-answer',
  'not-pending',
  'bad-response',
  'forbidden',
  'not-connected',
  'closed',
  // 'error' events
  'protocol',
  'connection-failed',
  // connectQuestions() misuse
  'invalid-options',
] as const;

export type QuestionClientErrorCode = (typeof questionClientErrorCodes)[number];

export interface QuestionClientErrorOptions extends ErrorOptions {
  /** The question the failed call was about. */
  rpcId?: string;
  /** The host's receipt detail, the local mismatch message, or what the host / socket reported. */
  detail?: string;
  /** On `invalid-answer`: the rule the answer broke, and the question to blame when one is. */
  mismatch?: AnswerMismatch;
}

// A registry symbol, not a module-local one: two installed copies of this package (a web UI
// bundle and an app) must still recognise each other's errors.
const marker: unique symbol = Symbol.for('askseam.client.error') as never;

export class QuestionClientError extends Error {
  readonly [marker] = true;
  override readonly name = 'QuestionClientError';
  readonly code: QuestionClientErrorCode;
  readonly rpcId?: string;
  readonly detail?: string;
  /**
   * On `invalid-answer`: the local check's whole result (rule, question id, message), so a UI can
   * point at the question to fix without checking the answer a second time.
   */
  readonly mismatch?: AnswerMismatch;

  constructor(code: QuestionClientErrorCode, message: string, options: QuestionClientErrorOptions = {}) {
    const { rpcId, detail, mismatch, ...errorOptions } = options;
    super(message, errorOptions);
    this.code = code;
    if (rpcId !== undefined) this.rpcId = rpcId;
    if (detail !== undefined) this.detail = detail;
    if (mismatch !== undefined) this.mismatch = mismatch;
  }

  /** True for a `QuestionClientError` from any copy of this package (where `instanceof` fails). */
  static isInstance(value: unknown): value is QuestionClientError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  }
}
