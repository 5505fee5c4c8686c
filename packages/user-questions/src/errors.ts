/**
 * One error shape for every askseam package: `AskseamError` carries a `code` and owns the marker
 * check; each package's class only names its marker and its codes.
 *
 * Markers are registry symbols (`Symbol.for`), not module-local ones, so that two installed copies
 * of a package (a web bundle and an app, or two versions side by side) still recognise each
 * other's errors where `instanceof` fails. Every marker is `askseam.<ClassName>`.
 */
const baseMarker: unique symbol = Symbol.for('askseam.AskseamError') as never;

/** The base of every askseam error: branch on `code`, never on the message. */
export class AskseamError<C extends string = string> extends Error {
  readonly [baseMarker] = true;
  override readonly name: string = 'AskseamError';

  constructor(
    readonly code: C,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** True for an error of any askseam package, from any copy of it. */
  static isInstance(value: unknown): value is AskseamError {
    return AskseamError.hasMarker(value, baseMarker);
  }

  /** True when `value` carries `marker` set to `true` and a string `code`. */
  protected static hasMarker(value: unknown, marker: symbol): boolean {
    if (typeof value !== 'object' || value === null) return false;
    if (typeof (value as { code?: unknown }).code !== 'string') return false;
    return (value as Record<symbol, unknown>)[marker] === true;
  }
}

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

const marker: unique symbol = Symbol.for('askseam.UserQuestionError') as never;

/** A question that could not be asked or answered (the seam's gates, a host, a provider). */
export class UserQuestionError extends AskseamError<UserQuestionErrorCode> {
  readonly [marker] = true;
  override readonly name = 'UserQuestionError';

  /** True for a `UserQuestionError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is UserQuestionError {
    return AskseamError.hasMarker(value, marker);
  }
}

/** True when `value` is a `UserQuestionError` carrying `code`. */
export function hasUserQuestionErrorCode(value: unknown, code: UserQuestionErrorCode): value is UserQuestionError {
  return UserQuestionError.isInstance(value) && value.code === code;
}
