// One real PostgreSQL server per test file, stores on fresh schemas, and plain pools to look at (or
// damage) what they wrote; everything a test opened is closed after it.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { PostgresQuestionStore, type PostgresQuestionStoreOptions } from '../src/postgres-store.js';
import { startPostgresServer, type TestPostgresServer } from '../src/testing/postgres-server.js';

export interface PostgresFixture {
  /** The file's server; read it inside a test (it starts in `beforeAll`). */
  readonly server: TestPostgresServer;
  /** A fresh schema name. */
  schema(): string;
  /** A store with its own pool; a fresh schema per call unless one is given. */
  open(options?: Partial<PostgresQuestionStoreOptions>): PostgresQuestionStore;
  /** A plain pool on the file's server, closed after the test. */
  raw(): pg.Pool;
  /** Close `thing` after the test, like the ones `open` made. */
  own<T extends { close(): Promise<void> }>(thing: T): T;
}

export function usePostgresFixture(): PostgresFixture {
  let server: TestPostgresServer | undefined;
  const owned: { close(): Promise<void> }[] = [];
  const pools: pg.Pool[] = [];

  beforeAll(async () => {
    server = await startPostgresServer();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  }, 60_000);
  afterEach(async () => {
    for (const thing of owned.splice(0)) await thing.close();
    for (const pool of pools.splice(0)) await pool.end().catch(() => {});
  });

  const started = (): TestPostgresServer => {
    if (!server) throw new Error('The PostgreSQL server starts in beforeAll; use the fixture inside a test.');
    return server;
  };
  const schema = (): string => `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  return {
    get server() {
      return started();
    },
    schema,
    open(options = {}) {
      const store = new PostgresQuestionStore({ ...(options.pool ? {} : { connectionString: started().url }), schema: schema(), ...options });
      owned.push(store);
      return store;
    },
    raw() {
      const pool = new pg.Pool({ connectionString: started().url, connectionTimeoutMillis: 5_000 });
      pool.on('error', () => {});
      pools.push(pool);
      return pool;
    },
    own(thing) {
      owned.push(thing);
      return thing;
    },
  };
}
