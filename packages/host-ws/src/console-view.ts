import type { AnsweredBy, QuestionOutcome, QuestionRecord, QuestionUrgency } from '@askseam/store';
import type { QuarantinedQuestion } from './quarantine.js';

/** Who settled a question, as the settled record says. */
export type ConsoleAnsweredBy = AnsweredBy;

/** A pending question as the operator console lists it: what it is, who asked, how long it has waited. No answer state. */
export interface ConsolePendingQuestion {
  rpcId: string;
  sessionId: string;
  askedBy: string;
  askedAt: string;
  /** Milliseconds since it was asked, by the host's clock when listed. */
  ageMs: number;
  urgency?: QuestionUrgency;
  mode: QuestionRecord['mode'];
  /** Each question's header and text (inert text for the page; never options' details or state). */
  questions: { id: string; header?: string; question: string }[];
  /** The routing tier that may answer it now, when routing decides one (see `tierOf`). */
  tier?: string;
}

/** A settled question as the console's history lists it: how it ended, who settled it and how long it took. Never the answer's values. */
export interface ConsoleSettledQuestion {
  rpcId: string;
  sessionId: string;
  askedBy: string;
  askedAt: string;
  settledAt?: string;
  outcome: QuestionOutcome;
  answeredBy?: ConsoleAnsweredBy;
  /** settledAt − askedAt, in milliseconds. */
  timeToSettleMs?: number;
  questions: { id: string; header?: string; question: string }[];
}

/** A quarantined record with what an operator can do about it. */
export interface ConsoleQuarantinedQuestion extends QuarantinedQuestion {
  advice: string;
}

/**
 * The routing tier of a pending question. Routing (`route(question, context) → Tier[]`, docs/design.md,
 * "Wave 3") is not part of this host yet: when it is, this is the one place that names the tier
 * reached now, and the console shows it in its own column. Until then no question has one.
 */
export function tierOf(_record: QuestionRecord, _now: number): string | undefined {
  return undefined;
}

export function pendingView(record: QuestionRecord, now: number): ConsolePendingQuestion {
  const tier = tierOf(record, now);
  return {
    rpcId: record.rpcId,
    sessionId: record.sessionId,
    askedBy: record.askedBy,
    askedAt: record.askedAt,
    ageMs: Math.max(0, now - Date.parse(record.askedAt)),
    mode: record.mode,
    ...(record.urgency === undefined ? {} : { urgency: record.urgency }),
    questions: questionTexts(record),
    ...(tier === undefined ? {} : { tier }),
  };
}

export function settledView(record: QuestionRecord): ConsoleSettledQuestion {
  const answeredBy = answeredByOf(record);
  const took = record.settledAt === undefined ? undefined : Date.parse(record.settledAt) - Date.parse(record.askedAt);
  return {
    rpcId: record.rpcId,
    sessionId: record.sessionId,
    askedBy: record.askedBy,
    askedAt: record.askedAt,
    ...(record.settledAt === undefined ? {} : { settledAt: record.settledAt }),
    outcome: record.outcome!,
    ...(answeredBy === undefined ? {} : { answeredBy }),
    ...(took === undefined || !Number.isFinite(took) ? {} : { timeToSettleMs: Math.max(0, took) }),
    questions: questionTexts(record),
  };
}

export function quarantinedView(entry: QuarantinedQuestion): ConsoleQuarantinedQuestion {
  const misfit = entry.reason.includes('does not fit');
  const advice = misfit
    ? 'Its stored answer does not fit its questions, so nobody was handed it. Read the record in the store, then delete it (the asker already ended) or write a settlement that fits; the host skips it until then.'
    : 'The store holds a record this host cannot read (damaged, or edited by hand). Repair or delete it in the store (docs/durability.md, "A damaged record"); the host skips it until then.';
  return { ...entry, advice };
}

/** Who settled it, as the record says (absent for asker-side outcomes and records from before stores kept it). */
function answeredByOf(record: QuestionRecord): ConsoleAnsweredBy | undefined {
  return record.answeredBy === undefined ? undefined : { ...record.answeredBy };
}

function questionTexts(record: QuestionRecord): { id: string; header?: string; question: string }[] {
  return record.questions.map((item) => ({ id: item.id, ...(item.header === undefined ? {} : { header: item.header }), question: item.question }));
}
