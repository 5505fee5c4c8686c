import { QuestionStoreError } from '@askseam/store';
import pg from 'pg';
import { schemaNamePattern } from './migrations.js';

/** How a store or a bus reaches PostgreSQL: the app's own pool, or a connection string. */
export interface PostgresConnectionOptions {
  /**
   * A `pg.Pool` your app made and keeps owning: its connection settings, TLS and pooling are used as
   * they are, and `close()` leaves it open. Give it an `error` listener (pg requires one on every
   * pool) and a `connectionTimeoutMillis`, so that calls fail instead of waiting while the server is down.
   * Give either `pool` or `connectionString`, not both.
   */
  pool?: pg.Pool;
  /** `postgres://user:password@host:port/database` (add `?sslmode=require` for TLS): the store makes its own pool and closes it in `close()`. */
  connectionString?: string;
  /** The PostgreSQL schema that holds the store's tables; created if missing. Default `askseam`. */
  schema?: string;
}

/** A resolved connection: the pool, whether we own it, and how to name the server in messages. */
export interface Connection {
  readonly pool: pg.Pool;
  readonly owned: boolean;
  readonly schema: string;
  /** `host:port/database`, for messages (never the password). */
  readonly target: string;
  /** `postgres://user@host:port/database#schema`: one login on one server's one schema, as a store's `announcesOn` and a bus's `publishesOn`. */
  readonly serverName: string;
  /** The settings a dedicated client (the bus's LISTEN connection) is made from: the pool's own. */
  readonly clientConfig: pg.ClientConfig;
}

/** Pool settings for a pool the store makes itself: fail fast while the server is away, drop idle connections. */
const ownedPoolSettings: pg.PoolConfig = { max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 };

export function openConnection(options: PostgresConnectionOptions, who: string): Connection {
  if (options.pool !== undefined && options.connectionString !== undefined) {
    throw new QuestionStoreError('INVALID_INPUT', `${who} takes either a pool or a connectionString, not both; drop one of them.`);
  }
  if (options.pool === undefined && options.connectionString === undefined) {
    throw new QuestionStoreError('INVALID_INPUT', `${who} needs a pool (your app's pg.Pool) or a connectionString (postgres://user@host:port/database).`);
  }
  const schema = options.schema ?? 'askseam';
  if (typeof schema !== 'string' || !schemaNamePattern.test(schema)) {
    throw new QuestionStoreError('INVALID_INPUT', `${who}: schema must be a lowercase identifier of at most 40 letters, digits and underscores, not ${JSON.stringify(schema)}.`);
  }
  let pool: pg.Pool;
  let owned: boolean;
  if (options.pool !== undefined) {
    pool = options.pool;
    owned = false;
  } else {
    pool = new pg.Pool({ ...ownedPoolSettings, connectionString: options.connectionString, application_name: 'askseam' });
    // An idle connection the server closed (a restart, pg_terminate_backend) is dropped from the pool;
    // the calls it affects report STORE_UNAVAILABLE themselves, so nothing more to say here.
    pool.on('error', () => {});
    owned = true;
  }
  const clientConfig = (pool as unknown as { options: pg.ClientConfig }).options;
  // A client object is never connected here: it only resolves the settings (URL, PG* variables, defaults) as pg will.
  const resolved = new pg.Client(clientConfig) as unknown as { user?: string; host?: string; port?: number; database?: string };
  const target = `${resolved.host ?? 'localhost'}:${resolved.port ?? 5432}/${resolved.database ?? ''}`;
  const serverName = `postgres://${encodeURIComponent(resolved.user ?? '')}@${target}#${schema}`;
  return { pool, owned, schema, target, serverName, clientConfig };
}

const ignore = (): void => {};

/**
 * A connection from the pool, listened to for errors while it is checked out: pg-pool stops
 * listening to a connection it hands out, and a connection the server cuts (a restart,
 * `pg_terminate_backend`) between or under queries would otherwise throw an unhandled 'error'
 * and end the process. The query in flight rejects on its own; `release` stops the listening.
 */
export async function checkout(pool: pg.Pool): Promise<pg.PoolClient & { done(error?: Error): void }> {
  const client = await pool.connect();
  client.on('error', ignore);
  return Object.assign(client, {
    done(error?: Error): void {
      client.removeListener('error', ignore);
      client.release(error);
    },
  });
}
