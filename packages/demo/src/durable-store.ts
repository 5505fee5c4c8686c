import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { QuestionRecord } from '@askseam/store';
import { PostgresQuestionStore } from '@askseam/store-postgres';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import type { PrintLine } from './print.js';

/** The file the demo keeps its questions in, inside the data directory. */
export const DEMO_DATABASE_FILE = 'askseam.sqlite';

/**
 * A SQLite store in `dataDir` (created if missing). Questions pending there survive a restart of
 * the demo: the next run replays them to the page, and their answers arrive through `onResume`.
 */
export function openDemoStore(dataDir: string): SqliteQuestionStore {
  mkdirSync(dataDir, { recursive: true });
  return new SqliteQuestionStore(join(dataDir, DEMO_DATABASE_FILE));
}

/** The schema the demo keeps its questions in, in a PostgreSQL database given with `--store`. */
export const DEMO_POSTGRES_SCHEMA = 'askseam_demo';

/**
 * A PostgreSQL store in `connectionString`'s database (schema `askseam_demo`, created if missing):
 * like the SQLite one, its pending questions survive a restart. Rejects `NOT_A_STORE`,
 * `NEWER_SCHEMA` or `STORE_UNAVAILABLE` at once rather than at the first question.
 */
export function openDemoPostgresStore(connectionString: string): Promise<PostgresQuestionStore> {
  return PostgresQuestionStore.open({ connectionString, schema: DEMO_POSTGRES_SCHEMA });
}

/** What the demo does with an answer whose asker is gone (it was asked before a restart): print it. */
export function printResumed(print: PrintLine): (record: QuestionRecord) => void {
  return (record) => {
    const answer = record.outcome === 'answered' ? JSON.stringify(record.answer) : record.outcome;
    print(`[resume] ${record.rpcId} (asked before a restart) → ${answer}`);
  };
}
