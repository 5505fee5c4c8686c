/** Every code a `UserQuestionError` can carry. The first ten are the seam's; the last two are raised by hosts. */
export const userQuestionErrorCodes = [
  'ASK_ABORTED',
  'EMPTY_QUESTIONS',
  'INVALID_QUESTIONS',
  'CALLER_NOT_LIVE',
  'DELEGATED_CALLER',
  'BAD_INTENT',
  'NO_PROVIDER',
  'DUPLICATE_PROVIDER',
  'BAD_ANSWER',
  'ASK_TIMEOUT',
  'ASK_MISSING_AGENT',
  'ASK_CANCELLED',
] as const;

export type UserQuestionErrorCode = (typeof userQuestionErrorCodes)[number];

// A registry symbol, not a module-local one: two installed copies of this package must still
// recognise each other's errors.
const marker: unique symbol = Symbol.for('askseam.error') as never;

export class UserQuestionError extends Error {
  readonly [marker] = true;
  override readonly name = 'UserQuestionError';
  readonly code: UserQuestionErrorCode;

  constructor(code: UserQuestionErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }

  /** True for a `UserQuestionError` from any copy of this package (where `instanceof` fails). */
  static isInstance(value: unknown): value is UserQuestionError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  }
}

/** True when `value` is a `UserQuestionError` carrying `code`. */
export function hasUserQuestionErrorCode(value: unknown, code: UserQuestionErrorCode): value is UserQuestionError {
  return UserQuestionError.isInstance(value) && value.code === code;
}
