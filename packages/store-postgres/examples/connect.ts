// The two ways to give PostgresQuestionStore and PostgresQuestionBus their connection (shown in the
// package README and docs/scaling.md).
import { PostgresQuestionBus, PostgresQuestionStore } from '@askseam/store-postgres';
import pg from 'pg';

// #region store-on-url
/** The store makes and owns its pool: `close()` ends it. `open` migrates the schema first. */
export function storeOnUrl(connectionString: string): Promise<PostgresQuestionStore> {
  return PostgresQuestionStore.open({ connectionString, schema: 'askseam' });
}
// #endregion store-on-url

// #region app-pool
/** The pool your app already has (TLS, its role, its limits), set to fail fast while the server is away. */
export function appPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 20, connectionTimeoutMillis: 5_000 });
  // pg requires a listener: an idle connection the server closed (a restart) is dropped from the pool.
  pool.on('error', () => {});
  return pool;
}

/**
 * One node's store and bus on the app's pool, for `createWebSocketHost({ store, bus, … })`. They
 * name the same database, schema and login, so the store sends the bus's news as a NOTIFY inside
 * its own writes. The pool stays the app's: `close()` leaves it open. Finished questions go after a week.
 */
export function nodeOnAppPool(pool: pg.Pool, nodeId: string): { store: PostgresQuestionStore; bus: PostgresQuestionBus } {
  const store = new PostgresQuestionStore({ pool, schema: 'askseam', retainFinishedMs: 7 * 24 * 60 * 60 * 1000 });
  const bus = new PostgresQuestionBus({ pool, schema: 'askseam', nodeId });
  return { store, bus };
}
// #endregion app-pool
