import { QuestionStoreError } from '@askseam/store';
import type { ClientBase } from 'pg';

/** One step of the schema. Versions start at 1 and go up by one; a released step is never edited. `sql` gets the quoted schema name. */
export interface PostgresMigration {
  version: number;
  description: string;
  sql: (schema: string) => string;
}

/** What the `store_meta` table's one row says, so that a schema of someone else's is never mistaken for ours. */
export const STORE_APPLICATION = 'askseam question store';

export const postgresStoreMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'questions with their settlement and who answered, the append-only event log, and the bus tables',
    sql: (s) => `
      CREATE TABLE ${s}.questions (
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        rpc_id text PRIMARY KEY,
        session_id text NOT NULL,
        asked_by text NOT NULL,
        asked_at text NOT NULL,
        mode text NOT NULL,
        urgency text,
        questions json NOT NULL,
        state json,
        asked_on text,
        outcome text,
        answer json,
        answered_by jsonb,
        settled_at text,
        resumed_at text,
        -- When it finished (resumed, or settled aborted / timed_out): what retention deletes by.
        finished_at timestamptz
      );
      CREATE INDEX questions_pending ON ${s}.questions (seq) WHERE outcome IS NULL;
      CREATE INDEX questions_pending_by_session ON ${s}.questions (session_id, seq) WHERE outcome IS NULL;
      CREATE INDEX questions_awaiting_resume ON ${s}.questions (seq) WHERE outcome IN ('answered', 'cancelled') AND resumed_at IS NULL;
      CREATE INDEX questions_finished ON ${s}.questions (finished_at) WHERE finished_at IS NOT NULL;
      CREATE TABLE ${s}.events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        session_id text NOT NULL,
        rpc_id text NOT NULL,
        type text NOT NULL,
        at text NOT NULL,
        data json NOT NULL
      );
      CREATE INDEX events_by_session ON ${s}.events (session_id, id);
      CREATE FUNCTION ${s}.events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the askseam event log is append-only'; END;
      $$;
      CREATE TRIGGER events_no_change BEFORE UPDATE OR DELETE ON ${s}.events FOR EACH ROW EXECUTE FUNCTION ${s}.events_append_only();
      CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON ${s}.events FOR EACH STATEMENT EXECUTE FUNCTION ${s}.events_append_only();
      -- The bus: which nodes are alive, who holds which lease, and messages too big for a NOTIFY payload.
      CREATE TABLE ${s}.bus_nodes (node_id text PRIMARY KEY, alive_until timestamptz NOT NULL);
      CREATE TABLE ${s}.bus_leases (key text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL);
      CREATE TABLE ${s}.bus_messages (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, sent_at timestamptz NOT NULL DEFAULT now(), body json NOT NULL);
      CREATE INDEX bus_messages_sent_at ON ${s}.bus_messages (sent_at);
    `,
  },
  {
    version: 2,
    description: 'the trace context of the asking span, the votes of a quorum approval, and an index for the settled history',
    sql: (s) => `
      ALTER TABLE ${s}.questions ADD COLUMN trace_context jsonb, ADD COLUMN votes jsonb;
      CREATE INDEX questions_settled ON ${s}.questions (seq) WHERE outcome IS NOT NULL;
    `,
  },
];

/** A schema name the store accepts: a plain lowercase identifier short enough to leave room in a NOTIFY channel name (63 bytes). */
export const schemaNamePattern = /^[a-z_][a-z0-9_]{0,39}$/;

/** The advisory lock every node takes to migrate one schema: two int4 keys, the first "ASKS". */
const migrateLockClass = 0x41534b53 | 0;

/**
 * Bring the store's schema to the newest version in `migrations`, all in one transaction under an
 * advisory lock, so that several nodes starting at once migrate it once. A missing or empty schema
 * becomes a store. Anything we cannot vouch for (a schema holding other tables, a store from a newer
 * release, damaged bookkeeping) is refused with a `QuestionStoreError` and left exactly as it was.
 */
export async function migratePostgres(
  client: ClientBase,
  schema: string,
  migrations: readonly PostgresMigration[] = postgresStoreMigrations,
): Promise<{ from: number; to: number }> {
  checkMigrations(migrations);
  const latest = migrations.at(-1)?.version ?? 0;
  const quoted = client.escapeIdentifier(schema);
  const label = `The PostgreSQL schema "${schema}"`;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::int4, hashtext($2))', [migrateLockClass, schema]);
    const exists = (await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount === 1;
    let from = 0;
    if (!exists) {
      await client.query(`CREATE SCHEMA ${quoted}`);
      await createMeta(client, quoted);
    } else {
      const relations = (await client.query<{ relname: string }>(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') ORDER BY c.relname",
        [schema],
      )).rows.map((row) => row.relname);
      if (relations.includes('store_meta')) from = await readVersion(client, quoted, label);
      else if (relations.length === 0) await createMeta(client, quoted);
      else {
        throw new QuestionStoreError(
          'NOT_A_STORE',
          `${label} is not an askseam question store (it already holds tables: ${relations.slice(0, 5).join(', ')}); it was left untouched. Give the store a schema of its own (option \`schema\`).`,
        );
      }
    }
    if (from > latest) {
      throw new QuestionStoreError(
        'NEWER_SCHEMA',
        `${label} has schema version ${from}, newer than the ${latest} this release of @askseam/store-postgres knows; it was left untouched. Upgrade the package to open it.`,
      );
    }
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      await client.query(migration.sql(quoted));
    }
    if (latest > from) await client.query(`UPDATE ${quoted}.store_meta SET schema_version = $1`, [latest]);
    await client.query('COMMIT');
    return { from, to: latest };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

async function createMeta(client: ClientBase, quoted: string): Promise<void> {
  await client.query(`CREATE TABLE ${quoted}.store_meta (application text NOT NULL, schema_version integer NOT NULL)`);
  await client.query(`INSERT INTO ${quoted}.store_meta (application, schema_version) VALUES ($1, 0)`, [STORE_APPLICATION]);
}

async function readVersion(client: ClientBase, quoted: string, label: string): Promise<number> {
  let rows: { application?: unknown; schema_version?: unknown }[];
  try {
    rows = (await client.query(`SELECT application, schema_version FROM ${quoted}.store_meta`)).rows;
  } catch (error) {
    throw new QuestionStoreError('NOT_A_STORE', `${label} has a store_meta table that is not an askseam store's; it was left untouched.`, { cause: error });
  }
  const [row] = rows;
  if (rows.length !== 1 || row?.application !== STORE_APPLICATION) {
    throw new QuestionStoreError('NOT_A_STORE', `${label} has a store_meta table that does not name an askseam question store; it was left untouched.`);
  }
  const version = row.schema_version;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) {
    throw new QuestionStoreError('CORRUPT_STORE', `${label} has a damaged store_meta table (schema_version ${JSON.stringify(version)}); it was left untouched.`);
  }
  return version;
}

function checkMigrations(migrations: readonly PostgresMigration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`Migration ${index} has version ${migration.version}; versions must be 1, 2, 3, … in order.`);
  });
}
