import { compiledSafeParse, isSealedAnswer, isSealedQuestionBatch, type AskUserQuestionAnswer } from '@askseam/user-questions';
import { QuestionStoreError } from './errors.js';
import { isoNow } from './iso-now.js';
import { LargestLog } from './largest-log.js';
import type { NewQuestionEvent, QuestionEvent } from './events.js';
import { humanOutcomes, questionRecordSchema, type NewQuestionRecord, type QuestionOutcome, type QuestionRecord } from './record.js';
import type { ListAwaitingResumeOptions, ListSettledOptions, QuestionStore, ReadEventsOptions, SessionSelection, SettledRecordsPage, StoreWriteOptions } from './store.js';
import { parseVoteRequest, tallyVote, voteCastEvent, type VoteRequest, type VoteResult } from './vote.js';
import { keepNewQuestionEvent, keepNewQuestionEvents, keepNewQuestionRecord, parseAwaitingPartition, parseListSettledOptions, parseReadEventsOptions, parseRecordWithEvent, parseSettlement, readNewQuestionEvent } from './validate.js';

export interface MemoryQuestionStoreOptions {
  /**
   * How many finished records to keep (settled and resumed, or aborted / timed out), newest first;
   * older ones are forgotten. Pending records and settled ones awaiting their resume are always
   * kept. Default 100.
   */
  retainFinished?: number;
  /**
   * How many events to keep across all sessions. Past it, the oldest event of the session that
   * holds the most is forgotten: one session's events push out only its own until every session is
   * down to the same share, so whoever can write to one session's log cannot empty the others'.
   * Default 1000.
   */
  retainEvents?: number;
  /** How many events to keep per session; a session's own oldest are forgotten first. Default 1000. */
  retainEventsPerSession?: number;
}

/**
 * The store a host uses when given none: everything lives in this object, so a process restart
 * forgets it. Handing the same instance to a new host in the same process keeps the questions.
 * Bounded: it forgets the oldest finished records and events beyond its retention limits, so a
 * long-running host does not grow without end.
 */
export class MemoryQuestionStore implements QuestionStore {
  // A Map keeps insertion order, which is the save order `listPending` promises.
  readonly #records = new Map<string, QuestionRecord>();
  readonly #events = new Map<string, StoredEvent[]>();
  /** Which log to trim first past retainEvents, without scanning every session's log per event. */
  readonly #largestLog = new LargestLog(this.#events);
  /** Finished rpcIds in the order they finished: the front is forgotten first. */
  readonly #finished: string[] = [];
  /** How many events all sessions' logs hold together. */
  #eventCount = 0;
  readonly #retainFinished: number;
  readonly #retainEvents: number;
  readonly #retainEventsPerSession: number;
  #lastEventId = 0;

  constructor(options: MemoryQuestionStoreOptions = {}) {
    this.#retainFinished = limit(options.retainFinished, 100, 'retainFinished');
    this.#retainEvents = limit(options.retainEvents, 1000, 'retainEvents');
    this.#retainEventsPerSession = limit(options.retainEventsPerSession, 1000, 'retainEventsPerSession');
  }

  async save(record: NewQuestionRecord): Promise<void> {
    const parsed = keepNewQuestionRecord(record);
    this.#refuseKnown(parsed.rpcId);
    this.#records.set(parsed.rpcId, parsed);
  }

  #refuseKnown(rpcId: string): void {
    if (this.#records.has(rpcId)) throw new QuestionStoreError('DUPLICATE_RPC_ID', `A question with rpcId "${rpcId}" is already stored; give every question a fresh rpcId.`);
  }

  async saveWithEvent(record: NewQuestionRecord, event: NewQuestionEvent): Promise<void> {
    const checked = parseRecordWithEvent(record, event, { keep: true });
    // Every check first, then both writes in one synchronous step: nothing can run in between.
    this.#refuseKnown(checked.record.rpcId);
    this.#records.set(checked.record.rpcId, checked.record);
    this.#append(checked.event, isoNow());
  }

  async claim(rpcId: string, outcome: QuestionOutcome, answer?: AskUserQuestionAnswer, options?: StoreWriteOptions): Promise<QuestionRecord | undefined> {
    const settlement = parseSettlement(outcome, answer, options?.answeredBy);
    // Check and settle in one synchronous step: no await between them, so no other claim can interleave.
    const record = this.#records.get(rpcId);
    if (record === undefined || record.outcome !== undefined) return undefined;
    // A new object, not an edit: a saved record may be the caller's frozen one (see keepNewQuestionRecord).
    // Map.set on a known key keeps its place, so the save order stays.
    const settled: QuestionRecord = { ...record, ...settlement, settledAt: isoNow() };
    this.#records.set(rpcId, settled);
    // A record that nobody can change is handed out as it is: a copy would only be read.
    const copy = isImmutableRecord(settled) ? Object.freeze(settled) : copyRecord(settled);
    // Nobody resumes an asker-side outcome, so it is finished as soon as it is settled.
    if (!humanOutcomes.includes(settlement.outcome)) this.#finish(rpcId);
    return copy;
  }

  async vote(rpcId: string, request: VoteRequest): Promise<VoteResult> {
    const checked = parseVoteRequest(request);
    // Read, tally and write in one synchronous step: no await between them, so no vote interleaves.
    const record = this.#records.get(rpcId);
    if (record === undefined || record.outcome !== undefined) return { kind: 'not-pending' };
    const at = isoNow();
    const result = tallyVote(record, checked, at);
    if (result.kind === 'not-pending') return result;
    if (result.kind !== 'repeated') {
      this.#records.set(rpcId, result.record);
      this.#append(voteCastEvent(result.record, checked), at);
    }
    return { kind: result.kind, record: copyRecord(result.record) };
  }

  async get(rpcId: string): Promise<QuestionRecord | undefined> {
    const record = this.#records.get(rpcId);
    return record === undefined ? undefined : copyRecord(record);
  }

  async listPending(sessions: SessionSelection): Promise<QuestionRecord[]> {
    const wanted = sessions === 'all' ? undefined : new Set(sessions);
    const found: QuestionRecord[] = [];
    for (const record of this.#records.values()) {
      if (record.outcome === undefined && (wanted === undefined || wanted.has(record.sessionId))) found.push(copyRecord(record));
    }
    return found;
  }

  async listPendingIds(sessions: SessionSelection): Promise<string[]> {
    const wanted = sessions === 'all' ? undefined : new Set(sessions);
    const found: string[] = [];
    for (const record of this.#records.values()) {
      if (record.outcome === undefined && (wanted === undefined || wanted.has(record.sessionId))) found.push(record.rpcId);
    }
    return found;
  }

  /** `listAwaitingResume` honours `partition`: a record's part is a hash of its rpcId. */
  readonly partitionsAwaitingResume = true;

  async listAwaitingResume(options?: ListAwaitingResumeOptions): Promise<QuestionRecord[]> {
    const partition = parseAwaitingPartition(options?.partition);
    const found: QuestionRecord[] = [];
    for (const record of this.#records.values()) {
      if (partition !== undefined && partOf(record.rpcId, partition.count) !== partition.index) continue;
      if (record.outcome !== undefined && humanOutcomes.includes(record.outcome) && record.resumedAt === undefined) found.push(copyRecord(record));
    }
    return found;
  }

  /** Newest asked first; the cursor is the rpcId the page before ended on (records are only ever forgotten oldest first, after it). */
  async listSettled(options?: ListSettledOptions): Promise<SettledRecordsPage> {
    const { sessionId, askedBy, outcome, cursor, limit } = parseListSettledOptions(options);
    const all = [...this.#records.values()];
    let start = all.length - 1;
    if (cursor !== undefined) {
      const at = all.findIndex((record) => record.rpcId === cursor);
      // A cursor whose record was forgotten meanwhile: everything older than it was forgotten too.
      start = at - 1;
      if (at === -1) return { records: [] };
    }
    const records: QuestionRecord[] = [];
    for (let index = start; index >= 0; index--) {
      const record = all[index]!;
      if (record.outcome === undefined) continue;
      if ((sessionId !== undefined && record.sessionId !== sessionId) || (askedBy !== undefined && record.askedBy !== askedBy) || (outcome !== undefined && record.outcome !== outcome)) continue;
      records.push(copyRecord(record));
      if (records.length === limit) return index > 0 ? { records, next: record.rpcId } : { records };
    }
    return { records };
  }

  async markResumed(rpcId: string): Promise<boolean> {
    const record = this.#records.get(rpcId);
    if (record === undefined || record.outcome === undefined || record.resumedAt !== undefined) return false;
    this.#records.set(rpcId, { ...record, resumedAt: isoNow() });
    this.#finish(rpcId);
    return true;
  }

  async appendEvent(event: NewQuestionEvent): Promise<QuestionEvent> {
    return copyEvent(this.#append(keepNewQuestionEvent(event), isoNow()));
  }

  async appendEvents(events: readonly NewQuestionEvent[]): Promise<void> {
    // Every event is checked before the first is kept: all or none.
    const checked = keepNewQuestionEvents(events);
    const at = isoNow();
    for (const event of checked) this.#append(event, at);
  }

  #append(event: NewQuestionEvent, at: string): StoredEvent {
    const stored: StoredEvent = { event, id: ++this.#lastEventId, at };
    const sessionId = stored.event.sessionId;
    let log = this.#events.get(sessionId);
    if (log === undefined) {
      log = [];
      this.#events.set(sessionId, log);
    }
    log.push(stored);
    this.#eventCount++;
    if (log.length > this.#retainEventsPerSession) {
      log.shift();
      this.#eventCount--;
      if (log.length === 0) this.#events.delete(sessionId);
    }
    this.#largestLog.changed(sessionId);
    while (this.#eventCount > this.#retainEvents) this.#forgetFromLargestLog();
    return stored;
  }

  async readEvents(sessionId: string, options?: ReadEventsOptions): Promise<QuestionEvent[]> {
    const { after, limit } = parseReadEventsOptions(options);
    const log = this.#events.get(sessionId) ?? [];
    const newer = log.filter((event) => event.id > after);
    return (limit === undefined ? newer : newer.slice(0, limit)).map(copyEvent);
  }

  #finish(rpcId: string): void {
    this.#finished.push(rpcId);
    while (this.#finished.length > this.#retainFinished) this.#records.delete(this.#finished.shift()!);
  }

  /** Forget the oldest event of the session holding the most events (of two as large, the one whose oldest event is older). */
  #forgetFromLargestLog(): void {
    const sessionId = this.#largestLog.largest();
    const log = sessionId === undefined ? undefined : this.#events.get(sessionId);
    if (sessionId === undefined || log === undefined) return;
    log.shift();
    this.#eventCount--;
    if (log.length === 0) this.#events.delete(sessionId);
    this.#largestLog.changed(sessionId);
  }
}

/** An appended event as kept: the checked event, apart from the id and time the store gave it. */
interface StoredEvent {
  readonly event: NewQuestionEvent;
  readonly id: number;
  readonly at: string;
}

// Copies handed out are rebuilt by the compiled schema parsers: they know each shape, so they copy
// several times faster than a generic walk (and structuredClone is slower still). What was stored
// passed these schemas, so they accept it; the generic walk is there for a record with a `state`
// (recursive JSON, which zod cannot compile) and as a fallback that never refuses.
const readStatelessRecord = compiledSafeParse(questionRecordSchema.omit({ state: true }));

/** Which of `count` parts an rpcId lies in (FNV-1a of its UTF-16 code units): fixed for the rpcId. */
function partOf(rpcId: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < rpcId.length; i++) hash = Math.imul(hash ^ rpcId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}

function copyRecord(record: QuestionRecord): QuestionRecord {
  if (!('state' in record)) {
    const copied = readStatelessRecord(record);
    if (copied.success) return copied.data;
  }
  return copyPlain(record);
}

/**
 * True when every part of a record is frozen or a primitive: its questions a sealed batch, its
 * answer (if any) a sealed answer, its answeredBy and traceContext (if any) frozen, and every other field a string. Such a record, frozen itself,
 * can be shared with whoever asks for it. A `state` (JSON of any depth) never qualifies.
 */
function isImmutableRecord(record: QuestionRecord): boolean {
  for (const key in record) {
    const value = record[key as keyof QuestionRecord];
    if (typeof value !== 'object' || value === null) continue;
    // answeredBy and traceContext hold only strings: frozen, they cannot change.
    if (key === 'questions' ? isSealedQuestionBatch(value) : key === 'answer' ? isSealedAnswer(value) : (key === 'answeredBy' || key === 'traceContext') && Object.isFrozen(value)) continue;
    return false;
  }
  return true;
}

function copyEvent({ event, id, at }: StoredEvent): QuestionEvent {
  const copied = readNewQuestionEvent(event);
  const copy = (copied.success ? copied.data : copyPlain(event)) as QuestionEvent;
  copy.id = id;
  copy.at = at;
  return copy;
}

/**
 * A deep copy of plain data: objects, arrays and primitives, which is all a stored record or event
 * holds (they are built from parsed input). An order of magnitude cheaper than structuredClone.
 */
function copyPlain<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyPlain) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyPlain((value as Record<string, unknown>)[key]);
    // A JSON `state` may carry an own "__proto__" key: it must stay a key, not become the prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}

function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new QuestionStoreError('INVALID_INPUT', `MemoryQuestionStore: ${name} must be a whole number ≥ 0, not ${String(value)}.`);
  return value;
}
