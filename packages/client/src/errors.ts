import { AskseamError, type AnswerMismatch } from '@askseam/user-questions';

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

const marker: unique symbol = Symbol.for('askseam.QuestionClientError') as never;

/**
 * Why a client call failed or the connection reported trouble. Its codes are kebab-case, unlike
 * the UPPER_SNAKE of the other packages: they are the wire's receipt reasons (`not-pending`,
 * `bad-response`, `forbidden`) passed through unchanged, plus the client's own in the same style
 * (docs/errors.md, "Why the client's codes are kebab-case").
 */
export class QuestionClientError extends AskseamError<QuestionClientErrorCode> {
  readonly [marker] = true;
  override readonly name = 'QuestionClientError';
  readonly rpcId?: string;
  readonly detail?: string;
  /**
   * On `invalid-answer`: the local check's whole result (rule, question id, message), so a UI can
   * point at the question to fix without checking the answer a second time.
   */
  readonly mismatch?: AnswerMismatch;

  constructor(code: QuestionClientErrorCode, message: string, options: QuestionClientErrorOptions = {}) {
    const { rpcId, detail, mismatch, ...errorOptions } = options;
    super(code, message, errorOptions);
    if (rpcId !== undefined) this.rpcId = rpcId;
    if (detail !== undefined) this.detail = detail;
    if (mismatch !== undefined) this.mismatch = mismatch;
  }

  /** True for a `QuestionClientError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is QuestionClientError {
    return AskseamError.hasMarker(value, marker);
  }
}
