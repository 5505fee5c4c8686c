// The checks every store runs where data enters it, so that all implementations refuse the same
// inputs with the same error (the contract suite holds them to it).
import { askUserQuestionAnswerSchema, compiledSafeParse, isSealedAnswer, isSealedQuestionBatch, type AskUserQuestionAnswer } from '@askseam/user-questions';
import type * as z from 'zod';
import { QuestionStoreError } from './errors.js';
import { humanInputRequestedWithoutQuestionsSchema, newQuestionEventSchema, responseFromHumanWithoutAnswerSchema, type NewQuestionEvent } from './events.js';
import { answeredBySchema, humanOutcomes, newQuestionRecordSchema, questionOutcomeSchema, type AnsweredBy, type NewQuestionRecord, type QuestionOutcome } from './record.js';
import type { ListSettledOptions, ReadEventsOptions } from './store.js';

// The compiled parsers answer exactly as their schemas do; what they accept they return as a fresh
// copy built field by field, so no structuredClone is needed after them (which costs ten times a parse).
// `state` is recursive JSON, which zod cannot compile: a record without it is read by the same
// schema minus that key, which is the whole schema's answer for every input that lacks the key.
const parseStatelessRecord = compiledSafeParse(newQuestionRecordSchema.omit({ state: true }));
const parseAnswer = compiledSafeParse(askUserQuestionAnswerSchema);
// A question batch the seam checked and froze (isSealedQuestionBatch) fits the question schema and
// can never change: it is kept by reference, and only the other fields are read and copied.
const parseStatelessRecordWithoutQuestions = compiledSafeParse(newQuestionRecordSchema.omit({ state: true, questions: true }));
const parseRequestedWithoutQuestions = compiledSafeParse(humanInputRequestedWithoutQuestionsSchema);
// Likewise an answer the host checked and froze (isSealedAnswer) in a `response_from_human` event.
const parseResponseWithoutAnswer = compiledSafeParse(responseFromHumanWithoutAnswerSchema);
/** The event schema's compiled safeParse (not exported from the package): the memory store also copies its events with it. */
export const readNewQuestionEvent = compiledSafeParse(newQuestionEventSchema);

/** A fresh, checked copy of a record for `save`. Throws `INVALID_INPUT` naming the first problem. */
export function parseNewQuestionRecord(record: unknown): NewQuestionRecord {
  return checkNewQuestionRecord(record, { keepSealed: false });
}

/**
 * For a store that keeps records in memory: like `parseNewQuestionRecord`, but what cannot change
 * is kept rather than copied: a sealed question batch (checked and frozen by the seam) and a frozen
 * record holding one (the schema is strict, so what it accepts has no other keys). Not exported
 * from the package: only the in-memory store, which hands out copies of its own, may keep them.
 */
export function keepNewQuestionRecord(record: unknown): NewQuestionRecord {
  return checkNewQuestionRecord(record, { keepSealed: true });
}

function checkNewQuestionRecord(record: unknown, { keepSealed }: { keepSealed: boolean }): NewQuestionRecord {
  if (typeof record === 'object' && record !== null && !('state' in record)) {
    const questions = (record as { questions?: unknown }).questions;
    if (keepSealed && isSealedQuestionBatch(questions) && questions.length > 0) {
      const { questions: _sealed, ...rest } = record as { questions?: unknown };
      const shared = parseStatelessRecordWithoutQuestions(rest);
      // Shared only when nothing in it can change: a trace context (the one nested object besides the questions) frozen too.
      const traceContext = (record as { traceContext?: unknown }).traceContext;
      if (shared.success && Object.isFrozen(record) && (traceContext === undefined || Object.isFrozen(traceContext))) return record as NewQuestionRecord;
      // Added to the fresh copy rather than spread into another: every record then shares one shape.
      if (shared.success) return Object.assign(shared.data, { questions });
    }
    const fast = parseStatelessRecord(record);
    if (fast.success) return fast.data;
  }
  const parsed = newQuestionRecordSchema.safeParse(record);
  if (!parsed.success) throw invalid('The question record', parsed.error);
  return structuredClone(parsed.data);
}

/** A checked settlement for `claim`: `answer` exactly when the outcome is `answered`; `answeredBy` only for a person's outcome. */
export function parseSettlement(
  outcome: unknown,
  answer: unknown,
  answeredBy?: unknown,
): { outcome: QuestionOutcome; answer?: AskUserQuestionAnswer; answeredBy?: AnsweredBy } {
  const settlement = parseOutcomeAndAnswer(outcome, answer);
  if (answeredBy === undefined) return settlement;
  if (!humanOutcomes.includes(settlement.outcome)) {
    throw new QuestionStoreError('INVALID_INPUT', `Only a person's claim ("answered" or "cancelled") says who answered; drop answeredBy from this "${settlement.outcome}" claim.`);
  }
  const parsed = answeredBySchema.safeParse(answeredBy);
  if (!parsed.success) throw invalid('The answeredBy of a claim', parsed.error);
  // Frozen, so a record holding it can still be shared as it is (every field is a string).
  return { ...settlement, answeredBy: Object.freeze(parsed.data) };
}

function parseOutcomeAndAnswer(outcome: unknown, answer: unknown): { outcome: QuestionOutcome; answer?: AskUserQuestionAnswer } {
  const parsedOutcome = questionOutcomeSchema.safeParse(outcome);
  if (!parsedOutcome.success) throw invalid('The outcome', parsedOutcome.error);
  if (parsedOutcome.data !== 'answered') {
    if (answer !== undefined) {
      throw new QuestionStoreError('INVALID_INPUT', `Only an "answered" claim carries an answer; drop the answer from this "${parsedOutcome.data}" claim.`);
    }
    return { outcome: parsedOutcome.data };
  }
  // An answer the host checked and froze (isSealedAnswer) is the answer schema's own parse and can
  // never change: kept by reference, not parsed into another copy.
  if (isSealedAnswer(answer)) return { outcome: 'answered', answer };
  const parsedAnswer = parseAnswer(answer);
  if (!parsedAnswer.success) throw invalid('The answer of an "answered" claim', parsedAnswer.error);
  return { outcome: 'answered', answer: parsedAnswer.data };
}

/** A fresh, checked copy of an event for `appendEvent`. */
export function parseNewQuestionEvent(event: unknown): NewQuestionEvent {
  return checkNewQuestionEvent(event, { keepSealed: false });
}

/** For the in-memory store: like `parseNewQuestionEvent`, but a sealed question batch is kept, not copied (see `keepNewQuestionRecord`). */
export function keepNewQuestionEvent(event: unknown): NewQuestionEvent {
  return checkNewQuestionEvent(event, { keepSealed: true });
}

function checkNewQuestionEvent(event: unknown, { keepSealed }: { keepSealed: boolean }): NewQuestionEvent {
  const requested = event as { type?: unknown; data?: { questions?: unknown } } | null;
  if (keepSealed && requested?.type === 'human_input_requested' && typeof requested.data === 'object' && requested.data !== null) {
    const { questions, ...rest } = requested.data;
    if (isSealedQuestionBatch(questions)) {
      const shared = parseRequestedWithoutQuestions({ ...requested, data: rest });
      if (shared.success) return Object.assign(shared.data, { data: Object.assign(shared.data.data, { questions }) });
    }
  }
  if (keepSealed && requested?.type === 'response_from_human' && typeof requested.data === 'object' && requested.data !== null) {
    const { answer, ...rest } = requested.data as { answer?: unknown };
    if (isSealedAnswer(answer)) {
      const shared = parseResponseWithoutAnswer({ ...requested, data: rest });
      if (shared.success) return Object.assign(shared.data, { data: Object.assign(shared.data.data, { answer }) });
    }
  }
  const parsed = readNewQuestionEvent(event);
  if (!parsed.success) throw invalid('The event', parsed.error);
  return parsed.data;
}

/**
 * The record and event of `saveWithEvent`, checked before anything is stored: both valid, and the
 * event of that very question. `keep`: the in-memory store's variants (sealed parts kept, not copied).
 * Throws `INVALID_INPUT` naming the problem.
 */
export function parseRecordWithEvent(record: unknown, event: unknown, { keep = false }: { keep?: boolean } = {}): { record: NewQuestionRecord; event: NewQuestionEvent } {
  const checkedRecord = keep ? keepNewQuestionRecord(record) : parseNewQuestionRecord(record);
  const checkedEvent = keep ? keepNewQuestionEvent(event) : parseNewQuestionEvent(event);
  if (checkedEvent.rpcId !== checkedRecord.rpcId || checkedEvent.sessionId !== checkedRecord.sessionId) {
    throw new QuestionStoreError(
      'INVALID_INPUT',
      `saveWithEvent: the event is of question "${checkedEvent.rpcId}" in session "${checkedEvent.sessionId}", not of the record saved with it ("${checkedRecord.rpcId}" in "${checkedRecord.sessionId}"); nothing was stored.`,
    );
  }
  return { record: checkedRecord, event: checkedEvent };
}

/** Checked copies of a batch for `appendEvents`, all or none: throws `INVALID_INPUT` naming the first bad event's index. */
export function parseNewQuestionEvents(events: unknown): NewQuestionEvent[] {
  return checkNewQuestionEvents(events, parseNewQuestionEvent);
}

/** For the in-memory store: `parseNewQuestionEvents` keeping sealed batches. */
export function keepNewQuestionEvents(events: unknown): NewQuestionEvent[] {
  return checkNewQuestionEvents(events, keepNewQuestionEvent);
}

function checkNewQuestionEvents(events: unknown, check: (event: unknown) => NewQuestionEvent): NewQuestionEvent[] {
  if (!Array.isArray(events)) throw new QuestionStoreError('INVALID_INPUT', 'appendEvents takes an array of events.');
  return events.map((event: unknown, index) => {
    try {
      return check(event);
    } catch (error) {
      if (!QuestionStoreError.isInstance(error)) throw error;
      throw new QuestionStoreError('INVALID_INPUT', `appendEvents: event ${index}: ${error.message} Nothing was appended.`, { cause: error });
    }
  });
}

/** `after` and `limit` as whole numbers (`after` 0 = from the start; `limit` undefined = all). */
export function parseReadEventsOptions(options: ReadEventsOptions | undefined): { after: number; limit: number | undefined } {
  const after = options?.after ?? 0;
  const limit = options?.limit;
  if (!Number.isSafeInteger(after) || after < 0) throw new QuestionStoreError('INVALID_INPUT', `readEvents: "after" must be a non-negative integer event id, not ${String(after)}.`);
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new QuestionStoreError('INVALID_INPUT', `readEvents: "limit" must be a non-negative integer, not ${String(limit)}.`);
  }
  return { after, limit };
}

/** The default and largest page of `listSettled`. */
export const settledPageLimits = { default: 100, max: 1000 } as const;

/** `listSettled`'s options, checked: filters as given, the limit with its default. Throws `INVALID_INPUT`. */
export function parseListSettledOptions(options: ListSettledOptions | undefined): {
  sessionId: string | undefined;
  askedBy: string | undefined;
  outcome: QuestionOutcome | undefined;
  cursor: string | undefined;
  limit: number;
} {
  const { sessionId, askedBy, outcome, cursor, limit = settledPageLimits.default } = options ?? {};
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > settledPageLimits.max) {
    throw new QuestionStoreError('INVALID_INPUT', `listSettled: "limit" must be a whole number from 1 to ${settledPageLimits.max}, not ${String(limit)}.`);
  }
  if (outcome !== undefined && !questionOutcomeSchema.safeParse(outcome).success) {
    throw new QuestionStoreError('INVALID_INPUT', `listSettled: "outcome" must be one of ${questionOutcomeSchema.options.join(', ')}, not ${JSON.stringify(outcome)}.`);
  }
  for (const [name, value] of [['sessionId', sessionId], ['askedBy', askedBy], ['cursor', cursor]] as const) {
    if (value !== undefined && (typeof value !== 'string' || value === '')) throw new QuestionStoreError('INVALID_INPUT', `listSettled: "${name}" must be a non-empty string when given.`);
  }
  return { sessionId, askedBy, outcome, cursor, limit };
}

function invalid(subject: string, error: z.ZodError): QuestionStoreError {
  const issue = error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.map(String).join('.')}`;
  return new QuestionStoreError('INVALID_INPUT', `${subject} is invalid${where}: ${issue?.message ?? 'it does not match'}.`, { cause: error });
}

/** A `listAwaitingResume` partition, checked: whole numbers with 0 <= index < count, or undefined. Throws `INVALID_INPUT`. */
export function parseAwaitingPartition(partition: unknown): { index: number; count: number } | undefined {
  if (partition === undefined) return undefined;
  const { index, count } = (typeof partition === 'object' && partition !== null ? partition : {}) as { index?: unknown; count?: unknown };
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1 || typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || index >= count) {
    throw new QuestionStoreError('INVALID_INPUT', `listAwaitingResume: partition must be { index, count } with whole numbers 0 <= index < count, not ${JSON.stringify(partition)}.`);
  }
  return { index, count };
}
