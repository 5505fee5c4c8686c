// Shared across duplicate copies of this package (two versions in one app), so isInstance still works.
const marker: unique symbol = Symbol.for('askseam.clarify.error') as never;

/** Every way resuming a pending action can fail. */
export const clarifyErrorCodes = ['INVALID_PENDING_ACTION', 'ANSWER_MISMATCH', 'REQUIRED_FIELD_MISSING'] as const;

/**
 * `INVALID_PENDING_ACTION`: what was handed to the resume is not a pending action (a foreign or
 * damaged `state`). `ANSWER_MISMATCH`: the answer does not fit the questions the action asked.
 * `REQUIRED_FIELD_MISSING`: the answer leaves out a value the business tool needs.
 */
export type ClarifyErrorCode = (typeof clarifyErrorCodes)[number];

/** Thrown by `resumePendingAction`. Tool calls never throw: they return error results instead. */
export class ClarifyError extends Error {
  readonly [marker] = true;
  override readonly name = 'ClarifyError';

  constructor(
    readonly code: ClarifyErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  static isInstance(value: unknown): value is ClarifyError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  }
}
