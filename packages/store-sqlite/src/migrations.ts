import type { Database } from 'better-sqlite3';
import { QuestionStoreError } from '@askseam/store';

/** One step of the schema. Versions start at 1 and go up by one; a released step is never edited. */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** `PRAGMA application_id` of an askseam store ("ASKS"), so a foreign database is never mistaken for ours. */
export const APPLICATION_ID = 0x41534b53;

export const questionStoreMigrations: readonly Migration[] = [
  {
    version: 1,
    description: 'questions with their settlement, and the append-only event log',
    sql: `
      CREATE TABLE questions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        rpc_id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL,
        asked_by TEXT NOT NULL,
        asked_at TEXT NOT NULL,
        mode TEXT NOT NULL,
        urgency TEXT,
        questions TEXT NOT NULL CHECK (json_valid(questions)),
        state TEXT CHECK (state IS NULL OR json_valid(state)),
        outcome TEXT,
        answer TEXT CHECK (answer IS NULL OR json_valid(answer)),
        settled_at TEXT,
        resumed_at TEXT
      ) STRICT;
      CREATE INDEX questions_pending_by_session ON questions (session_id, seq) WHERE outcome IS NULL;
      CREATE INDEX questions_awaiting_resume ON questions (seq) WHERE outcome IN ('answered', 'cancelled') AND resumed_at IS NULL;
      CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        rpc_id TEXT NOT NULL,
        type TEXT NOT NULL,
        at TEXT NOT NULL,
        data TEXT NOT NULL CHECK (json_valid(data))
      ) STRICT;
      CREATE INDEX events_by_session ON events (session_id, id);
      CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'the askseam event log is append-only'); END;
      CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'the askseam event log is append-only'); END;
    `,
  },
  {
    version: 2,
    description: 'askedOn: the host node holding a blocking asker, when several nodes share the store',
    // Nullable with no default: every question stored before this step simply has no askedOn.
    sql: 'ALTER TABLE questions ADD COLUMN asked_on TEXT;',
  },
  {
    version: 3,
    description: 'answeredBy: who answered or dismissed a settled question, and through which channel',
    // Nullable: questions settled before this step, and asker-side outcomes, have no answeredBy.
    sql: 'ALTER TABLE questions ADD COLUMN answered_by TEXT CHECK (answered_by IS NULL OR json_valid(answered_by));',
  },
  {
    version: 4,
    description: 'votes: the approvals counted so far on a quorum approval',
    // Nullable: a question stored before this step, or one nobody voted on, has no votes.
    sql: 'ALTER TABLE questions ADD COLUMN votes TEXT CHECK (votes IS NULL OR json_valid(votes));',
  },
  {
    version: 5,
    description: 'traceContext: the W3C trace context of the span that asked (telemetry)',
    // Nullable: questions asked without telemetry, and every one stored before this step, have none.
    sql: 'ALTER TABLE questions ADD COLUMN trace_context TEXT CHECK (trace_context IS NULL OR json_valid(trace_context));',
  },
  {
    version: 6,
    description: 'the console history filters: settled questions by session, by agent and by outcome, newest first',
    // Partial (settled rows only), so asking and the pending list pay nothing for them. Without them a
    // filtered history page read every settled row until it had a page: 41 ms for an agent with no
    // questions among 10,000 settled (bench section 12), growing with the history.
    sql: `
      CREATE INDEX questions_settled_by_session ON questions (session_id, seq) WHERE outcome IS NOT NULL;
      CREATE INDEX questions_settled_by_agent ON questions (asked_by, seq) WHERE outcome IS NOT NULL;
      CREATE INDEX questions_settled_by_outcome ON questions (outcome, seq) WHERE outcome IS NOT NULL;
    `,
  },
];

/**
 * Bring `db` to the newest schema in `migrations`, one transaction per step, and return the
 * versions it went from and to. An empty database becomes a store. Anything we cannot vouch for —
 * another application's database, a store from a newer release, a store without its version —
 * is refused with a `QuestionStoreError` and left exactly as it was: never wiped, never guessed at.
 */
export function migrate(db: Database, migrations: readonly Migration[] = questionStoreMigrations, label = 'the database'): { from: number; to: number } {
  checkMigrations(migrations);
  const latest = migrations.at(-1)?.version ?? 0;
  // IMMEDIATE: take the write lock before looking, so two processes opening one new file cannot both set it up.
  const from = db.transaction(() => {
    const applicationId = db.pragma('application_id', { simple: true }) as number;
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    if (applicationId === APPLICATION_ID) return readVersion(db, label);
    if (applicationId === 0 && tables.length === 0) {
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL) STRICT; INSERT INTO schema_version (version) VALUES (0);');
      return 0;
    }
    const holds = tables.length === 0 ? "another application's id" : `tables: ${tables.slice(0, 5).join(', ')}`;
    throw new QuestionStoreError('NOT_A_STORE', `${label} is not an askseam question store (it already holds ${holds}); it was left untouched. Point the store at a new file.`);
  }).immediate();

  if (from > latest) {
    throw new QuestionStoreError(
      'NEWER_SCHEMA',
      `${label} has schema version ${from}, newer than the ${latest} this release of @askseam/store-sqlite knows; it was left untouched. Upgrade the package to open it.`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    // Re-read the version under the write lock: another process may have run this step meanwhile.
    db.transaction(() => {
      const current = readVersion(db, label);
      if (current >= migration.version) return;
      db.exec(migration.sql);
      db.prepare('UPDATE schema_version SET version = ?').run(migration.version);
    }).immediate();
  }
  return { from, to: latest };
}

function readVersion(db: Database, label: string): number {
  let rows: unknown[];
  try {
    rows = db.prepare('SELECT version FROM schema_version').pluck().all();
  } catch (error) {
    throw new QuestionStoreError('CORRUPT_STORE', `${label} is marked as an askseam store but its schema_version table cannot be read; it was left untouched.`, { cause: error });
  }
  const version = rows[0];
  if (rows.length !== 1 || typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) {
    throw new QuestionStoreError('CORRUPT_STORE', `${label} has a damaged schema_version table (expected one whole number, found ${JSON.stringify(rows)}); it was left untouched.`);
  }
  return version;
}

function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`Migration ${index} has version ${migration.version}; versions must be 1, 2, 3, … in order.`);
  });
}
