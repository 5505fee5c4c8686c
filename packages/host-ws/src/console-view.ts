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
  /** The routing tier reached now, as text for the page's column (`tier 1: group:leads`); only for a routed question (see `tierOf`). */
  tier?: string;
  /** The same, as data: the highest tier index reached and that tier's answerers. */
  routing?: ConsoleRoutingTier;
}

/** The tier a routed question has reached: its index (0 when asked) and who that tier's answerers are (`principal:alice`, `group:leads`, `channel:slack:C0123`, `agent:triage`). */
export interface ConsoleRoutingTier {
  tier: number;
  answerers: string[];
}

/** Where the console reads the tier reached: the host's routing (`Routing.reachedTier`). */
export type ReachedTier = (rpcId: string) => ConsoleRoutingTier | undefined;

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
 * The routing tier of a pending question (docs/routing.md): the highest tier reached now and its
 * answerers, as the host's routing holds them (the same clock and event log the answer check
 * uses). Undefined for an unrouted question, or on a host without `route`.
 */
export function tierOf(record: QuestionRecord, reachedTier: ReachedTier | undefined): ConsoleRoutingTier | undefined {
  return reachedTier?.(record.rpcId);
}

export function pendingView(record: QuestionRecord, now: number, reachedTier?: ReachedTier): ConsolePendingQuestion {
  const routing = tierOf(record, reachedTier);
  return {
    rpcId: record.rpcId,
    sessionId: record.sessionId,
    askedBy: record.askedBy,
    askedAt: record.askedAt,
    ageMs: Math.max(0, now - Date.parse(record.askedAt)),
    mode: record.mode,
    ...(record.urgency === undefined ? {} : { urgency: record.urgency }),
    questions: questionTexts(record),
    ...(routing === undefined ? {} : { tier: `tier ${routing.tier}: ${routing.answerers.join(', ')}`, routing }),
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
