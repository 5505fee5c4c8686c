import { AskseamError } from '@askseam/user-questions';

/** Every code a `LangGraphBridgeError` can carry. */
export const langGraphBridgeErrorCodes = [
  /** An interrupt value the bridge cannot turn into questions, and no `questionsFor` that could. */
  'UNKNOWN_INTERRUPT',
  /** The bridge was used before `useHost(host)` gave it the host to ask through. */
  'NO_HOST',
] as const;

export type LangGraphBridgeErrorCode = (typeof langGraphBridgeErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.LangGraphBridgeError') as never;

/** A LangGraph interrupt the bridge cannot ask a person about, or a bridge used before it has a host. */
export class LangGraphBridgeError extends AskseamError<LangGraphBridgeErrorCode> {
  readonly [marker] = true;
  override readonly name = 'LangGraphBridgeError';

  /** True for a `LangGraphBridgeError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is LangGraphBridgeError {
    return AskseamError.hasMarker(value, marker);
  }
}
