/** Every code a `QuestionStoreError` can carry, for every store implementation. */
export const questionStoreErrorCodes = [
  /** `save` was given an rpcId the store already holds. */
  'DUPLICATE_RPC_ID',
  /** `save`, `claim` or `appendEvent` was given something that is not a valid record, settlement or event. */
  'INVALID_INPUT',
  /** The store was used after `close()`. */
  'STORE_CLOSED',
  /** The database holds something other than an askseam store; it is left untouched. */
  'NOT_A_STORE',
  /** The database was written by a newer version of the store (a higher schema version); it is left untouched. */
  'NEWER_SCHEMA',
  /** The database file or a row in it cannot be read. */
  'CORRUPT_STORE',
  /** A networked store could not be reached (connection refused or dropped); nothing was written. Retry once it is back. */
  'STORE_UNAVAILABLE',
] as const;

export type QuestionStoreErrorCode = (typeof questionStoreErrorCodes)[number];

// A registry symbol, so that two installed copies of this package recognise each other's errors.
const marker: unique symbol = Symbol.for('askseam.store.error') as never;

/** A store that refused an operation, or cannot be opened. */
export class QuestionStoreError extends Error {
  readonly [marker] = true;
  override readonly name = 'QuestionStoreError';
  readonly code: QuestionStoreErrorCode;

  constructor(code: QuestionStoreErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }

  /** True for a `QuestionStoreError` from any copy of this package (where `instanceof` fails). */
  static isInstance(value: unknown): value is QuestionStoreError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  }
}
