import { AskseamError } from '@askseam/user-questions';

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
  /** Redis refused a command the store's ACL user has no right to (a bus announcement it may not publish); nothing was written. */
  'NOT_PERMITTED',
  /** The store has no room for the write (Redis at its `maxmemory` under `noeviction`); nothing was written or announced. Free room, then retry. */
  'STORE_FULL',
] as const;

export type QuestionStoreErrorCode = (typeof questionStoreErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.QuestionStoreError') as never;

export interface QuestionStoreErrorOptions extends ErrorOptions {
  /** See `QuestionStoreError.sent`. */
  sent?: boolean;
}

/** A store that refused an operation, or cannot be opened. */
export class QuestionStoreError extends AskseamError<QuestionStoreErrorCode> {
  readonly [marker] = true;
  override readonly name = 'QuestionStoreError';
  /**
   * `STORE_UNAVAILABLE` of a networked store: whether the command may have reached the server and
   * changed something. `false`: it surely did not (the client never wrote it, or the server
   * refused it): nothing was changed, and the caller may say so. `true`: the connection dropped
   * after it was sent, so it may have run. `undefined`: the store does not say (treat as `true`).
   */
  readonly sent: boolean | undefined;

  constructor(code: QuestionStoreErrorCode, message: string, options?: QuestionStoreErrorOptions) {
    const { sent, ...errorOptions } = options ?? {};
    super(code, message, errorOptions);
    this.sent = sent;
  }

  /** True for a `QuestionStoreError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is QuestionStoreError {
    return AskseamError.hasMarker(value, marker);
  }
}
