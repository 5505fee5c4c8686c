import {
  QuestionStoreError,
  humanOutcomes,
  newQuestionEventSchema,
  parseNewQuestionEvent,
  parseNewQuestionEvents,
  parseListSettledOptions,
  parseNewQuestionRecord,
  parseReadEventsOptions,
  parseRecordWithEvent,
  parseSettlement,
  parseVoteRequest,
  questionRecordSchema,
  tallyVote,
  voteCastEvent,
  type NewQuestionEvent,
  type NewQuestionRecord,
  type QuestionEvent,
  type QuestionOutcome,
  type QuestionRecord,
  type ListRecordsOptions,
  type ListSettledOptions,
  type SettledRecordsPage,
  type QuestionStore,
  type ReadEventsOptions,
  type SessionSelection,
  type StoreWriteOptions,
  type VoteRequest,
  type VoteResult,
} from '@askseam/store';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import Database, { type Database as Connection, type Statement } from 'better-sqlite3';
import { GroupCommit } from './group-commit.js';
import { inspectStoreFile } from './inspect-file.js';
import { migrate, questionStoreMigrations } from './migrations.js';

export interface SqliteQuestionStoreOptions {
  /** How long a write waits for another process's lock before failing with SQLITE_BUSY. Default 5000 ms. */
  busyTimeoutMs?: number;
}

interface QuestionRow {
  rpc_id: string;
  session_id: string;
  asked_by: string;
  asked_at: string;
  mode: string;
  urgency: string | null;
  questions: string;
  state: string | null;
  outcome: string | null;
  answer: string | null;
  settled_at: string | null;
  resumed_at: string | null;
  asked_on: string | null;
  votes: string | null;
  answered_by: string | null;
  trace_context: string | null;
}

interface EventRow {
  id: number;
  session_id: string;
  rpc_id: string;
  type: string;
  at: string;
  data: string;
}

interface EventInsert {
  session_id: string;
  rpc_id: string;
  type: string;
  at: string;
  data: string;
}

const columns = 'rpc_id, session_id, asked_by, asked_at, mode, urgency, questions, state, outcome, answer, settled_at, resumed_at, asked_on, answered_by, votes, trace_context';

/**
 * A `QuestionStore` in one SQLite file (better-sqlite3, WAL): pending questions, their settlements
 * and the event log survive a restart, a crash or a SIGKILL. Several processes may open the same
 * file; `claim` stays exactly-once across them. Opening migrates an older store and refuses
 * (without touching it) a file that is not one, is damaged, or was written by a newer release.
 * Writes are group-committed (see `GroupCommit`): those of one loop turn share one transaction and
 * one fsync, and each resolves only once that transaction is on disk.
 */
export class SqliteQuestionStore implements QuestionStore {
  /** The schema version of the open file (the newest this release knows). */
  readonly schemaVersion: number;
  readonly #db: Connection;
  readonly #statements: ReturnType<typeof prepare>;
  /** Inserts a batch of event rows under one savepoint inside the group commit: all or none. */
  readonly #appendEventRows: (rows: readonly EventInsert[]) => void;
  /** Inserts a record and its event under one savepoint inside the group commit: both or neither. */
  readonly #insertRecordWithEvent: (record: NewQuestionRecord, row: EventInsert) => void;
  /** Every write (and a read queued behind one) runs in the next group-commit transaction. */
  readonly #batches: GroupCommit;
  #closed = false;

  /** Open (or create) the store in `filename`. Throws `QuestionStoreError` (`NOT_A_STORE`, `NEWER_SCHEMA`, `CORRUPT_STORE`). */
  constructor(
    readonly filename: string,
    options: SqliteQuestionStoreOptions = {},
  ) {
    const label = `The SQLite file "${filename}"`;
    // From the file's bytes, before SQLite opens it: another application's database is refused
    // without SQLite touching it, or its -wal and -shm (which even a read-only connection would).
    inspectStoreFile(filename, label);
    let db: Connection | undefined;
    try {
      db = new Database(filename, { timeout: options.busyTimeoutMs ?? 5000 });
      // Before anything is written: a file that is not a database (or is damaged) fails here, untouched.
      db.pragma('schema_version');
      const { to } = migrate(db, questionStoreMigrations, label);
      db.pragma('journal_mode = WAL');
      // FULL: a claimed answer is on disk before `claim` returns, so not even a power cut loses it.
      db.pragma('synchronous = FULL');
      this.schemaVersion = to;
      const statements = prepare(db);
      this.#statements = statements;
      // Always called inside a group-commit transaction, where better-sqlite3 makes it a SAVEPOINT:
      // a row failing midway undoes this call's rows and nothing else of the batch.
      this.#appendEventRows = db.transaction((rows: readonly EventInsert[]) => {
        for (const row of rows) statements.appendEvent.run(row);
      });
      this.#insertRecordWithEvent = db.transaction((record: NewQuestionRecord, row: EventInsert) => {
        insertRecord(statements, record);
        statements.appendEvent.run(row);
      });
      this.#batches = new GroupCommit(db, (error) => this.#described(error));
      this.#db = db;
    } catch (error) {
      db?.close();
      if (QuestionStoreError.isInstance(error)) throw error;
      if (isDamageError(error)) {
        throw new QuestionStoreError('CORRUPT_STORE', `${label} is not a readable SQLite database (${(error as Error).message}); it was left untouched.`, { cause: error });
      }
      throw error;
    }
  }

  async save(record: NewQuestionRecord): Promise<void> {
    const parsed = parseNewQuestionRecord(record);
    await this.#write((statements) => insertRecord(statements, parsed));
  }

  async saveWithEvent(record: NewQuestionRecord, event: NewQuestionEvent): Promise<void> {
    const checked = parseRecordWithEvent(record, event);
    const row = eventRow(checked.event, new Date().toISOString());
    // One call in the group commit, under its own savepoint: the record and its event reach the
    // disk in the same transaction (so a SIGKILL after this resolves finds both), or neither does.
    await this.#write(() => this.#insertRecordWithEvent(checked.record, row));
  }

  async claim(rpcId: string, outcome: QuestionOutcome, answer?: AskUserQuestionAnswer, options?: StoreWriteOptions): Promise<QuestionRecord | undefined> {
    const settlement = parseSettlement(outcome, answer, options?.answeredBy);
    // One UPDATE … WHERE outcome IS NULL: SQLite runs it atomically, so of racing claims (in this
    // process or another on the same file) exactly one changes the row and gets it back.
    const row = (await this.#write((statements) => statements.claim.get({
      rpc_id: rpcId,
      outcome: settlement.outcome,
      answer: settlement.answer === undefined ? null : JSON.stringify(settlement.answer),
      settled_at: new Date().toISOString(),
      answered_by: settlement.answeredBy === undefined ? null : JSON.stringify(settlement.answeredBy),
    }))) as QuestionRow | undefined;
    return row === undefined ? undefined : recordOf(row, this.filename);
  }

  async vote(rpcId: string, request: VoteRequest): Promise<VoteResult> {
    const checked = parseVoteRequest(request);
    // Read, tally and write inside one group-commit transaction, which holds SQLite's write lock
    // (BEGIN IMMEDIATE): no vote or claim of this process or another on the file runs in between,
    // so every distinct vote is kept and exactly one settles. It is on disk before this resolves.
    return await this.#write((statements): VoteResult => {
      const row = statements.get.get(rpcId) as QuestionRow | undefined;
      if (row === undefined || row.outcome !== null) return { kind: 'not-pending' };
      const at = new Date().toISOString();
      const result = tallyVote(recordOf(row, this.filename), checked, at);
      if (result.kind === 'counted') statements.setVotes.run({ rpc_id: rpcId, votes: JSON.stringify(result.record.votes) });
      if (result.kind === 'settled') {
        const { votes, answer, settledAt, answeredBy } = result.record;
        statements.settleVotes.run({ rpc_id: rpcId, votes: JSON.stringify(votes), answer: JSON.stringify(answer), settled_at: settledAt!, answered_by: JSON.stringify(answeredBy) });
      }
      // Its audit event in the same transaction: the log never lacks a kept vote.
      if (result.kind === 'counted' || result.kind === 'settled') statements.appendEvent.run(eventRow(voteCastEvent(result.record, checked), at));
      return result;
    });
  }

  async get(rpcId: string): Promise<QuestionRecord | undefined> {
    const row = (await this.#read((statements) => statements.get.get(rpcId))) as QuestionRow | undefined;
    return row === undefined ? undefined : recordOf(row, this.filename);
  }

  async listPending(sessions: SessionSelection, options?: ListRecordsOptions): Promise<QuestionRecord[]> {
    const rows = (await this.#read((statements) =>
      sessions === 'all' ? statements.pendingAll.all() : statements.pendingOf.all(JSON.stringify([...new Set(sessions)])),
    )) as QuestionRow[];
    return this.#recordsOf(rows, options);
  }

  /** The rpcIds alone, from the partial index of pending rows: no record is read or parsed. */
  async listPendingIds(sessions: SessionSelection): Promise<string[]> {
    const rows = (await this.#read((statements) =>
      sessions === 'all' ? statements.pendingIdsAll.all() : statements.pendingIdsOf.all(JSON.stringify([...new Set(sessions)])),
    )) as { rpc_id: string }[];
    return rows.map((row) => row.rpc_id);
  }

  async listAwaitingResume(options?: ListRecordsOptions): Promise<QuestionRecord[]> {
    const rows = (await this.#read((statements) => statements.awaitingResume.all(...humanOutcomes))) as QuestionRow[];
    return this.#recordsOf(rows, options);
  }

  /**
   * Newest asked first, by `seq`; the cursor is the `seq` the page before ended on. Unfiltered, the
   * primary key walks backwards; with a filter, the partial index of settled rows for the session,
   * else the agent, else the outcome (schema version 6) walks backwards from the cursor, and any
   * other filter is checked on the rows it yields. A page reads what it returns, not the history.
   */
  async listSettled(options?: ListSettledOptions): Promise<SettledRecordsPage> {
    const { sessionId, askedBy, outcome, cursor, limit } = parseListSettledOptions(options);
    if (cursor !== undefined && !/^[1-9]\d{0,15}$/.test(cursor)) {
      throw new QuestionStoreError('INVALID_INPUT', `listSettled: "cursor" ${JSON.stringify(cursor.slice(0, 40))} was not made by this store; pass the \`next\` of a page it returned.`);
    }
    const filters: SettledFilters = {
      ...(sessionId === undefined ? {} : { session_id: sessionId }),
      ...(askedBy === undefined ? {} : { asked_by: askedBy }),
      ...(outcome === undefined ? {} : { outcome }),
    };
    const rows = (await this.#read((statements) =>
      statements.settled(filters).all({
        ...filters,
        before: cursor === undefined ? Number.MAX_SAFE_INTEGER : Number(cursor),
        // One more than asked: whether it is there says whether there is a next page.
        limit: limit + 1,
      }),
    )) as (QuestionRow & { seq: number })[];
    const page = rows.slice(0, limit);
    const records = this.#recordsOf(page, options);
    return rows.length > limit ? { records, next: String(page.at(-1)!.seq) } : { records };
  }

  /** Rows as checked records; with `onUnreadable`, a damaged row is reported and left out instead of failing the list. */
  #recordsOf(rows: QuestionRow[], options: ListRecordsOptions | undefined): QuestionRecord[] {
    const onUnreadable = options?.onUnreadable;
    if (onUnreadable === undefined) return rows.map((row) => recordOf(row, this.filename));
    const records: QuestionRecord[] = [];
    for (const row of rows) {
      try {
        records.push(recordOf(row, this.filename));
      } catch (error) {
        if (!QuestionStoreError.isInstance(error)) throw error;
        onUnreadable({ rpcId: row.rpc_id, ...(typeof row.session_id === 'string' && row.session_id !== '' ? { sessionId: row.session_id } : {}), error });
      }
    }
    return records;
  }

  async markResumed(rpcId: string): Promise<boolean> {
    const at = new Date().toISOString();
    return (await this.#write((statements) => statements.markResumed.run(at, rpcId))).changes === 1;
  }

  async appendEvent(event: NewQuestionEvent): Promise<QuestionEvent> {
    const parsed = parseNewQuestionEvent(event);
    const at = new Date().toISOString();
    const { lastInsertRowid } = await this.#write((statements) => statements.appendEvent.run(eventRow(parsed, at)));
    return { ...parsed, id: Number(lastInsertRowid), at } as QuestionEvent;
  }

  async appendEvents(events: readonly NewQuestionEvent[]): Promise<void> {
    // Every event is checked before the transaction starts, so a bad one leaves the file untouched.
    const checked = parseNewQuestionEvents(events);
    this.#use();
    if (checked.length === 0) return;
    const at = new Date().toISOString();
    // One savepoint: the rowids (event ids) grow in array order, and a failure midway undoes all of this call's rows.
    const rows = checked.map((event) => eventRow(event, at));
    await this.#write(() => this.#appendEventRows(rows));
  }

  async readEvents(sessionId: string, options?: ReadEventsOptions): Promise<QuestionEvent[]> {
    const { after, limit } = parseReadEventsOptions(options);
    // SQLite reads a negative LIMIT as "no limit".
    const rows = (await this.#read((statements) => statements.readEvents.all(sessionId, after, limit ?? -1))) as EventRow[];
    return rows.map((row) => eventOf(row, this.filename));
  }

  /** Close the file, after committing every write already made. Idempotent; later calls reject with `STORE_CLOSED`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#batches.flush();
    this.#db.close();
  }

  #use(): ReturnType<typeof prepare> {
    if (this.#closed) throw new QuestionStoreError('STORE_CLOSED', `The question store on "${this.filename}" is closed; open a new SqliteQuestionStore.`);
    return this.#statements;
  }

  /** A write: runs in the next group-commit transaction and resolves once that transaction is on disk. */
  #write<T>(call: (statements: ReturnType<typeof prepare>) => T): Promise<T> {
    const statements = this.#use();
    return this.#batches.run(() => call(statements));
  }

  /**
   * A read: at once when no write is waiting; otherwise queued behind the writes made before it,
   * so that every call sees the effect of every call made before it (a get after an unawaited save
   * finds the record), as with the in-memory store.
   */
  async #read<T>(call: (statements: ReturnType<typeof prepare>) => T): Promise<T> {
    const statements = this.#use();
    if (!this.#batches.idle) return this.#batches.run(() => call(statements));
    try {
      return call(statements);
    } catch (error) {
      throw this.#described(error);
    }
  }

  /** Damage SQLite finds on the way (a page that does not parse) is CORRUPT_STORE, naming the file; any other error as it is. */
  #described(error: unknown): unknown {
    if (!isDamageError(error)) return error;
    return new QuestionStoreError(
      'CORRUPT_STORE',
      `The SQLite file "${this.filename}" is damaged (${(error as Error).message}); nothing was changed by this call. Restore the file from a backup.`,
      { cause: error },
    );
  }
}

/**
 * Every pending question, oldest first. `INDEXED BY` the partial index of pending rows: without it
 * SQLite reads the whole table (settled history included) to find the few pending rows, so the
 * host's start, the console's pending list and its charts grew with the history (25 ms at 10,000
 * settled, bench section 12). With it the read is the pending rows plus a sort of those by `seq`;
 * the index exists since schema version 1, and a statement naming a missing one fails to prepare.
 */
export const pendingAllSql = `SELECT ${columns} FROM questions INDEXED BY questions_pending_by_session WHERE outcome IS NULL ORDER BY seq`;

/** The filters of a history page, as column values. */
type SettledFilters = { session_id?: string; asked_by?: string; outcome?: string };
/** The filter columns, most selective first: the first one present picks the index. */
const settledFilterColumns = ['session_id', 'asked_by', 'outcome'] as const;
const settledIndexOf = { session_id: 'questions_settled_by_session', asked_by: 'questions_settled_by_agent', outcome: 'questions_settled_by_outcome' } as const;

/**
 * A history page filtered on `filterColumns` (in `settledFilterColumns` order): `INDEXED BY` the
 * partial index of the first one, walked backwards from the cursor, so the page reads the rows of
 * that session (agent, outcome) and not every settled row; without a filter, the primary key.
 */
export function settledPageSql(filterColumns: readonly (typeof settledFilterColumns)[number][]): string {
  const first = filterColumns[0];
  const from = first === undefined ? 'questions' : `questions INDEXED BY ${settledIndexOf[first]}`;
  const checks = filterColumns.map((column) => ` AND ${column} = @${column}`).join('');
  return `SELECT seq, ${columns} FROM ${from} WHERE outcome IS NOT NULL AND seq < @before${checks} ORDER BY seq DESC LIMIT @limit`;
}

/** Every statement, prepared once when the store opens. */
function prepare(db: Connection) {
  const statement = (sql: string): Statement => db.prepare(sql);
  // One statement per combination of filters (at most eight), prepared the first time it is asked for.
  const settledStatements = new Map<string, Statement>();
  return {
    insert: statement(
      `INSERT INTO questions (rpc_id, session_id, asked_by, asked_at, mode, urgency, questions, state, asked_on, trace_context)
       VALUES (@rpc_id, @session_id, @asked_by, @asked_at, @mode, @urgency, @questions, @state, @asked_on, @trace_context)
       ON CONFLICT (rpc_id) DO NOTHING`,
    ),
    claim: statement(
      `UPDATE questions SET outcome = @outcome, answer = @answer, settled_at = @settled_at, answered_by = @answered_by
       WHERE rpc_id = @rpc_id AND outcome IS NULL
       RETURNING ${columns}`,
    ),
    get: statement(`SELECT ${columns} FROM questions WHERE rpc_id = ?`),
    setVotes: statement('UPDATE questions SET votes = @votes WHERE rpc_id = @rpc_id AND outcome IS NULL'),
    settleVotes: statement(`UPDATE questions SET votes = @votes, outcome = 'answered', answer = @answer, settled_at = @settled_at, answered_by = @answered_by WHERE rpc_id = @rpc_id AND outcome IS NULL`),
    pendingAll: statement(pendingAllSql),
    pendingOf: statement(`SELECT ${columns} FROM questions WHERE outcome IS NULL AND session_id IN (SELECT value FROM json_each(?)) ORDER BY seq`),
    pendingIdsAll: statement('SELECT rpc_id FROM questions INDEXED BY questions_pending_by_session WHERE outcome IS NULL ORDER BY seq'),
    pendingIdsOf: statement('SELECT rpc_id FROM questions WHERE outcome IS NULL AND session_id IN (SELECT value FROM json_each(?)) ORDER BY seq'),
    settled: (filters: SettledFilters): Statement => {
      const key = settledFilterColumns.filter((column) => filters[column] !== undefined);
      const name = key.join(',');
      let prepared = settledStatements.get(name);
      if (prepared === undefined) {
        prepared = statement(settledPageSql(key));
        settledStatements.set(name, prepared);
      }
      return prepared;
    },
    awaitingResume: statement(`SELECT ${columns} FROM questions WHERE outcome IN (?, ?) AND resumed_at IS NULL ORDER BY seq`),
    markResumed: statement('UPDATE questions SET resumed_at = ? WHERE rpc_id = ? AND outcome IS NOT NULL AND resumed_at IS NULL'),
    appendEvent: statement('INSERT INTO events (session_id, rpc_id, type, at, data) VALUES (@session_id, @rpc_id, @type, @at, @data)'),
    readEvents: statement('SELECT id, session_id, rpc_id, type, at, data FROM events WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?'),
  };
}

/** Insert a checked record as pending; throws `DUPLICATE_RPC_ID` (inside the batch: this call fails alone) for a known rpcId. */
function insertRecord(statements: ReturnType<typeof prepare>, record: NewQuestionRecord): void {
  const inserted = statements.insert.run({
    rpc_id: record.rpcId,
    session_id: record.sessionId,
    asked_by: record.askedBy,
    asked_at: record.askedAt,
    mode: record.mode,
    urgency: record.urgency ?? null,
    questions: JSON.stringify(record.questions),
    state: record.state === undefined ? null : JSON.stringify(record.state),
    asked_on: record.askedOn ?? null,
    trace_context: record.traceContext === undefined ? null : JSON.stringify(record.traceContext),
  });
  if (inserted.changes === 0) {
    throw new QuestionStoreError('DUPLICATE_RPC_ID', `A question with rpcId "${record.rpcId}" is already stored; give every question a fresh rpcId.`);
  }
}

function eventRow(event: NewQuestionEvent, at: string): EventInsert {
  return { session_id: event.sessionId, rpc_id: event.rpcId, type: event.type, at, data: JSON.stringify(event.data) };
}

/** A row as a record, checked: a row edited by hand into something else is reported, not passed on. */
function recordOf(row: QuestionRow, filename: string): QuestionRecord {
  const parsed = questionRecordSchema.safeParse(
    readJson(() => ({
      rpcId: row.rpc_id,
      sessionId: row.session_id,
      askedBy: row.asked_by,
      askedAt: row.asked_at,
      mode: row.mode,
      questions: JSON.parse(row.questions),
      // SQL NULL means "absent"; a state of JSON null is stored as the text "null" and comes back as null.
      ...(row.state === null ? {} : { state: JSON.parse(row.state) }),
      ...(row.urgency === null ? {} : { urgency: row.urgency }),
      ...(row.asked_on === null ? {} : { askedOn: row.asked_on }),
      ...(row.trace_context === null ? {} : { traceContext: JSON.parse(row.trace_context) }),
      ...(row.outcome === null ? {} : { outcome: row.outcome }),
      ...(row.answer === null ? {} : { answer: JSON.parse(row.answer) }),
      ...(row.settled_at === null ? {} : { settledAt: row.settled_at }),
      ...(row.resumed_at === null ? {} : { resumedAt: row.resumed_at }),
      ...(row.votes === null ? {} : { votes: JSON.parse(row.votes) }),
      ...(row.answered_by === null ? {} : { answeredBy: JSON.parse(row.answered_by) }),
    })),
  );
  if (!parsed.success) throw corruptRow(`question "${row.rpc_id}"`, filename, parsed.error);
  return parsed.data;
}

function eventOf(row: EventRow, filename: string): QuestionEvent {
  const parsed = newQuestionEventSchema.safeParse(readJson(() => ({ type: row.type, sessionId: row.session_id, rpcId: row.rpc_id, data: JSON.parse(row.data) })));
  if (!parsed.success) throw corruptRow(`event ${row.id}`, filename, parsed.error);
  return { ...parsed.data, id: row.id, at: row.at } as QuestionEvent;
}

/** Unparseable JSON becomes a value the schema refuses, so it is reported like any other damage. */
function readJson(build: () => Record<string, unknown>): unknown {
  try {
    return build();
  } catch {
    return undefined;
  }
}

function corruptRow(what: string, filename: string, cause: unknown): QuestionStoreError {
  return new QuestionStoreError('CORRUPT_STORE', `The ${what} in "${filename}" does not hold a valid value; it was left as it is.`, { cause });
}

/** SQLite's own word that the file is damaged or not a database (SQLITE_CORRUPT and its extended codes, SQLITE_NOTADB). */
function isDamageError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_'));
}
