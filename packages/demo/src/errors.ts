import { AskseamError } from '@askseam/user-questions';

/** Every code a `DemoError` can carry. */
export const demoErrorCodes = [
  'BAD_CONFIG',
  'MODEL_HTTP',
  'MODEL_RESPONSE',
] as const;

export type DemoErrorCode = (typeof demoErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.DemoError') as never;

/** What went wrong in the demo itself: its configuration or the model endpoint it talks to. */
export class DemoError extends AskseamError<DemoErrorCode> {
  readonly [marker] = true;
  override readonly name = 'DemoError';

  /** True for a `DemoError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is DemoError {
    return AskseamError.hasMarker(value, marker);
  }
}
