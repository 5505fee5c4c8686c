import { AskseamError } from '@askseam/user-questions';

/** Every way this package refuses what it is given. */
export const aiSdkErrorCodes = ['INVALID_OPTIONS'] as const;

/** `INVALID_OPTIONS`: a factory got options it cannot work with (the message names the option). */
export type AiSdkErrorCode = (typeof aiSdkErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.AiSdkError') as never;

/**
 * Thrown by the factories when they are wired wrongly, before any model runs. Nothing is thrown
 * inside the model loop: tool calls return error outputs and approvals return decisions.
 */
export class AiSdkError extends AskseamError<AiSdkErrorCode> {
  readonly [marker] = true;
  override readonly name = 'AiSdkError';

  /** True for an `AiSdkError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is AiSdkError {
    return AskseamError.hasMarker(value, marker);
  }
}
