import { randomUUID } from 'node:crypto';
import { isoNow, QuestionStoreError, type QuestionRecord, type QuestionStore } from '@askseam/store';
import {
  UserQuestionError,
  askUserQuestionUrgencySchema,
  askUserQuestionsSchema,
  askObservationOf,
  compiledSafeParse,
  hasUserQuestionErrorCode,
  isSealedQuestionBatch,
  type AskUserQuestionAnswer,
  type AskUserQuestionItem,
  type AskUserQuestionRequest,
} from '@askseam/user-questions';
import type { Cluster } from './cluster.js';
import type { Delivery } from './delivery.js';
import { checkDetachedAsk, type DetachedAskRequest } from './detached.js';
import { WebSocketHostError } from './errors.js';
import { refuseQuorumWithoutVotes } from './quorum.js';
import type { BackgroundWork, Lifecycle } from './lifecycle.js';
import type { HostLogger } from './logger.js';
import { callNotifier, type Notifier } from './notify.js';
import { PendingQuestion, type PendingTable } from './pending.js';
import type { Reporter } from './reporter.js';
import type { Tier } from './route.js';
import type { Routing } from './routing.js';
import type { HandOver, Waiters } from './hand-over.js';
import type { Share } from './share.js';

export interface AsksDeps {
  store: QuestionStore;
  /** The store is the host's own (in memory): it dies with the host, so close() withdraws what is pending. */
  ownsStore: boolean;
  pending: PendingTable;
  waiters: Waiters;
  delivery: Delivery;
  cluster: Cluster;
  reporter: Reporter;
  lifecycle: Lifecycle;
  work: BackgroundWork;
  logger: HostLogger;
  notify: Notifier | undefined;
  /** Where a question settled by someone else goes (a withdraw that lost the race tells its clients how it ended). */
  handOver: HandOver;
  /** The one-question link `notify` gets with each question; absent (or undefined) when links have no page to open. */
  linkFor?: ((record: QuestionRecord) => string | undefined) | undefined;
  /** The host's route: asked questions get their tiers before they are saved (a bad route refuses the ask). */
  routing?: Routing;
  /** The node's share, when it holds only its own: a saved question nobody here sees or waits for is not kept. */
  share?: Share;
}

type Saved = { ok: true } | { ok: false; error: unknown };

/**
 * The asking side: `ask` (the seam's provider; blocks until answered), `askDetached` (resolves once
 * saved; the answer goes to onResume), making a question pending (listed, saved, delivered,
 * notified), and withdrawing it when its asker gives up or the host closes.
 */
export class Asks {
  /** Saves in flight, by rpcId: an asker-side settlement waits for its question's save. */
  readonly #saves = new Map<string, Promise<Saved>>();

  constructor(private readonly deps: AsksDeps) {}

  /**
   * Not `async`: a pending ask then holds the one promise its asker awaits, not also the async
   * function's own promise chained onto it (heap per pending question). Refusals still reject.
   */
  ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    let questions: AskUserQuestionItem[];
    try {
      questions = this.#checkAsk(request);
    } catch (error) {
      return Promise.reject(error);
    }
    const { agent, signal } = request;
    const { waiters, cluster } = this.deps;

    return new Promise<AskUserQuestionAnswer>((resolve, reject) => {
      const rpcId = randomUUID();
      const { answeredBy } = request;
      if (signal === undefined && answeredBy === undefined) {
        // No signal to unhook: the promise's resolve alone is the waiter (less heap per pending question).
        waiters.setResolver(rpcId, resolve);
      } else {
        const onAbort = () => this.#abortBlocking(rpcId, signal?.reason);
        waiters.set(rpcId, {
          resolve: (answer) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(answer);
          },
          reject: (error) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
          ...(answeredBy === undefined ? {} : { answeredBy }),
        });
        signal?.addEventListener('abort', onAbort, { once: true });
      }
      // The seam passes urgency through unchecked; a level we do not know is read as medium.
      const urgency = request.urgency === undefined ? undefined : askUserQuestionUrgencySchema.catch('medium').parse(request.urgency);
      const sessionId = agent!.id;
      const askedAt = isoNow();
      // The seam's span of this ask, when the app records telemetry: its context goes into the record.
      const observation = this.deps.reporter.telemetry === undefined ? undefined : askObservationOf(request);
      this.deps.reporter.telemetry?.observe(rpcId, sessionId, observation);
      const traceContext = observation?.traceContext;
      const record: QuestionRecord =
        urgency === undefined && cluster.nodeId === undefined && traceContext === undefined
          ? // The common case as one literal of exactly its fields: no spare property slots.
            { rpcId, sessionId, askedBy: sessionId, askedAt, questions, mode: 'blocking' }
          : {
              rpcId,
              sessionId,
              askedBy: sessionId,
              askedAt,
              questions,
              mode: 'blocking',
              ...(urgency === undefined ? {} : { urgency }),
              // Another node that settles it must know where the asker waits.
              ...(cluster.nodeId === undefined ? {} : { askedOn: cluster.nodeId }),
              // The node that takes the answer links its own span to the ask's (docs/telemetry.md).
              ...(traceContext === undefined ? {} : { traceContext }),
            };
      // Frozen, with the seam's sealed questions: the in-memory store keeps this very object.
      Object.freeze(record);
      let tiers: Tier[] | undefined;
      try {
        tiers = this.deps.routing?.tiersFor(record);
      } catch (error) {
        // A route that cannot be used: nobody is asked, and the asker learns why (its signal unhooked).
        (waiters.take(rpcId)?.reject ?? reject)(error);
        return;
      }
      void this.#enqueue(record, tiers).then((saved) => {
        if (saved.ok) return;
        waiters.take(rpcId)?.reject(new UserQuestionError('ASK_ABORTED', `The question could not be saved, so nobody was asked: ${String(saved.error)}`, { cause: saved.error }));
      });
    });
  }

  /** The checks before a blocking ask is made pending; returns the questions to keep. Throws the first refusal. */
  #checkAsk(request: AskUserQuestionRequest): AskUserQuestionItem[] {
    const { agent, signal } = request;
    if (agent === undefined) {
      throw new UserQuestionError(
        'ASK_MISSING_AGENT',
        'The WebSocket host routes each question to the asking agent\'s session, but the request has no agent; pass `agent` to ask().',
      );
    }
    this.#refuseWhenClosed();
    if (signal?.aborted) throw new UserQuestionError('ASK_ABORTED', 'The question was aborted before it was asked.', { cause: signal.reason });
    // Only the contract's fields go on the wire, and the caller's later edits do not.
    // The seam's sealed batch is checked and frozen: shared, not copied (one copy per pending question).
    const questions = isSealedQuestionBatch(request.questions) ? request.questions : parseOwnCopy(request.questions);
    refuseQuorumWithoutVotes(questions, this.deps.store);
    return questions;
  }

  async askDetached(request: DetachedAskRequest): Promise<{ rpcId: string }> {
    const checked = checkDetachedAsk(request);
    this.#refuseWhenClosed();
    refuseQuorumWithoutVotes(checked.questions, this.deps.store);
    const record: QuestionRecord = { rpcId: randomUUID(), askedAt: isoNow(), mode: 'detached', ...checked };
    const tiers = this.deps.routing?.tiersFor(record);
    const saved = await this.#enqueue(record, tiers);
    if (!saved.ok) throw new WebSocketHostError('STORE_FAILED', `The detached question could not be saved, so nobody was asked: ${String(saved.error)}`, { cause: saved.error });
    return { rpcId: record.rpcId };
  }

  /**
   * The host is closing: every pending question is taken out, and every asker ends `ASK_ABORTED`.
   * With the host's own store the questions are withdrawn everywhere (`aborted`); a store that
   * outlives the host keeps them pending for the next host (their answers go to its onResume).
   */
  withdrawAll(): void {
    const { pending, waiters, delivery, reporter, ownsStore, work } = this.deps;
    for (const entry of pending.claimAll()) {
      const waiter = waiters.take(entry.rpcId);
      const aborted = { kind: 'aborted', rpcId: entry.rpcId, sessionId: entry.sessionId, by: 'host-close', timedOut: false } as const;
      if (ownsStore) {
        // Our own store dies with us: withdraw the question everywhere.
        delivery.resolved(entry, { outcome: 'aborted' });
        reporter.report(aborted, { log: false });
        waiter?.reject(new UserQuestionError('ASK_ABORTED', 'The WebSocket host closed while the question was waiting for an answer.'));
        work.track(this.#settleInStore(entry, 'aborted', () => reporter.record(aborted)));
      } else if (waiter !== undefined) {
        // A store that outlives us keeps the question pending: the next host replays it, and its answer goes to onResume.
        reporter.report(aborted, { log: false });
        waiter.reject(
          new UserQuestionError(
            'ASK_ABORTED',
            'The WebSocket host closed while the question was waiting for an answer; it stays pending in the store, and its answer will go to onResume of the next host on that store.',
          ),
        );
      }
    }
    // Askers whose question was out of the table (an answer being claimed) end too.
    for (const waiter of waiters.takeAll()) {
      waiter.reject(new UserQuestionError('ASK_ABORTED', 'The WebSocket host closed while the answer to the question was being recorded.'));
    }
  }

  /**
   * An operator withdraws a pending question: settled `aborted` in the store (first claim wins, as
   * with any answer), its asker ended `ASK_ABORTED` (cause `WITHDRAWN`), the event log and
   * `onEvent` told who did it and why. False when it was not pending (unknown, already settled, or
   * an answer won the race). Rejects `STORE_FAILED` when the store could not record it (still pending).
   */
  async withdraw(rpcId: string, by: { principalId: string; reason?: string }): Promise<boolean> {
    const { pending, waiters, delivery, reporter, store, cluster, handOver, work } = this.deps;
    const entry = pending.claim(rpcId);
    if (entry !== undefined) {
      // A claim must not overtake the question's own save.
      await this.#saves.get(rpcId);
      if (!entry.saved) {
        delivery.resolved(entry, { outcome: 'aborted' });
        return false;
      }
    }
    const announce = cluster.announcement({ type: 'settled' });
    let settled: QuestionRecord | undefined;
    try {
      settled = await (announce === undefined ? store.claim(rpcId, 'aborted') : store.claim(rpcId, 'aborted', undefined, { announce }));
    } catch (error) {
      // Not recorded: it is pending here again, exactly as before.
      if (entry !== undefined && pending.get(rpcId) === undefined && !pending.wasSettledElsewhere(rpcId)) pending.add(entry);
      throw new WebSocketHostError('STORE_FAILED', `The store could not record the withdrawal of question "${rpcId}", so it is still pending: ${String(error)}`, { cause: error });
    }
    if (settled === undefined) {
      // Settled first by someone else (an answer here or on another node): our clients saw it go and must hear how it ended.
      if (entry !== undefined) work.track(this.#tellOutcome(entry.rpcId, (record) => handOver.adoptSettled(record, undefined, entry)));
      return false;
    }
    if (announce === undefined) cluster.publish({ type: 'settled', record: settled });
    if (entry !== undefined) delivery.resolved(entry, { outcome: 'aborted' });
    reporter.report({ kind: 'withdrawn', rpcId, sessionId: settled.sessionId, principalId: by.principalId, ...(by.reason === undefined ? {} : { reason: by.reason }) }, { log: true });
    const why = by.reason === undefined ? '' : `: ${by.reason}`;
    const cause = new WebSocketHostError('WITHDRAWN', `Operator "${by.principalId}" withdrew question "${rpcId}"${why}`);
    waiters.take(rpcId)?.reject(new UserQuestionError('ASK_ABORTED', `An operator withdrew the question before anyone answered it${why}`, { cause }));
    return true;
  }

  /** Call `notify` again for a question still pending in the store (a message that went missing). False when it is not pending. */
  async resendNotification(rpcId: string): Promise<boolean> {
    const { notify, store, logger } = this.deps;
    if (notify === undefined) throw new WebSocketHostError('NO_NOTIFY', 'This host has no `notify` hook, so there is no notification to send again; pass `notify` to createWebSocketHost.');
    const record = await store.get(rpcId);
    if (record === undefined || record.outcome !== undefined) return false;
    logger.info('notification sent again', { rpcId, sessionId: record.sessionId });
    callNotifier(notify, record, logger, this.deps.linkFor);
    return true;
  }

  async #tellOutcome(rpcId: string, adopt: (record: QuestionRecord) => void): Promise<void> {
    try {
      const record = await this.deps.store.get(rpcId);
      if (record?.outcome !== undefined) adopt(record);
    } catch (error) {
      this.deps.logger.error('could not read how another process settled a question', { rpcId, error: String(error) });
    }
  }

  /** A start that failed: an ask that arrived while the host was starting will never be seen now. */
  failAll(error: unknown): void {
    for (const entry of this.deps.pending.claimAll()) {
      this.deps.waiters.take(entry.rpcId)?.reject(new UserQuestionError('ASK_ABORTED', 'The WebSocket host failed to start, so nobody can answer the question.', { cause: error }));
    }
  }

  #refuseWhenClosed(): void {
    if (this.deps.lifecycle.ended) throw new UserQuestionError('ASK_ABORTED', 'The WebSocket host is closed, so nobody can answer the question.');
  }

  /**
   * Make a question pending: listed at once (in ask order), saved, and only then logged, delivered
   * and notified. Resolves when the store has it (or has refused it, and the question is gone).
   */
  #enqueue(record: QuestionRecord, tiers?: Tier[]): Promise<Saved> {
    const { pending, store, reporter, delivery, cluster, lifecycle, ownsStore, logger, work } = this.deps;
    const entry = new PendingQuestion(record, pending.nextSeq(), { saved: false });
    pending.add(entry);
    reporter.report({ kind: 'asked', record }, { log: false });
    // With a store on the bus's server, `asked` leaves Redis inside the save (docs/scaling.md).
    const announce = cluster.announcement({ type: 'asked' });
    // The question's `human_input_requested` goes into the store with it when the store can take
    // both at once: once the ask has resolved, a process killed at any instant leaves both or neither.
    const asked = store.saveWithEvent === undefined ? undefined : reporter.logEntry({ kind: 'saved', record });
    let eventSaved = false;
    const saveRecord = () => (announce === undefined ? store.save(record) : store.save(record, { announce }));
    const save = async (): Promise<void> => {
      if (asked === undefined) return saveRecord();
      try {
        await (announce === undefined ? store.saveWithEvent!(record, asked) : store.saveWithEvent!(record, asked, { announce }));
        eventSaved = true;
      } catch (error) {
        if (!QuestionStoreError.isInstance(error) || error.code !== 'CORRUPT_STORE') throw error;
        // A damaged event log (the session's stream) must not stop questions being asked: the
        // atomic save wrote nothing, so save the question alone; its event goes the old way and
        // that failure is logged (a question lost to an audit failure is worse than a gap).
        logger.error('could not save a question with its asked event; saving it alone', { rpcId: record.rpcId, error: String(error) });
        await saveRecord();
      }
    };
    // `async` turns a store that throws synchronously into a rejection like any other.
    const done = save().then(
      (): Saved => {
        entry.saved = true;
        if (!eventSaved) reporter.record({ kind: 'saved', record });
        // Settled (aborted) or withdrawn by close while it was being saved: nobody is to see it now.
        if (pending.get(record.rpcId) === entry) {
          // Before delivery: this node reached tier 0, so it runs tier 0's agents and arms the timers.
          this.deps.routing?.track(entry, { asked: { tiers } });
          delivery.announce(entry);
          if (announce === undefined) cluster.publish({ type: 'asked', record });
          // A detached question of a session nobody here sees: it lives in the store and on the nodes that serve its session.
          this.deps.share?.letGo(record.rpcId);
        }
        if (!lifecycle.ended || !ownsStore) callNotifier(this.deps.notify, record, logger, this.deps.linkFor, tiers === undefined ? undefined : { tier: 0, answerers: [...tiers[0]!.answerers] });
        return { ok: true };
      },
      (error: unknown): Saved => {
        logger.error('could not save a question; it was not asked', { rpcId: record.rpcId, error: String(error) });
        this.deps.reporter.telemetry?.unsaved(record.rpcId);
        // A link minted while it was being saved may have a page waiting for it: tell it it is gone.
        if (pending.claim(record.rpcId) === entry) delivery.resolved(entry, { outcome: 'aborted' });
        return { ok: false, error };
      },
    );
    this.#saves.set(record.rpcId, done);
    work.track(done.finally(() => this.#saves.delete(record.rpcId)));
    return done;
  }

  /** The blocking asker gave up (its signal, or the seam's timeout through it): withdraw the question everywhere. */
  #abortBlocking(rpcId: string, reason: unknown): void {
    const { pending, waiters, delivery, reporter, work } = this.deps;
    const entry = pending.claim(rpcId);
    const waiter = waiters.take(rpcId);
    const error = new UserQuestionError('ASK_ABORTED', 'The question was aborted while waiting for an answer.', { cause: reason });
    if (entry === undefined) {
      // An answer is being claimed right now: the asker still gives up, and if that answer wins it
      // finds no waiter and goes to onResume instead of to an ask that has already ended.
      waiter?.reject(error);
      return;
    }
    // The seam aborts with its own ASK_TIMEOUT error as the reason when its deadline passes.
    const aborted = { kind: 'aborted', rpcId, sessionId: entry.sessionId, by: 'signal', timedOut: hasUserQuestionErrorCode(reason, 'ASK_TIMEOUT') } as const;
    delivery.resolved(entry, { outcome: aborted.timedOut ? 'timed_out' : 'aborted' });
    reporter.report(aborted, { log: false });
    waiter?.reject(error);
    work.track(this.#settleInStore(entry, aborted.timedOut ? 'timed_out' : 'aborted', () => reporter.record(aborted)));
  }

  /** Record an asker-side settlement once the question's save has finished (a claim must not overtake its save). */
  async #settleInStore(entry: PendingQuestion, outcome: 'aborted' | 'timed_out', recordIt: () => void): Promise<void> {
    await this.#saves.get(entry.rpcId);
    if (!entry.saved) return;
    try {
      const settled = await this.deps.store.claim(entry.rpcId, outcome);
      recordIt();
      // Undefined: a person's answer on another node won; that node tells everyone.
      if (settled !== undefined) this.deps.cluster.publish({ type: 'settled', record: settled });
    } catch (error) {
      this.deps.logger.error('could not record a withdrawn question in the store; it may be replayed after a restart', { rpcId: entry.rpcId, error: String(error) });
    }
  }
}

const parseQuestions = compiledSafeParse(askUserQuestionsSchema);

/** A checked copy of questions that did not come from the seam's check; throws INVALID_QUESTIONS. */
function parseOwnCopy(questions: unknown): AskUserQuestionItem[] {
  const parsed = parseQuestions(questions);
  if (!parsed.success) throw new UserQuestionError('INVALID_QUESTIONS', `The questions do not match the question schema: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  return parsed.data;
}
