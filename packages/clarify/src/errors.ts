import { AskseamError } from '@askseam/user-questions';

/** Every way resuming a pending action can fail. */
export const clarifyErrorCodes = [
  'INVALID_PENDING_ACTION',
  'ANSWER_MISMATCH',
  'REQUIRED_FIELD_MISSING',
] as const;

/**
 * `INVALID_PENDING_ACTION`: what was handed to the resume is not a pending action (a foreign or
 * damaged `state`). `ANSWER_MISMATCH`: the answer does not fit the questions the action asked.
 * `REQUIRED_FIELD_MISSING`: the answer leaves out a value the business tool needs.
 */
export type ClarifyErrorCode = (typeof clarifyErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.ClarifyError') as never;

/** Thrown by `resumePendingAction`. Tool calls never throw: they return error results instead. */
export class ClarifyError extends AskseamError<ClarifyErrorCode> {
  readonly [marker] = true;
  override readonly name = 'ClarifyError';

  /** True for a `ClarifyError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is ClarifyError {
    return AskseamError.hasMarker(value, marker);
  }
}
