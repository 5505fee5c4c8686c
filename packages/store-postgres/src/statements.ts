import { recordColumns } from './decode.js';

/** A statement with its name: pg prepares it once per connection and reuses the plan. */
export interface NamedQuery {
  name: string;
  text: string;
}

export interface StoreStatements {
  /** Parameters: the record's 10 columns, then (withEvent) type, at, data, then (notify) channel, payload. Returns `saved` (1 or 0). */
  save(withEvent: boolean, notify: boolean): NamedQuery;
  /** Parameters: rpcId, outcome, answer, answeredBy, settledAt, human, then (retention) retainMs, then (notify) channel, payload. */
  claim(notify: boolean): NamedQuery;
  get: NamedQuery;
  pendingAll: NamedQuery;
  pendingOf: NamedQuery;
  /** Parameters: none. The pending rpcIds in save order, no record columns. */
  pendingIdsAll: NamedQuery;
  /** Parameters: session ids. */
  pendingIdsOf: NamedQuery;
  awaitingResume: NamedQuery;
  markResumed: NamedQuery;
  appendEvent: NamedQuery;
  appendEvents: NamedQuery;
  readEvents: NamedQuery;
  /** Parameters: rpcId. The pending record, its row locked until the transaction ends. */
  lockPending: NamedQuery;
  /** Parameters: rpcId, votes. */
  setVotes: NamedQuery;
  /** Parameters: rpcId, votes, answer, settledAt, answeredBy. */
  settleVotes: NamedQuery;
  /** Parameters: channel, payload. */
  notify: NamedQuery;
  /** Parameters: before (a seq), sessionId, askedBy, outcome (each null for any), limit. Newest first, with `seq`. */
  settled: NamedQuery;
}

/**
 * Every statement of a store on `schema` (a checked identifier, so it is written into the text).
 * Names carry the schema so that two stores sharing one app pool never reuse each other's plans.
 */
export function storeStatements(schema: string, retention: boolean): StoreStatements {
  const s = `"${schema}"`;
  const named = (name: string, text: string): NamedQuery => ({ name: `askseam_${schema}_${name}`, text });
  // An append to a session's log first takes that session's transaction lock, so the session's event
  // ids are handed out, and committed, in one order: a reader past id N of a session never later
  // finds an event of it below N appear (its cursor would skip it). Per session, so that asks in
  // different sessions commit side by side and share WAL flushes instead of queueing for one lock.
  const sessionLock = (sessionSql: string) => `pg_advisory_xact_lock(${0x41534b53 | 0}, hashtext('${schema}:' || ${sessionSql}))`;
  const insertQuestion = `INSERT INTO ${s}.questions (rpc_id, session_id, asked_by, asked_at, mode, urgency, questions, state, asked_on, trace_context)
    VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8::json, $9, $10::jsonb) ON CONFLICT (rpc_id) DO NOTHING RETURNING rpc_id`;
  // Finished records past the retention window go with a later claim or resume (an index scan on finished_at).
  const forget = (param: number) => (retention ? `, forgotten AS (DELETE FROM ${s}.questions WHERE finished_at < now() - $${param} * interval '1 millisecond')` : '');

  const saves = new Map<string, NamedQuery>();
  const claims = new Map<string, NamedQuery>();
  return {
    save(withEvent, notify) {
      const key = `${withEvent}-${notify}`;
      let query = saves.get(key);
      if (query === undefined) {
        const next = withEvent ? 14 : 11;
        const parts = [`saved AS (${insertQuestion})`];
        if (withEvent) {
          parts.push(`locked AS (SELECT ${sessionLock('$2::text')} FROM saved)`);
          parts.push(`appended AS (INSERT INTO ${s}.events (session_id, rpc_id, type, at, data) SELECT $2, $1, $11, $12, $13::json FROM locked RETURNING id)`);
        }
        // The news goes with the write: queued in this transaction, sent by PostgreSQL only when it commits.
        if (notify) parts.push(`notified AS (SELECT pg_notify($${next}, $${next + 1}) FROM saved)`);
        const counts = [
          '(SELECT count(*) FROM saved)::int AS saved',
          ...(withEvent ? ['(SELECT count(*) FROM appended)::int AS appended'] : []),
          ...(notify ? ['(SELECT count(*) FROM notified)::int AS notified'] : []),
        ];
        query = named(`save_${withEvent ? 'e' : ''}${notify ? 'n' : ''}`, `WITH ${parts.join(', ')} SELECT ${counts.join(', ')}`);
        saves.set(key, query);
      }
      return query;
    },
    claim(notify) {
      const key = String(notify);
      let query = claims.get(key);
      if (query === undefined) {
        const next = retention ? 8 : 7;
        // One UPDATE … WHERE outcome IS NULL: of racing claims (from any process) PostgreSQL lets one
        // change the row; the others wait for it, re-check the condition and find it settled.
        const settle = `settled AS (UPDATE ${s}.questions SET outcome = $2, answer = $3::json, answered_by = $4::jsonb, settled_at = $5,
          finished_at = CASE WHEN $6::boolean THEN NULL ELSE now() END
          WHERE rpc_id = $1 AND outcome IS NULL RETURNING *)`;
        const notified = notify ? `, notified AS (SELECT pg_notify($${next}, $${next + 1}) FROM settled)` : '';
        const columns = recordColumns.split(', ').map((column) => (column.includes(' AS ') ? column.replace(/^(\w+)::/, 'settled.$1::') : `settled.${column}`));
        query = named(
          `claim${notify ? '_n' : ''}`,
          `WITH ${settle}${notified}${forget(7)} SELECT ${columns.join(', ')}${notify ? ', (SELECT count(*) FROM notified)::int AS notified' : ''} FROM settled`,
        );
        claims.set(key, query);
      }
      return query;
    },
    get: named('get', `SELECT ${recordColumns} FROM ${s}.questions WHERE rpc_id = $1`),
    pendingAll: named('pending_all', `SELECT ${recordColumns} FROM ${s}.questions WHERE outcome IS NULL ORDER BY seq`),
    pendingOf: named('pending_of', `SELECT ${recordColumns} FROM ${s}.questions WHERE outcome IS NULL AND session_id = ANY($1::text[]) ORDER BY seq`),
    pendingIdsAll: named('pending_ids_all', `SELECT rpc_id FROM ${s}.questions WHERE outcome IS NULL ORDER BY seq`),
    pendingIdsOf: named('pending_ids_of', `SELECT rpc_id FROM ${s}.questions WHERE outcome IS NULL AND session_id = ANY($1::text[]) ORDER BY seq`),
    awaitingResume: named('awaiting', `SELECT ${recordColumns} FROM ${s}.questions WHERE outcome IN ('answered', 'cancelled') AND resumed_at IS NULL ORDER BY seq`),
    markResumed: named(
      'mark_resumed',
      `WITH marked AS (UPDATE ${s}.questions SET resumed_at = $2, finished_at = now() WHERE rpc_id = $1 AND outcome IS NOT NULL AND resumed_at IS NULL RETURNING 1 AS marked)${forget(3)} SELECT marked FROM marked`,
    ),
    appendEvent: named(
      'append_event',
      `WITH locked AS (SELECT ${sessionLock('$1::text')}) INSERT INTO ${s}.events (session_id, rpc_id, type, at, data) SELECT $1, $2, $3, $4, $5::json FROM locked RETURNING id`,
    ),
    appendEvents: named(
      'append_events',
      // Every session of the batch, in sorted order (two batches never wait on each other in a circle);
      // the count consumes every lock before a row is inserted.
      `WITH locked AS (SELECT count(${sessionLock('sessions.id')}) AS n FROM (SELECT DISTINCT unnest($1::text[]) AS id ORDER BY 1) sessions)
       INSERT INTO ${s}.events (session_id, rpc_id, type, at, data)
       SELECT batch.session_id, batch.rpc_id, batch.type, $5, batch.data::json
       FROM locked, unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS batch(session_id, rpc_id, type, data, n) ORDER BY batch.n`,
    ),
    lockPending: named('lock_pending', `SELECT ${recordColumns} FROM ${s}.questions WHERE rpc_id = $1 AND outcome IS NULL FOR UPDATE`),
    setVotes: named('set_votes', `UPDATE ${s}.questions SET votes = $2::jsonb WHERE rpc_id = $1 AND outcome IS NULL`),
    settleVotes: named(
      'settle_votes',
      `UPDATE ${s}.questions SET votes = $2::jsonb, outcome = 'answered', answer = $3::json, settled_at = $4, answered_by = $5::jsonb, finished_at = NULL WHERE rpc_id = $1 AND outcome IS NULL`,
    ),
    notify: named('notify', 'SELECT pg_notify($1, $2)'),
    settled: named(
      'settled',
      `SELECT seq::text AS seq, ${recordColumns} FROM ${s}.questions
       WHERE outcome IS NOT NULL AND seq < $1::bigint
         AND ($2::text IS NULL OR session_id = $2) AND ($3::text IS NULL OR asked_by = $3) AND ($4::text IS NULL OR outcome = $4)
       ORDER BY seq DESC LIMIT $5`,
    ),
    readEvents: named('read_events', `SELECT id::text AS id, session_id, rpc_id, type, at, data::text AS data FROM ${s}.events WHERE session_id = $1 AND id > $2 ORDER BY id LIMIT $3`),
  };
}
