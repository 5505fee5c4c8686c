/** Every code a `DemoError` can carry. */
export const demoErrorCodes = ['BAD_CONFIG', 'MODEL_HTTP', 'MODEL_RESPONSE'] as const;

export type DemoErrorCode = (typeof demoErrorCodes)[number];

// A registry symbol so a second copy of this module still recognises the error.
const marker: unique symbol = Symbol.for('askseam.demo.error') as never;

/** What went wrong in the demo itself: its configuration or the model endpoint it talks to. */
export class DemoError extends Error {
  readonly [marker] = true;
  override readonly name = 'DemoError';
  readonly code: DemoErrorCode;

  constructor(code: DemoErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }

  static isInstance(value: unknown): value is DemoError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  }
}
