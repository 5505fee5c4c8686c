import type { BusAnnouncement } from './bus.js';
import type { QuestionStoreErrorCode } from './errors.js';
import type { NewQuestionEvent, QuestionEvent } from './events.js';
import type { AnsweredBy, NewQuestionRecord, QuestionOutcome, QuestionRecord } from './record.js';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import type { VoteRequest, VoteResult } from './vote.js';

/** Which sessions to list: some, by id, or every session in the store. */
export type SessionSelection = Iterable<string> | 'all';

export interface ReadEventsOptions {
  /** Only events with an `id` greater than this (the last id you have read). Default: from the start. */
  after?: number;
  /** At most this many events. Default: all. */
  limit?: number;
}

/** A stored record that a list left out because it cannot be read: it stays in the store exactly as it is. */
export interface UnreadableRecord {
  rpcId: string;
  /** Its session, when that much of it can be read. */
  sessionId?: string;
  /** The `QuestionStoreError` (`CORRUPT_STORE`) saying what is wrong with it; typed by its shape, so any copy of this package's error fits. */
  error: Error & { readonly code: QuestionStoreErrorCode };
}

export interface ListRecordsOptions {
  /**
   * Called for each record that cannot be read (damaged on disk, edited by hand): the list leaves
   * it out, touches nothing, and goes on with the rest. Without it, such a record makes the whole
   * call reject `CORRUPT_STORE`. A host passes it so that one bad record cannot stop it.
   */
  onUnreadable?: (record: UnreadableRecord) => void;
}

/** What `listAwaitingResume` takes. */
export interface ListAwaitingResumeOptions extends ListRecordsOptions {
  /**
   * Only part `index` of `count` (whole numbers, 0 <= index < count), every record lying in exactly
   * one part, so that the nodes of a cluster can share the scan. Honoured by a store whose
   * `partitionsAwaitingResume` is true (it refuses a bad one `INVALID_INPUT`); ignored by others.
   */
  partition?: { index: number; count: number };
}

/** What `listSettled` takes: filters (all must match), a page size and where the last page ended. */
export interface ListSettledOptions extends ListRecordsOptions {
  /** Only this session's questions. */
  sessionId?: string;
  /** Only questions this agent asked (`askedBy`). */
  askedBy?: string;
  /** Only questions settled this way. */
  outcome?: QuestionOutcome;
  /** The `next` of the page before: go on after it. Opaque; only the store that made it reads it. */
  cursor?: string;
  /** At most this many records, 1 to 1000. Default 100. */
  limit?: number;
}

/** One page of settled questions, newest asked first; `next` is there when there may be more. */
export interface SettledRecordsPage {
  records: QuestionRecord[];
  next?: string;
}

/**
 * Where pending questions, their settlements and the per-session event log live. Every method is
 * async so that a networked store (Redis, SQL over the wire) can implement it. Records and events
 * handed out are copies: changing them changes nothing in the store. A store may forget finished
 * records (resumed, aborted, timed out) and old events under a retention policy, but never a
 * pending record or a settled one still awaiting its resume.
 *
 * What `save` and `appendEvent(s)` are given may be frozen (the WebSocket host freezes its records
 * and the seam's question batches): read it, copy what you keep, never edit it in place.
 *
 * `describeQuestionStoreContract` from `@askseam/store-testing` checks an implementation against
 * this contract.
 */
/** What a store that can publish bus messages (`announcesOn`) takes with a write. */
export interface StoreWriteOptions {
  /** Publish this with the write, in the same atomic step, and only if the write happened. */
  announce?: BusAnnouncement;
  /**
   * `claim` only: who answered or dismissed the question, kept as the settled record's
   * `answeredBy`. Refused (`INVALID_INPUT`) with an asker's outcome (`aborted`, `timed_out`).
   */
  answeredBy?: AnsweredBy;
  /**
   * `claim` only: the record's `sessionId`, when the caller knows it. A store that files records by
   * session (Redis) then finds the record without a lookup; a wrong one costs that lookup, never a
   * wrong write. Other stores ignore it.
   */
  sessionId?: string;
}

export interface QuestionStore {
  /** Keep a newly asked question as pending. Rejects `DUPLICATE_RPC_ID` for a known rpcId, `INVALID_INPUT` for a bad record. */
  save(record: NewQuestionRecord, options?: StoreWriteOptions): Promise<void>;
  /**
   * Optional: `save` the record and append `event` (its `human_input_requested`) in one atomic
   * step: once it resolves both are stored, and when it rejects neither is, so the log never lacks
   * a question the store holds, nor tells of one it does not, whenever the process dies. The event
   * must be of that question (same `rpcId` and `sessionId`); its id is taken like any append's.
   * Rejects as `save` does (`DUPLICATE_RPC_ID` appends nothing) and `INVALID_INPUT` for a bad event
   * or one of another question, storing nothing. A host saves every question through it when present.
   */
  saveWithEvent?(record: NewQuestionRecord, event: NewQuestionEvent, options?: StoreWriteOptions): Promise<void>;
  /**
   * Settle a pending question, atomically and exactly once: of any number of concurrent claims of
   * one rpcId (from this process or another sharing the store) exactly one gets the settled record;
   * every other claim, and any claim of an unknown or already settled rpcId, gets `undefined`.
   * `answer` is required with `answered` and refused with any other outcome (`INVALID_INPUT`).
   */
  claim(rpcId: string, outcome: QuestionOutcome, answer?: AskUserQuestionAnswer, options?: StoreWriteOptions): Promise<QuestionRecord | undefined>;
  /**
   * Optional: count one approval of a quorum approval (docs/approvals.md, "Quorum"), atomically:
   * the check that the question is pending, the check that this principal has not voted, the
   * vote's write and, when it is the `approvals`-th distinct one, the settlement (outcome
   * `answered` with `request.answer`, as `claim` would) happen in one step. Of any number of
   * concurrent votes (from this process or another sharing the store) every distinct one is kept
   * and exactly one gets `settled`. Each counted vote (the settling one too) appends its
   * `vote_cast` event in the same step, so a kept vote is never missing from the log, and it
   * survives a restart on a durable store (it is on the record, `votes`). `options.announce` is published only with a settlement. Rejects
   * `INVALID_INPUT` for a bad request, changing nothing. A host refuses a quorum question on a
   * store without it.
   */
  vote?(rpcId: string, request: VoteRequest, options?: StoreWriteOptions): Promise<VoteResult>;
  /**
   * Optional: the server this store can publish bus messages on, in the form of the bus's
   * `publishesOn`. A store that has it publishes `options.announce` with a successful `save`,
   * `saveWithEvent` or `claim` (the saved record, or the settled one, between `before` and `after`); one without it
   * ignores `options`. It names the login too (the same server as another user may not be allowed
   * to publish), and a publish the server refuses rejects the call `NOT_PERMITTED` with nothing written.
   */
  readonly announcesOn?: string;
  /** The record, pending or settled; `undefined` for an unknown rpcId. */
  get(rpcId: string): Promise<QuestionRecord | undefined>;
  /** The pending records of the given sessions (or all), in the order they were saved. */
  listPending(sessions: SessionSelection, options?: ListRecordsOptions): Promise<QuestionRecord[]>;
  /**
   * Optional: the rpcIds `listPending(sessions)` would list, in the same order, without reading the
   * records: what a host's reconcile compares with the questions it holds, so that a reconcile costs
   * what changed, not what is held. It may also list a pending record that `listPending` leaves out
   * as unreadable (it reads no record, so it cannot tell); `get` then says what is wrong with it.
   * A host falls back to `listPending` on a store without it.
   */
  listPendingIds?(sessions: SessionSelection): Promise<string[]>;
  /**
   * Settled records whose outcome a person chose (`answered`, `cancelled`) and which nobody has
   * taken yet (`markResumed` not called), in the order they were saved: what a host must hand to
   * its resume handler when it starts.
   */
  listAwaitingResume(options?: ListAwaitingResumeOptions): Promise<QuestionRecord[]>;
  /** Optional: true when `listAwaitingResume` honours `partition` (a host then shares the scan among its nodes). */
  readonly partitionsAwaitingResume?: boolean;
  /** Record that the settled question's answer reached its asker or resume handler. False when it is unknown, pending or already marked. */
  markResumed(rpcId: string): Promise<boolean>;
  /** Append one event to its session's log. Returns it with its `id` (greater than every earlier id) and `at`. */
  appendEvent(event: NewQuestionEvent): Promise<QuestionEvent>;
  /**
   * Optional: append several events in the given order, all or none, and resolve with nothing once
   * every one is stored (ids grow in array order, as with one `appendEvent` after another). Rejects
   * `INVALID_INPUT` naming the first bad event, storing none. A host batches its event log through
   * it when present: one write (one transaction, one round trip) for all the events of a tick.
   */
  appendEvents?(events: readonly NewQuestionEvent[]): Promise<void>;
  /**
   * Optional: settled records (any outcome, resumed or not, as long as the store still keeps them),
   * newest asked first (reverse save order), filtered and a page at a time: what an operator
   * console lists as history. Rejects `INVALID_INPUT` for a bad limit, outcome or cursor.
   */
  listSettled?(options?: ListSettledOptions): Promise<SettledRecordsPage>;
  /** A session's events in append order, optionally after a cursor (an event id) and limited. */
  readEvents(sessionId: string, options?: ReadEventsOptions): Promise<QuestionEvent[]>;
}
