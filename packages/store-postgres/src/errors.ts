import { QuestionStoreError } from '@askseam/store';

/**
 * How a failed call reached PostgreSQL, which decides `QuestionStoreError.sent`: `unsent` when it
 * surely never reached the server (no connection could be had), `sent` once the query was written.
 */
export type Delivery = 'unsent' | 'sent';

// SQLSTATE classes and codes that mean "the server could not be reached or could not serve": a
// connection exception (08), the server shutting down or not yet up (57P01–57P03), a crashed peer (57P02).
const unavailableStates = /^(08|57P0[1-5])/;

/** Node's own words for a socket that failed, and pg's for a connection that ended under a query. */
const unavailableMessages = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|not queryable|Client was closed/i;

/** Whether `error` (from pg) means PostgreSQL could not be reached or could not serve, not a fault in the data. */
export function isUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && unavailableStates.test(code)) return true;
  if (typeof code === 'string' && /^[A-Z]+$/.test(code) && code.startsWith('E')) return true; // a Node socket error (ECONNREFUSED, …)
  return unavailableMessages.test(error.message);
}

/**
 * A pg error as the store's error code, or the error itself when it is nobody's fault we can name.
 * `action` says what the call tried ("claim question "r1""), `target` which server (never the password).
 */
export function storeErrorOf(error: unknown, action: string, target: string, delivery: Delivery, writes: boolean): unknown {
  if (QuestionStoreError.isInstance(error) || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (isUnavailableError(error)) {
    const sent = writes && delivery === 'sent';
    const outcome = sent
      ? 'the connection dropped after the statement was sent, so the change was made whole (one transaction) or not at all; read it back before retrying.'
      : 'nothing was changed. Retry once PostgreSQL is back.';
    return new QuestionStoreError('STORE_UNAVAILABLE', `The PostgreSQL question store cannot reach PostgreSQL at ${target} (could not ${action}: ${error.message}); ${outcome}`, { cause: error, sent });
  }
  // disk_full, out_of_memory, insufficient_resources, too_many_connections is "unavailable" above (53300 is not): all refuse the write whole.
  if (code === '53100' || code === '53200' || code === '53000') {
    return new QuestionStoreError('STORE_FULL', `Could not ${action} on PostgreSQL at ${target}: the server has no room (${error.message}), so nothing was written and nothing announced. Free room, then retry.`, { cause: error });
  }
  if (code === '53300') {
    return new QuestionStoreError('STORE_UNAVAILABLE', `Could not ${action} on PostgreSQL at ${target}: it refused the connection (${error.message}); nothing was changed. Raise max_connections or make the pool smaller, then retry.`, { cause: error, sent: false });
  }
  if (code === '42501') {
    return new QuestionStoreError('NOT_PERMITTED', `Could not ${action} on PostgreSQL at ${target}: the login may not do it (${error.message}), so nothing was written. Grant the store's role the rights on its schema.`, { cause: error });
  }
  // A NUL character in a text column (22021), or text the database's encoding cannot hold (22P05).
  if (code === '22021' || code === '22P05') {
    return new QuestionStoreError('INVALID_INPUT', `Could not ${action}: PostgreSQL cannot store this text (${error.message}); nothing was written.`, { cause: error });
  }
  // The store's tables gone or altered under it.
  if (code === '42P01' || code === '42703' || code === '3F000') {
    return new QuestionStoreError('CORRUPT_STORE', `Could not ${action} on PostgreSQL at ${target}: the store's tables are missing or changed (${error.message}); nothing was changed by this call.`, { cause: error });
  }
  return error;
}

export function closedError(what: string, action: string): QuestionStoreError {
  return new QuestionStoreError('STORE_CLOSED', `The PostgreSQL ${what} is closed (could not ${action}); create a new one.`);
}
