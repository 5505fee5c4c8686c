import { QuestionStoreError, newQuestionEventSchema, questionRecordSchema, type QuestionEvent, type QuestionRecord } from '@askseam/store';

/** The columns every record read selects; JSON columns as text, so that SQL NULL (absent) and JSON null stay apart. */
export const recordColumns =
  'rpc_id, session_id, asked_by, asked_at, mode, urgency, questions::text AS questions, state::text AS state, asked_on, outcome, answer::text AS answer, answered_by::text AS answered_by, settled_at, resumed_at, trace_context::text AS trace_context, votes::text AS votes';

export interface QuestionRow {
  rpc_id: string;
  session_id: string | null;
  asked_by: string | null;
  asked_at: string | null;
  mode: string | null;
  urgency: string | null;
  questions: string | null;
  state: string | null;
  asked_on: string | null;
  outcome: string | null;
  answer: string | null;
  answered_by: string | null;
  settled_at: string | null;
  resumed_at: string | null;
  trace_context: string | null;
  votes: string | null;
}

export interface EventRow {
  id: string;
  session_id: string;
  rpc_id: string;
  type: string;
  at: string;
  data: string;
}

/** A row as a record, checked: a row edited by hand into something else is reported (`CORRUPT_STORE`), never passed on. */
export function recordOf(row: QuestionRow, where: string): QuestionRecord {
  const parsed = questionRecordSchema.safeParse(
    readJson(() => ({
      rpcId: row.rpc_id,
      sessionId: row.session_id,
      askedBy: row.asked_by,
      askedAt: row.asked_at,
      mode: row.mode,
      questions: JSON.parse(row.questions ?? ''),
      ...(row.state === null ? {} : { state: JSON.parse(row.state) }),
      ...(row.urgency === null ? {} : { urgency: row.urgency }),
      ...(row.asked_on === null ? {} : { askedOn: row.asked_on }),
      ...(row.outcome === null ? {} : { outcome: row.outcome }),
      ...(row.answer === null ? {} : { answer: JSON.parse(row.answer) }),
      ...(row.answered_by === null ? {} : { answeredBy: JSON.parse(row.answered_by) }),
      ...(row.settled_at === null ? {} : { settledAt: row.settled_at }),
      ...(row.resumed_at === null ? {} : { resumedAt: row.resumed_at }),
      ...(row.votes === null ? {} : { votes: JSON.parse(row.votes) }),
      ...(row.trace_context === null ? {} : { traceContext: JSON.parse(row.trace_context) }),
    })),
  );
  if (!parsed.success) throw corruptRow(`question "${row.rpc_id}"`, where, parsed.error);
  return parsed.data;
}

export function eventOf(row: EventRow, where: string): QuestionEvent {
  const parsed = newQuestionEventSchema.safeParse(readJson(() => ({ type: row.type, sessionId: row.session_id, rpcId: row.rpc_id, data: JSON.parse(row.data) })));
  if (!parsed.success) throw corruptRow(`event ${row.id}`, where, parsed.error);
  return { ...parsed.data, id: Number(row.id), at: row.at } as QuestionEvent;
}

/** Unparseable JSON becomes a value the schema refuses, so it is reported like any other damage. */
function readJson(build: () => Record<string, unknown>): unknown {
  try {
    return build();
  } catch {
    return undefined;
  }
}

function corruptRow(what: string, where: string, cause: unknown): QuestionStoreError {
  return new QuestionStoreError('CORRUPT_STORE', `The ${what} in ${where} does not hold a valid value; it was left as it is.`, { cause });
}
