import {
  QuestionStoreError,
  humanOutcomes,
  parseNewQuestionEvent,
  parseNewQuestionEvents,
  parseListSettledOptions,
  parseNewQuestionRecord,
  parseReadEventsOptions,
  parseRecordWithEvent,
  parseVoteRequest,
  tallyVote,
  voteCastEvent,
  type ListRecordsOptions,
  type ListSettledOptions,
  type NewQuestionEvent,
  type NewQuestionRecord,
  type QuestionEvent,
  type QuestionOutcome,
  type QuestionRecord,
  type QuestionStore,
  type ReadEventsOptions,
  type SessionSelection,
  type SettledRecordsPage,
  type StoreWriteOptions,
  type VoteRequest,
  type VoteResult,
} from '@askseam/store';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import type pg from 'pg';
import { checkout, openConnection, type Connection, type PostgresConnectionOptions } from './connection.js';
import { eventOf, recordColumns, recordOf, type EventRow, type QuestionRow } from './decode.js';
import { closedError, isUnavailableError, storeErrorOf, type Delivery } from './errors.js';
import { migratePostgres } from './migrations.js';
import { settlementOf } from './settlement.js';
import { storeStatements, type StoreStatements } from './statements.js';

export interface PostgresQuestionStoreOptions extends PostgresConnectionOptions {
  /**
   * Delete finished records (resumed, or settled `aborted` / `timed_out`) this many ms after they
   * finish, as later claims and resumes go by. Pending records and settled ones awaiting their
   * resume are never deleted, nor is the event log (the audit trail). Default: keep them.
   */
  retainFinishedMs?: number;
}

/** NOTIFY payloads are capped at 8000 bytes by PostgreSQL; announcements stay well under it. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7_900;

/**
 * A `QuestionStore` in PostgreSQL (node-postgres), shared by every host node that points at the
 * same database and schema. Every write is one transaction (one statement, except `vote`): `save` refuses a known
 * rpcId, `saveWithEvent` stores the record and its event together, `claim` settles with
 * `UPDATE … WHERE outcome IS NULL RETURNING` (exactly once across every process), and an
 * announcement (`options.announce`) is a `pg_notify` in that same transaction, so it is delivered
 * only if the write commits. Event ids grow in commit order (appends take a transaction lock), so a
 * cursor never skips an event. The schema is migrated on first use; see `open()`.
 */
export class PostgresQuestionStore implements QuestionStore {
  /** The schema holding the store's tables. */
  readonly schema: string;
  /**
   * The login, server, database and schema this store announces on, as `PostgresQuestionBus.publishesOn`
   * (`postgres://user@host:port/database#schema`): a host whose bus names the same lets the store
   * send the bus's news inside its writes. An announcement carries ids, never question text.
   */
  readonly announcesOn: string;
  readonly #connection: Connection;
  readonly #sql: StoreStatements;
  readonly #retainMs: number | undefined;
  #ready: Promise<void> | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: PostgresQuestionStoreOptions) {
    const retain = options.retainFinishedMs;
    if (retain !== undefined && (!Number.isSafeInteger(retain) || retain <= 0)) {
      throw new QuestionStoreError('INVALID_INPUT', `PostgresQuestionStore: retainFinishedMs must be a whole number of milliseconds above 0, not ${String(retain)}; leave it out to keep finished records.`);
    }
    this.#connection = openConnection(options, 'PostgresQuestionStore');
    this.schema = this.#connection.schema;
    this.announcesOn = this.#connection.serverName;
    this.#retainMs = retain;
    this.#sql = storeStatements(this.schema, retain !== undefined);
    // Started now, so the first call finds the schema migrated (a failure is reported by that call, or by open()).
    this.ready().catch(() => {});
  }

  /** A store with its schema created or migrated: rejects `NOT_A_STORE`, `NEWER_SCHEMA` or `STORE_UNAVAILABLE` instead of the first call doing so. */
  static async open(options: PostgresQuestionStoreOptions): Promise<PostgresQuestionStore> {
    const store = new PostgresQuestionStore(options);
    try {
      await store.ready();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Resolves once the schema is migrated (every call waits for it anyway). A failed attempt that may pass later (server away) is tried again by the next call. */
  ready(): Promise<void> {
    this.#ready ??= this.#migrate().catch((error: unknown) => {
      if (QuestionStoreError.isInstance(error) && error.code === 'STORE_UNAVAILABLE') this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #migrate(): Promise<void> {
    const { pool, target, schema } = this.#connection;
    let client: Awaited<ReturnType<typeof checkout>>;
    try {
      client = await checkout(pool);
    } catch (error) {
      throw storeErrorOf(error, `migrate schema "${schema}"`, target, 'unsent', false);
    }
    try {
      await migratePostgres(client, schema);
      client.done();
    } catch (error) {
      client.done(error instanceof Error ? error : undefined);
      throw storeErrorOf(error, `migrate schema "${schema}"`, target, 'sent', false);
    }
  }

  async save(record: NewQuestionRecord, options?: StoreWriteOptions): Promise<void> {
    await this.#save(parseNewQuestionRecord(record), undefined, options);
  }

  /** The record and its event in one statement: one transaction, so both are stored or neither. */
  async saveWithEvent(record: NewQuestionRecord, event: NewQuestionEvent, options?: StoreWriteOptions): Promise<void> {
    const checked = parseRecordWithEvent(record, event);
    await this.#save(checked.record, checked.event, options);
  }

  async #save(record: NewQuestionRecord, event: NewQuestionEvent | undefined, options: StoreWriteOptions | undefined): Promise<void> {
    const notify = notifyArgs(options, record.rpcId);
    const values: unknown[] = [
      record.rpcId,
      record.sessionId,
      record.askedBy,
      record.askedAt,
      record.mode,
      record.urgency ?? null,
      JSON.stringify(record.questions),
      record.state === undefined ? null : JSON.stringify(record.state),
      record.askedOn ?? null,
      record.traceContext === undefined ? null : JSON.stringify(record.traceContext),
    ];
    if (event !== undefined) values.push(event.type, new Date().toISOString(), JSON.stringify(event.data));
    values.push(...notify);
    const query = this.#sql.save(event !== undefined, notify.length > 0);
    const rows = await this.#query<{ saved: number }>(`save question "${record.rpcId}"`, true, query, values);
    if (rows[0]?.saved !== 1) {
      throw new QuestionStoreError('DUPLICATE_RPC_ID', `A question with rpcId "${record.rpcId}" is already stored; give every question a fresh rpcId.`);
    }
  }

  async claim(rpcId: string, outcome: QuestionOutcome, answer?: AskUserQuestionAnswer, options?: StoreWriteOptions): Promise<QuestionRecord | undefined> {
    const settlement = settlementOf(outcome, answer, options);
    const notify = notifyArgs(options, rpcId);
    const human = humanOutcomes.includes(settlement.outcome);
    const values: unknown[] = [
      rpcId,
      settlement.outcome,
      settlement.answer === undefined ? null : JSON.stringify(settlement.answer),
      settlement.answeredBy === undefined ? null : JSON.stringify(settlement.answeredBy),
      new Date().toISOString(),
      human,
      ...(this.#retainMs === undefined ? [] : [this.#retainMs]),
      ...notify,
    ];
    const rows = await this.#query<QuestionRow>(`claim question "${rpcId}"`, true, this.#sql.claim(notify.length > 0), values);
    return rows[0] === undefined ? undefined : recordOf(rows[0], this.#where());
  }

  /**
   * A quorum approval's vote, in one transaction: the pending row is locked (`SELECT … FOR UPDATE`),
   * so votes and claims from any process on the same schema run one after another; the vote is
   * tallied, written with its `vote_cast` event and, when it settles the question, the
   * announcement (`pg_notify`, sent only if the transaction commits).
   */
  async vote(rpcId: string, request: VoteRequest, options?: StoreWriteOptions): Promise<VoteResult> {
    const checked = parseVoteRequest(request);
    const notify = notifyArgs(options, rpcId);
    return await this.#transaction(`vote on question "${rpcId}"`, async (run): Promise<VoteResult> => {
      const rows = await run<QuestionRow>(this.#sql.lockPending, [rpcId]);
      if (rows[0] === undefined) return { kind: 'not-pending' };
      const at = new Date().toISOString();
      const result = tallyVote(recordOf(rows[0], this.#where()), checked, at);
      if (result.kind === 'counted') await run(this.#sql.setVotes, [rpcId, JSON.stringify(result.record.votes)]);
      else if (result.kind === 'settled') {
        const { votes, answer, settledAt, answeredBy } = result.record;
        await run(this.#sql.settleVotes, [rpcId, JSON.stringify(votes), JSON.stringify(answer), settledAt, JSON.stringify(answeredBy)]);
        if (notify.length > 0) await run(this.#sql.notify, notify);
      }
      if (result.kind === 'counted' || result.kind === 'settled') {
        // Its audit event in the same transaction: the log never lacks a kept vote.
        const event = voteCastEvent(result.record, checked);
        await run(this.#sql.appendEvent, [event.sessionId, event.rpcId, event.type, at, JSON.stringify(event.data)]);
      }
      return result;
    });
  }

  async get(rpcId: string): Promise<QuestionRecord | undefined> {
    const rows = await this.#query<QuestionRow>(`read question "${rpcId}"`, false, this.#sql.get, [rpcId]);
    return rows[0] === undefined ? undefined : recordOf(rows[0], this.#where());
  }

  async listPending(sessions: SessionSelection, options?: ListRecordsOptions): Promise<QuestionRecord[]> {
    const ids = sessions === 'all' ? undefined : [...new Set(sessions)];
    if (ids !== undefined && ids.length === 0) {
      this.#assertOpen('list pending questions');
      return [];
    }
    const rows = await this.#query<QuestionRow>('list pending questions', false, ids === undefined ? this.#sql.pendingAll : this.#sql.pendingOf, ids === undefined ? [] : [ids]);
    return this.#recordsOf(rows, options);
  }

  /** The rpcIds alone: no record column crosses the wire or is parsed. */
  async listPendingIds(sessions: SessionSelection): Promise<string[]> {
    const ids = sessions === 'all' ? undefined : [...new Set(sessions)];
    if (ids !== undefined && ids.length === 0) {
      this.#assertOpen('list the ids of pending questions');
      return [];
    }
    const rows = await this.#query<{ rpc_id: string }>('list the ids of pending questions', false, ids === undefined ? this.#sql.pendingIdsAll : this.#sql.pendingIdsOf, ids === undefined ? [] : [ids]);
    return rows.map((row) => row.rpc_id);
  }

  async listAwaitingResume(options?: ListRecordsOptions): Promise<QuestionRecord[]> {
    const rows = await this.#query<QuestionRow>('list questions awaiting their resume', false, this.#sql.awaitingResume, []);
    return this.#recordsOf(rows, options);
  }

  /** Settled records, newest asked first (reverse save order), a page at a time; `next` is the last row's `seq`. */
  async listSettled(options?: ListSettledOptions): Promise<SettledRecordsPage> {
    const { sessionId, askedBy, outcome, cursor, limit } = parseListSettledOptions(options);
    if (cursor !== undefined && !/^[1-9]\d{0,17}$/.test(cursor)) {
      throw new QuestionStoreError('INVALID_INPUT', `listSettled: "cursor" ${JSON.stringify(cursor.slice(0, 40))} was not made by this store; pass the \`next\` of a page it returned.`);
    }
    // One more than asked: whether it is there says whether there is a next page.
    const rows = await this.#query<QuestionRow & { seq: string }>('list settled questions', false, this.#sql.settled, [
      cursor ?? '9223372036854775807',
      sessionId ?? null,
      askedBy ?? null,
      outcome ?? null,
      limit + 1,
    ]);
    const page = rows.slice(0, limit);
    const records = this.#recordsOf(page, options);
    return rows.length > limit ? { records, next: page.at(-1)!.seq } : { records };
  }

  async markResumed(rpcId: string): Promise<boolean> {
    const values: unknown[] = [rpcId, new Date().toISOString(), ...(this.#retainMs === undefined ? [] : [this.#retainMs])];
    const rows = await this.#query<{ marked: number }>(`mark question "${rpcId}" resumed`, true, this.#sql.markResumed, values);
    return rows.length === 1;
  }

  async appendEvent(event: NewQuestionEvent): Promise<QuestionEvent> {
    const parsed = parseNewQuestionEvent(event);
    const at = new Date().toISOString();
    const rows = await this.#query<{ id: string }>(`append a "${parsed.type}" event to session "${parsed.sessionId}"`, true, this.#sql.appendEvent, [
      parsed.sessionId,
      parsed.rpcId,
      parsed.type,
      at,
      JSON.stringify(parsed.data),
    ]);
    return { ...parsed, id: Number(rows[0]!.id), at } as QuestionEvent;
  }

  async appendEvents(events: readonly NewQuestionEvent[]): Promise<void> {
    // Every event is checked before anything is sent: a bad one refuses the batch, nothing written.
    const checked = parseNewQuestionEvents(events);
    if (checked.length === 0) {
      this.#assertOpen('append an empty batch of events');
      return;
    }
    const at = new Date().toISOString();
    await this.#query(`append ${checked.length} events`, true, this.#sql.appendEvents, [
      checked.map((event) => event.sessionId),
      checked.map((event) => event.rpcId),
      checked.map((event) => event.type),
      checked.map((event) => JSON.stringify(event.data)),
      at,
    ]);
  }

  async readEvents(sessionId: string, options?: ReadEventsOptions): Promise<QuestionEvent[]> {
    const { after, limit } = parseReadEventsOptions(options);
    const rows = await this.#query<EventRow>(`read the events of session "${sessionId}"`, false, this.#sql.readEvents, [sessionId, after, limit ?? null]);
    return rows.map((row) => eventOf(row, this.#where()));
  }

  /** Stop using PostgreSQL. Ends the pool the store made from `connectionString`; a pool you passed stays open. Idempotent; later calls reject with `STORE_CLOSED`. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    this.#closing = this.#connection.owned ? this.#connection.pool.end().catch(() => {}) : Promise.resolve();
    return this.#closing;
  }

  /** Rows as checked records; with `onUnreadable`, a damaged row is reported and left out instead of failing the list. */
  #recordsOf(rows: QuestionRow[], options: ListRecordsOptions | undefined): QuestionRecord[] {
    const onUnreadable = options?.onUnreadable;
    if (onUnreadable === undefined) return rows.map((row) => recordOf(row, this.#where()));
    const records: QuestionRecord[] = [];
    for (const row of rows) {
      try {
        records.push(recordOf(row, this.#where()));
      } catch (error) {
        if (!QuestionStoreError.isInstance(error)) throw error;
        onUnreadable({ rpcId: row.rpc_id, ...(typeof row.session_id === 'string' && row.session_id !== '' ? { sessionId: row.session_id } : {}), error });
      }
    }
    return records;
  }

  /** Run one statement on a pooled connection, translating what goes wrong into the store's error codes. */
  async #query<Row extends pg.QueryResultRow>(action: string, writes: boolean, query: { name: string; text: string }, values: unknown[]): Promise<Row[]> {
    this.#assertOpen(action);
    await this.ready();
    const { pool, target } = this.#connection;
    for (let attempt = 1; ; attempt++) {
      let delivery: Delivery = 'unsent';
      let client: Awaited<ReturnType<typeof checkout>> | undefined;
      try {
        client = await checkout(pool);
        this.#assertOpen(action);
        delivery = 'sent';
        const result = await client.query<Row>({ ...query, values });
        client.done();
        return result.rows;
      } catch (error) {
        const lost = isUnavailableError(error);
        // A connection that failed is destroyed rather than handed to the next call; one a statement failed on is fine.
        client?.done(lost ? (error as Error) : undefined);
        // A read on a pooled connection the server had already closed (after a restart) is read again
        // on a fresh one; a write is not, since it may have run (the caller hears `sent: true`).
        if (lost && !writes && delivery === 'sent' && attempt === 1) continue;
        throw storeErrorOf(error, action, target, delivery, writes);
      }
    }
  }

  /** Run `work` in one transaction on one pooled connection (a write: never retried), translating errors like `#query`. */
  async #transaction<T>(
    action: string,
    work: (run: <Row extends pg.QueryResultRow>(query: { name: string; text: string }, values: unknown[]) => Promise<Row[]>) => Promise<T>,
  ): Promise<T> {
    this.#assertOpen(action);
    await this.ready();
    const { pool, target } = this.#connection;
    let delivery: Delivery = 'unsent';
    let broken: Error | undefined;
    let client: Awaited<ReturnType<typeof checkout>> | undefined;
    try {
      client = await checkout(pool);
      this.#assertOpen(action);
      delivery = 'sent';
      const connected = client;
      await connected.query('BEGIN');
      let result: T;
      try {
        result = await work(async (query, values) => (await connected.query({ ...query, values })).rows);
        await connected.query('COMMIT');
      } catch (error) {
        // A connection left inside a transaction (the rollback failed) is destroyed, never pooled.
        if (isUnavailableError(error) || !(await connected.query('ROLLBACK').then(() => true, () => false))) broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      }
      client.done();
      return result;
    } catch (error) {
      client?.done(broken ?? (isUnavailableError(error) ? (error as Error) : undefined));
      throw storeErrorOf(error, action, target, delivery, true);
    }
  }

  #assertOpen(action: string): void {
    if (this.#closed) throw closedError('question store', action);
  }

  #where(): string {
    return `schema "${this.schema}" of PostgreSQL at ${this.#connection.target}`;
  }
}

/**
 * A write's announcement as NOTIFY arguments (channel, payload), or none; checked before anything is
 * sent. PostgreSQL caps a NOTIFY payload at 8000 bytes, so the store puts the record's rpcId (as
 * JSON) between `before` and `after`, never the record: receivers read the record from the store.
 */
function notifyArgs(options: StoreWriteOptions | undefined, rpcId: string): string[] {
  const announce = options?.announce;
  if (announce === undefined) return [];
  const { channel, before, after } = announce;
  if (typeof channel !== 'string' || channel === '' || typeof before !== 'string' || typeof after !== 'string') {
    throw new QuestionStoreError('INVALID_INPUT', 'options.announce must be { channel, before, after } with a non-empty channel and string texts (from a bus\'s announcement()); nothing was written.');
  }
  const payload = `${before}${JSON.stringify(rpcId)}${after}`;
  if (Buffer.byteLength(payload) > MAX_NOTIFY_PAYLOAD_BYTES) {
    throw new QuestionStoreError('INVALID_INPUT', `options.announce makes a NOTIFY payload of ${Buffer.byteLength(payload)} bytes, above the ${MAX_NOTIFY_PAYLOAD_BYTES} PostgreSQL takes; nothing was written. Publish that message through the bus after the write instead.`);
  }
  return [channel, payload];
}
