/** Every code a `WebSocketHostError` can carry. Errors of a question itself are `UserQuestionError`s. */
export const webSocketHostErrorCodes = [
  'INVALID_OPTIONS',
  'NO_AUTHENTICATION',
  'NOT_LISTENING',
  /** `askDetached` got a request it cannot keep (state that is not JSON, an unknown urgency, two different sessions). */
  'INVALID_REQUEST',
  /** The question store failed, so the question was not asked (`askDetached`) or the host could not start. */
  'STORE_FAILED',
] as const;

export type WebSocketHostErrorCode = (typeof webSocketHostErrorCodes)[number];

// A registry symbol, so that two installed copies of this package recognise each other's errors.
const marker: unique symbol = Symbol.for('askseam.host-ws.error') as never;

/** A host that cannot be set up as asked (bad options, no authentication chosen, not listening, a failing store), or a detached ask it cannot keep. */
export class WebSocketHostError extends Error {
  readonly [marker] = true;
  override readonly name = 'WebSocketHostError';
  readonly code: WebSocketHostErrorCode;

  constructor(code: WebSocketHostErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }

  /** True for a `WebSocketHostError` from any copy of this package (where `instanceof` fails). */
  static isInstance(value: unknown): value is WebSocketHostError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  }
}
