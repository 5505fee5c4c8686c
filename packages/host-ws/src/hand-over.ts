import { humanOutcomes, type QuestionRecord } from '@askseam/store';
import { UserQuestionError, handOverAnswer, type AnsweredBy, type AskUserQuestionAnswer } from '@askseam/user-questions';
import type { Cluster } from './cluster.js';
import type { Delivery } from './delivery.js';
import type { BackgroundWork } from './lifecycle.js';
import type { HostLogger } from './logger.js';
import { PendingQuestion, type PendingTable } from './pending.js';
import type { Quarantine } from './quarantine.js';
import { RecentIds } from './recent-ids.js';
import type { Reporter } from './reporter.js';
import type { Resumer } from './resume.js';
import type { ResumeMarks } from './resume-marks.js';
import { storedAnswerProblem } from './stored-answer.js';
import { whoDecided } from './quorum.js';

/** An in-process asker of a blocking question. */
export interface Waiter {
  resolve(answer: AskUserQuestionAnswer): void;
  reject(error: unknown): void;
  /** The asker's `answeredBy` (the seam's request): told who decided just before `resolve`. */
  answeredBy?: (people: readonly AnsweredBy[]) => void;
}

/** The in-process askers of blocking questions, by rpcId. A pending question without one is answered to `onResume`. */
export class Waiters {
  // An asker without an abort signal is kept as its promise's resolve function alone (its reject is
  // not kept: resolving with a rejected promise rejects), which saves a closure and an object per
  // pending question; see `setResolver`.
  readonly #byRpcId = new Map<string, Waiter | Resolver>();

  set(rpcId: string, waiter: Waiter): void {
    this.#byRpcId.set(rpcId, waiter);
  }

  /** Keep the asker as the `resolve` of its promise only (heap per pending question). */
  setResolver(rpcId: string, resolve: Resolver): void {
    this.#byRpcId.set(rpcId, resolve);
  }

  has(rpcId: string): boolean {
    return this.#byRpcId.has(rpcId);
  }

  get(rpcId: string): Waiter | undefined {
    return asWaiter(this.#byRpcId.get(rpcId));
  }

  /** Take the waiter out: whoever takes it owns ending that ask, exactly once. */
  take(rpcId: string): Waiter | undefined {
    const waiter = this.#byRpcId.get(rpcId);
    this.#byRpcId.delete(rpcId);
    return asWaiter(waiter);
  }

  /** Take every waiter out. */
  takeAll(): Waiter[] {
    const all = [...this.#byRpcId.values()].map((waiter) => asWaiter(waiter)!);
    this.#byRpcId.clear();
    return all;
  }
}

/** The `resolve` of an asker's promise: given a rejected promise, it rejects the asker with its reason. */
export type Resolver = (answer: AskUserQuestionAnswer | PromiseLike<AskUserQuestionAnswer>) => void;

function asWaiter(kept: Waiter | Resolver | undefined): Waiter | undefined {
  if (typeof kept !== 'function') return kept;
  return { resolve: kept, reject: (error) => kept(rejectedWith(error)) };
}

/**
 * A rejected promise that is never reported unhandled itself: the asker's promise adopts its
 * rejection (and is reported, as ever, if nobody handles that), and settling an asker that is
 * already settled stays the silent no-op that a real `reject` is.
 */
function rejectedWith(error: unknown): Promise<never> {
  const rejected = Promise.reject(error);
  rejected.catch(() => {});
  return rejected;
}

export interface HandOverDeps {
  pending: PendingTable;
  waiters: Waiters;
  delivery: Delivery;
  cluster: Cluster;
  resumer: Resumer;
  marks: ResumeMarks;
  quarantine: Quarantine;
  reporter: Reporter;
  work: BackgroundWork;
  logger: HostLogger;
}

/** How soon, and at most how often, a resume lease that could not be taken (the bus unreachable) is tried again for a waiting asker. */
const LEASE_RETRY_FIRST_MS = 100;
const LEASE_RETRY_MAX_MS = 1_000;

/**
 * Where a settled record goes: to its blocking asker when one waits in this process, else to the
 * node where it waits, else to `onResume`; and what a question asked or settled elsewhere does here.
 * A settled answer that does not fit its questions is never handed over: it is quarantined.
 */
export class HandOver {
  /** Settled records this process gave to their waiting asker: a reconcile that read the store before markResumed landed must not resume them too. */
  readonly #handedToAsker: RecentIds;
  /** Settled records whose resume lease is being taken for their waiting asker: one attempt at a time. */
  readonly #leasingForAsker = new Set<string>();

  constructor(private readonly deps: HandOverDeps) {
    this.#handedToAsker = new RecentIds(deps.cluster.rememberSettled);
  }

  /**
   * A settled record goes to its blocking asker when one waits in this process, else to the node
   * where it waits (which takes it from the `settled` message), else to `onResume`.
   */
  handOver(record: QuestionRecord, message?: string): void {
    const { waiters, cluster, work } = this.deps;
    const waiter = waiters.get(record.rpcId);
    if (waiter === undefined) {
      work.track(this.resumeOrphans([record]));
      return;
    }
    const takeLease = cluster.takeResumeLease;
    if (takeLease === undefined) {
      this.#giveToAsker(record, waiter, message);
      return;
    }
    // Another node that took this one for gone may be handing the record to its onResume: the resume
    // lease decides which of the two delivers it, so the answer reaches exactly one of them.
    if (this.#leasingForAsker.has(record.rpcId)) return;
    this.#leasingForAsker.add(record.rpcId);
    work.track(this.#leaseForAsker(takeLease, record, message).finally(() => this.#leasingForAsker.delete(record.rpcId)));
  }

  /**
   * Hand settled records to the resume handler, except those whose asker waits here or on another
   * live node (that node takes them). The lease in the resumer keeps two nodes from both doing it.
   */
  async resumeOrphans(records: QuestionRecord[]): Promise<void> {
    const { waiters, cluster, resumer, logger } = this.deps;
    for (const record of records) {
      if (this.#handedToAsker.has(record.rpcId)) continue;
      if (this.refuseStoredAnswer(record)) continue;
      // Settled elsewhere and its news lost (or our own claim lost the race): our asker still waits for it.
      if (waiters.has(record.rpcId)) {
        this.handOver(record);
        continue;
      }
      if (cluster.askedElsewhere(record)) {
        try {
          if (await cluster.isNodeAlive(record.askedOn!)) continue;
        } catch (error) {
          logger.error('could not tell whether an asker\'s node is alive; the next reconcile tries again', { rpcId: record.rpcId, error: String(error) });
          continue;
        }
      }
      resumer.resume(record);
    }
  }

  /** A question asked on another node: pending here too, shown to this node's subscribers of its session. */
  adoptPending(record: QuestionRecord): void {
    const { pending, delivery } = this.deps;
    if (record.outcome !== undefined || pending.get(record.rpcId) !== undefined || pending.wasSettled(record.rpcId)) return;
    const entry = new PendingQuestion(record, pending.nextSeq(), { saved: true });
    pending.add(entry);
    delivery.announce(entry);
  }

  /**
   * A question settled by another process: gone here (`entry`, when this node still listed it, is
   * told to its clients), and its answer handed to the asker if it waits in this process.
   */
  adoptSettled(record: QuestionRecord, message?: string, entry = this.deps.pending.claim(record.rpcId)): void {
    const { pending, delivery, waiters, cluster, work } = this.deps;
    pending.noteSettledElsewhere(record.rpcId);
    this.deps.reporter.telemetry?.settledElsewhere(record);
    if (entry !== undefined && record.outcome !== undefined) delivery.resolved(entry, { ...record, outcome: record.outcome });
    if (record.outcome === undefined) return;
    if (!humanOutcomes.includes(record.outcome)) {
      // Only an operator's withdrawal ends a question `aborted` on a node other than its asker's.
      waiters
        .take(record.rpcId)
        ?.reject(new UserQuestionError('ASK_ABORTED', 'The question was withdrawn on another node before anyone answered it; its session\'s event log says by whom and why.'));
      return;
    }
    if (this.refuseStoredAnswer(record)) return;
    if (waiters.has(record.rpcId)) this.handOver(record, message);
    // Our asker gave up while the person answered elsewhere and won: the answer still goes somewhere.
    else if (cluster.askedHere(record)) work.track(this.resumeOrphans([record]));
  }

  /**
   * A question this node holds that the store does not know (a reconcile found it neither listed
   * nor readable by id): its record expired, or a replayed sealed `asked` brought it. Nobody can
   * answer it, so it goes, its clients are told, and an asker waiting for it here ends.
   */
  forgetUnknown(entry: PendingQuestion): void {
    const { pending, delivery, waiters, logger } = this.deps;
    if (pending.claim(entry.rpcId) !== entry) return;
    pending.noteSettledElsewhere(entry.rpcId);
    logger.warn('dropped a question the store does not hold (its record expired, or a bus message about it was replayed)', { rpcId: entry.rpcId, sessionId: entry.sessionId });
    this.deps.reporter.telemetry?.unsaved(entry.rpcId);
    delivery.resolved(entry, { outcome: 'aborted' });
    waiters.take(entry.rpcId)?.reject(new UserQuestionError('ASK_ABORTED', 'The store no longer holds the question (its record expired or was removed), so no answer can come.'));
  }

  /**
   * A settled record read from the store (or a bus message) whose answer does not fit its
   * questions is never handed over: it is quarantined, and an asker waiting for it here ends
   * `ASK_ABORTED` rather than with an answer nobody was offered. True when refused.
   */
  refuseStoredAnswer(record: QuestionRecord): boolean {
    const problem = storedAnswerProblem(record);
    if (problem === undefined) return false;
    this.setAside(record.rpcId, record.sessionId, problem);
    this.deps.waiters.take(record.rpcId)?.reject(new UserQuestionError('ASK_ABORTED', `The store holds an answer to the question that does not fit it, so it was set aside: ${problem}`));
    return true;
  }

  /** Quarantine a stored record: skipped from now on; reported (logger, onEvent, its session's event log) the first time. */
  setAside(rpcId: string, sessionId: string | undefined, reason: string): void {
    const entry = this.deps.quarantine.add(rpcId, sessionId, reason);
    if (entry === undefined) return;
    this.deps.reporter.report({ kind: 'quarantined', rpcId, ...(sessionId === undefined ? {} : { sessionId }), reason: entry.reason }, { log: true });
  }

  async #leaseForAsker(takeLease: (rpcId: string) => Promise<boolean>, record: QuestionRecord, message: string | undefined): Promise<void> {
    const { waiters, resumer, logger } = this.deps;
    let mine: boolean | undefined;
    // Tried again while the asker waits: the entry is gone from this node's table, and the scan of
    // records awaiting their resume may fall to another node (which leaves a live asker's answer be).
    for (let delay = LEASE_RETRY_FIRST_MS; mine === undefined; delay = Math.min(delay * 2, LEASE_RETRY_MAX_MS)) {
      try {
        mine = await takeLease(record.rpcId);
      } catch (error) {
        logger.error('could not take the resume lease to give an answer to its asker; trying again while it waits', { rpcId: record.rpcId, error: String(error) });
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        if (!waiters.has(record.rpcId)) return;
      }
    }
    if (!mine) {
      waiters
        .take(record.rpcId)
        ?.reject(
          new UserQuestionError(
            'ASK_ABORTED',
            'The question was answered, but another node took this one for gone (it had lost touch with the bus for longer than its liveness allows) and handed the answer to its onResume; the answer is there, under the same rpcId.',
          ),
        );
      return;
    }
    const waiter = waiters.get(record.rpcId);
    // The asker gave up (or the host closed) while the lease was being taken: the answer goes to onResume, under the lease we hold.
    if (waiter === undefined) resumer.resume(record, { leased: true });
    else this.#giveToAsker(record, waiter, message);
  }

  #giveToAsker(record: QuestionRecord, waiter: Waiter, message: string | undefined): void {
    this.deps.waiters.take(record.rpcId);
    this.#handedToAsker.add(record.rpcId);
    // The one copy on the way back: the store's record, the event log and the asker must not share
    // one object, and the seam passes a hand-over copy to its caller without copying it again.
    if (record.outcome === 'answered' && record.answer !== undefined) {
      tellWhoDecided(record, waiter, this.deps.logger);
      waiter.resolve(handOverAnswer(record.answer));
    }
    else {
      const said = message === undefined ? '' : ` They said: ${message}`;
      waiter.reject(new UserQuestionError('ASK_CANCELLED', `The user dismissed the questions without answering.${said}`));
    }
    // The asker has it: neither a restart nor another node may hand it to onResume as well (retried until it lands).
    this.deps.work.track(this.deps.marks.mark(record.rpcId));
  }
}

/** The asker's `answeredBy`, when it gave one and the record says who decided; a throwing callback never keeps the answer from it. */
function tellWhoDecided(record: QuestionRecord, waiter: Waiter, logger: HostLogger): void {
  if (waiter.answeredBy === undefined) return;
  const people = whoDecided(record);
  if (people === undefined) return;
  try {
    waiter.answeredBy(people);
  } catch (error) {
    logger.error('the asker\'s answeredBy threw; the answer is handed over all the same', { rpcId: record.rpcId, error: String(error) });
  }
}
