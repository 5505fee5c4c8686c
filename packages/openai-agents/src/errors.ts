import { AskseamError } from '@askseam/user-questions';

/** Every way this package's own helpers can refuse. Tool calls never throw: they return the tool's text. */
export const openAIAgentsErrorCodes = ['NO_INTERRUPTIONS', 'RUN_STATE_UNREADABLE', 'RUN_STATE_MISMATCH'] as const;

/**
 * `NO_INTERRUPTIONS`: a run was handed over to be approved, but it is not waiting for any approval.
 * `RUN_STATE_UNREADABLE`: the saved run could not be restored for this agent (the agent's name,
 * tools or handoffs changed since it was saved, or the text is damaged).
 * `RUN_STATE_MISMATCH`: the restored run no longer waits for the tool call the person decided on.
 */
export type OpenAIAgentsErrorCode = (typeof openAIAgentsErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.OpenAIAgentsError') as never;

export class OpenAIAgentsError extends AskseamError<OpenAIAgentsErrorCode> {
  readonly [marker] = true;
  override readonly name = 'OpenAIAgentsError';

  /** True for an `OpenAIAgentsError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is OpenAIAgentsError {
    return AskseamError.hasMarker(value, marker);
  }
}
