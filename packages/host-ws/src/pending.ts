import type { QuestionRecord, Vote } from '@askseam/store';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { RecentIds } from './recent-ids.js';

/**
 * One question batch waiting for its answer, as this process knows it. The store holds the
 * durable copy; this entry is what delivery, replay and the respond checks read synchronously.
 * A class with getters over `record`, so that an entry costs three fields, not seven (heap per
 * pending question).
 */
export class PendingQuestion {
  /**
   * True once the store has the record. Nothing is delivered or accepted before: a question a
   * person could answer must already be on disk, or a crash could lose their answer's question.
   */
  saved: boolean;

  /** A quorum approval's approvals counted since it was loaded or asked here (quorum.ts); `record.votes` before the first. */
  declare votes?: readonly Vote[];

  constructor(
    /** The record as saved (with `state`, `mode`, `askedBy`): what a resume handler or notifier gets. */
    readonly record: QuestionRecord,
    /** Ask order, so that a replay across several sessions keeps the order the agents asked in. */
    readonly seq: number,
    { saved }: { saved: boolean },
  ) {
    this.saved = saved;
  }

  get rpcId(): string {
    return this.record.rpcId;
  }

  get sessionId(): string {
    return this.record.sessionId;
  }

  get questions(): AskUserQuestionItem[] {
    return this.record.questions;
  }

  get askedAt(): string {
    return this.record.askedAt;
  }
}

/**
 * The questions waiting for a person, by rpcId and by session. Whoever takes an entry out with
 * `claim` owns settling it; a second `claim` of the same rpcId gets `undefined`, which is how
 * "first answer wins" holds in this process against a racing answer, an abort and a host close
 * (the store's own atomic claim decides between processes).
 */
export class PendingTable {
  readonly #byRpcId = new Map<string, PendingQuestion>();
  // The per-session index keeps a replay proportional to the sessions a connection may see.
  // A set of entries, not a map by rpcId: the entry knows its rpcId, and a set keeps one slot less per entry.
  readonly #bySession = new Map<string, Set<PendingQuestion>>();
  #nextSeq = 0;
  // True while entries were added in ask order, so that the map's own order is ask order and
  // all() needs no sort (replay scans every pending question for principals without a scope).
  #inOrder = true;
  #lastSeq = -Infinity;
  /** Recently claimed here: news of another node, or a stale store read, must not bring one back. */
  readonly #claimed: RecentIds;
  /** Recently reported settled by another node. */
  readonly #settledElsewhere: RecentIds;

  /** `rememberSettled`: how many settled rpcIds to remember for `wasSettled` (only several nodes need it). */
  constructor(rememberSettled = 0) {
    this.#claimed = new RecentIds(rememberSettled);
    this.#settledElsewhere = new RecentIds(rememberSettled);
  }

  get size(): number {
    return this.#byRpcId.size;
  }

  /** The next ask-order number; pass it as the entry's `seq`. */
  nextSeq(): number {
    return this.#nextSeq++;
  }

  /** Add an entry (again, after a claim the store could not record: it keeps its `seq`). */
  add(entry: PendingQuestion): void {
    if (this.#byRpcId.size === 0) {
      this.#inOrder = true;
      this.#lastSeq = -Infinity;
    }
    if (entry.seq < this.#lastSeq || this.#byRpcId.has(entry.rpcId)) this.#inOrder = false;
    this.#lastSeq = Math.max(this.#lastSeq, entry.seq);
    // Added again under a known rpcId: the entry it replaces leaves its session's set too.
    const previous = this.#byRpcId.get(entry.rpcId);
    if (previous !== undefined && previous !== entry) this.#leaveSession(previous);
    this.#byRpcId.set(entry.rpcId, entry);
    let session = this.#bySession.get(entry.sessionId);
    if (session === undefined) {
      session = new Set();
      this.#bySession.set(entry.sessionId, session);
    }
    session.add(entry);
  }

  get(rpcId: string): PendingQuestion | undefined {
    return this.#byRpcId.get(rpcId);
  }

  /** Take the entry out so that nobody else can settle it. `undefined` when it is already gone. */
  claim(rpcId: string): PendingQuestion | undefined {
    const entry = this.#byRpcId.get(rpcId);
    if (entry === undefined) return undefined;
    this.#claimed.add(rpcId);
    this.#byRpcId.delete(rpcId);
    this.#leaveSession(entry);
    return entry;
  }

  /**
   * Drop an entry this node no longer keeps (its session's last subscriber left, docs/scaling.md):
   * not a settlement, so the question may come back from the store or the bus at any time.
   */
  forget(entry: PendingQuestion): void {
    if (this.#byRpcId.get(entry.rpcId) !== entry) return;
    this.#byRpcId.delete(entry.rpcId);
    this.#leaveSession(entry);
  }

  #leaveSession(entry: PendingQuestion): void {
    const session = this.#bySession.get(entry.sessionId);
    session?.delete(entry);
    if (session?.size === 0) this.#bySession.delete(entry.sessionId);
  }

  /** Remember that another node settled `rpcId`, whether or not it was ever here. */
  noteSettledElsewhere(rpcId: string): void {
    this.#settledElsewhere.add(rpcId);
  }

  /** True for an rpcId another node reported settled lately (within the constructor's capacity). */
  wasSettledElsewhere(rpcId: string): boolean {
    return this.#settledElsewhere.has(rpcId);
  }

  /** True for an rpcId claimed here or settled elsewhere lately: not to be added back from outside news. */
  wasSettled(rpcId: string): boolean {
    return this.#claimed.has(rpcId) || this.#settledElsewhere.has(rpcId);
  }

  /** Take every entry out (host close), in ask order. */
  claimAll(): PendingQuestion[] {
    const entries = this.all();
    this.#byRpcId.clear();
    this.#bySession.clear();
    return entries;
  }

  /** Every pending entry, in ask order. */
  all(): PendingQuestion[] {
    const entries = [...this.#byRpcId.values()];
    return this.#inOrder ? entries : entries.sort(bySeq);
  }

  /** Every pending entry, in no particular order, without a copy: a walk that may pause (a reconcile) sees what is still there when it gets to it. */
  values(): IterableIterator<PendingQuestion> {
    return this.#byRpcId.values();
  }

  /** The pending entries of the given sessions, in ask order. Costs only those sessions' entries. */
  ofSessions(sessionIds: Iterable<string>): PendingQuestion[] {
    const found: PendingQuestion[] = [];
    for (const sessionId of new Set(sessionIds)) {
      const session = this.#bySession.get(sessionId);
      if (session !== undefined) found.push(...session.values());
    }
    return found.sort(bySeq);
  }
}

const bySeq = (a: PendingQuestion, b: PendingQuestion) => a.seq - b.seq;
