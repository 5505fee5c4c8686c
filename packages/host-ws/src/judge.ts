import type { ReceiptFrame } from '@askseam/protocol';
import type { QuestionBusAnnouncementMessage, QuestionRecord, QuestionStore } from '@askseam/store';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import type { Cluster } from './cluster.js';
import type { Delivery } from './delivery.js';
import type { HandOver } from './hand-over.js';
import type { BackgroundWork, Lifecycle } from './lifecycle.js';
import type { HostLogger } from './logger.js';
import type { PendingQuestion, PendingTable } from './pending.js';
import { onlyQuestion, type Principal } from './principal.js';
import { claimVerdict, confirmDelaysMs, readBack } from './read-back.js';
import type { RejectionBudget } from './rejection-budget.js';
import type { Share } from './share.js';
import { answeredByOf, type Reporter, type Responder } from './reporter.js';
import type { Routing } from './routing.js';
import { respond, type RespondInput, type RespondOutcome } from './respond.js';
import { announceVote, quorumVoting } from './quorum.js';

/** Where a response came from, and how to answer its sender (any transport). */
export interface ResponseVia extends Omit<Responder, 'principalId'> {
  /**
   * Send the receipt to the sender, a subscriber whose `id` is `connectionId` (absent: the caller
   * answers, as the HTTP API does from the outcome). A sender sent an accepted receipt here is not
   * also sent `question/resolved` for the same answer (protocol 2).
   */
  reply?: (receipt: ReceiptFrame) => void;
  /** Run `work` so that the receipt and the `question/resolved` that follows leave in one write. */
  batch?: (work: () => void) => void;
}

export interface JudgeDeps {
  store: QuestionStore;
  pending: PendingTable;
  delivery: Delivery;
  handOver: HandOver;
  cluster: Cluster;
  reporter: Reporter;
  rejectionBudget: RejectionBudget;
  lifecycle: Lifecycle;
  work: BackgroundWork;
  logger: HostLogger;
  /** Aborted when close() starts: ends the read-backs that would otherwise retry until the store answers. */
  closing: AbortSignal;
  /** The host's route (routing.ts): who may answer a routed question now. */
  routing?: Routing;
  /** The node's share, when it holds only its own (share.ts): a question it does not hold is read from the store. */
  share?: Share;
  /** For the warning when a principal runs out of logged rejections. */
  limits: { maxLoggedRejections: number; badFrameWindowMs: number };
}

/**
 * One response, from any transport: judged with the ordered checks of respond.ts, its receipt
 * sent, everyone told, and a settled record handed to whoever waits for it.
 */
export class Judge {
  constructor(private readonly deps: JudgeDeps) {}

  judge(input: RespondInput, principal: Principal, canSee: (sessionId: string) => boolean, via: ResponseVia): Promise<RespondOutcome> {
    // close() waits for a judgement in flight: its claim may still settle a question.
    const work = this.#judgeNow(input, principal, canSee, via);
    this.deps.work.track(work.then(noop, noop));
    return work;
  }

  async #judgeNow(input: RespondInput, principal: Principal, canSee: (sessionId: string) => boolean, via: ResponseVia): Promise<RespondOutcome> {
    const { pending, store, delivery, reporter, logger, work } = this.deps;
    const by: Responder = { principalId: principal.id, connectionId: via.connectionId, channel: via.channel, ...person(via) };
    const answeredBy = answeredByOf(by);
    const announce = (news: QuestionBusAnnouncementMessage) => this.deps.cluster.announcement(news);
    const quorum = quorumVoting({ principal, ...(answeredBy.destination === undefined ? {} : { destination: answeredBy.destination }) }, answeredBy, { store, pending, announce });
    // Not held here (another node's session, a socket racing its replay): one store read; only a
    // question the store holds pending is judged, and claimed in the store as ever.
    const share = this.deps.share;
    const visiting = share !== undefined && pending.get(input.rpcId) === undefined && (await share.visit(input.rpcId));
    // Without a route nothing is awaited here: an unrouted host judges exactly as before.
    const routing = this.deps.routing;
    const mayAnswer = routing?.active === true ? await routing.answerCheck(input.rpcId, principal, via.destination) : undefined;
    const outcome = await respond(input, canSee, { pending, store, onlyQuestion: onlyQuestion(principal), mayAnswer, announce, answeredBy, quorum });
    // Refused: a visiting question is not kept (it stays pending in the store; a corrected answer reads it again).
    if (visiting) share.letGo(input.rpcId);
    // The receipt and the question/resolved frames to the session's other subscribers leave
    // together. The responder's accepted receipt is its news that the question is over (protocol 2).
    (via.batch ?? runNow)(() => {
      via.reply?.(outcome.receipt);
      if (outcome.kind === 'answered' || outcome.kind === 'cancelled') delivery.resolved(outcome.record, { ...outcome.record, outcome: outcome.kind }, via.reply === undefined ? undefined : via.connectionId);
    });
    const rpcId = input.rpcId;
    switch (outcome.kind) {
      case 'rejected':
      case 'store-failed':
      case 'unconfirmed': {
        const reason = outcome.receipt.accepted ? 'bad-response' : outcome.receipt.reason;
        const detail = outcome.receipt.accepted ? undefined : outcome.receipt.detail;
        if (outcome.kind === 'store-failed') logger.error('the store could not record a response; the question stays pending', { rpcId, error: String(outcome.error) });
        if (outcome.kind === 'unconfirmed') {
          logger.error('the store did not say whether it recorded a response; reading it back until it does', { rpcId, error: String(outcome.error) });
          work.track(this.#confirmLater(outcome, by));
        }
        const rejected = { kind: 'rejected', rpcId, reason, by, ...(detail === undefined ? {} : { detail }) } as const;
        reporter.report(rejected, { log: false });
        // Lost the store's claim to another process: our clients saw the entry go and must hear how it ended.
        if (reason === 'not-pending' && outcome.entry?.saved === true && pending.get(rpcId) === undefined) work.track(this.#tellOutcome(outcome.entry));
        // A late answer to a settled question belongs in its session's log too: look the session up.
        const sessionId = outcome.entry?.saved ? outcome.entry.sessionId : reason === 'not-pending' ? await this.#settledSessionOf(rpcId) : undefined;
        if (sessionId !== undefined && this.#mayLogRejection(by.principalId)) reporter.record({ ...rejected, sessionId });
        return outcome;
      }
      case 'voted':
        if (!outcome.repeated) announceVote(outcome.record, by, { pending, delivery, reporter, cluster: this.deps.cluster });
        return outcome;
      case 'cancelled':
      case 'answered':
        this.#announceSettled(outcome, by);
        return outcome;
    }
  }

  /** A response the store recorded: tell the other nodes, the hooks and the log, and hand the record to whoever waits for it. */
  #announceSettled(
    settled: { kind: 'answered'; record: QuestionRecord; answer: AskUserQuestionAnswer; announced?: true } | { kind: 'cancelled'; record: QuestionRecord; message?: string; announced?: true },
    by: Responder,
  ): void {
    const { cluster, reporter, handOver } = this.deps;
    const { record } = settled;
    if (settled.kind === 'cancelled') {
      const { message } = settled;
      // `announced`: the store already published it inside the claim.
      if (!settled.announced) cluster.publish({ type: 'settled', record, ...(message === undefined ? {} : { message }) });
      reporter.report({ kind: 'cancelled', record, by, ...(message === undefined ? {} : { message }) }, { log: true });
      handOver.handOver(record, message);
      return;
    }
    if (!settled.announced) cluster.publish({ type: 'settled', record });
    reporter.report({ kind: 'answered', record, answer: settled.answer, by }, { log: true });
    handOver.handOver(record);
  }

  /**
   * A response whose claim the store may or may not have run (its reply was lost and it could not
   * be read back): keep reading the record until the store answers, then act on what it holds.
   * Until then the question is neither pending here nor settled; if the host closes first, the
   * next host on the store finds it pending (replayed) or settled (handed to onResume).
   */
  async #confirmLater(outcome: Extract<RespondOutcome, { kind: 'unconfirmed' }>, by: Responder): Promise<void> {
    const { store, pending, lifecycle, logger, delivery, handOver } = this.deps;
    const { entry } = outcome;
    const after = await readBack(store, entry.rpcId, confirmDelaysMs(), this.deps.closing);
    if (!after.known || lifecycle.ended) {
      logger.warn('the host closed before the store said whether a response was recorded; the next host on the store finds out', { rpcId: entry.rpcId });
      return;
    }
    const verdict = claimVerdict(after.record, outcome.outcome, outcome.answer);
    logger.info('read back a response the store had not confirmed', { rpcId: entry.rpcId, verdict });
    if (verdict === 'pending') {
      // Not recorded: the question is pending again, and a response sent now is judged as usual.
      if (!pending.wasSettledElsewhere(entry.rpcId) && pending.get(entry.rpcId) === undefined) pending.add(entry);
      return;
    }
    const record = after.record;
    if (verdict === 'theirs') {
      if (record?.outcome !== undefined) handOver.adoptSettled(record, undefined, entry);
      return;
    }
    delivery.resolved(entry, { ...record!, outcome: outcome.outcome });
    if (outcome.outcome === 'answered' && outcome.answer !== undefined) this.#announceSettled({ kind: 'answered', record: record!, answer: outcome.answer }, by);
    else this.#announceSettled({ kind: 'cancelled', record: record!, ...(outcome.message === undefined ? {} : { message: outcome.message }) }, by);
  }

  /** Whether one more rejection of this principal goes to the event log this window (`maxLoggedRejections`). */
  #mayLogRejection(principalId: string): boolean {
    const { log, firstDropped } = this.deps.rejectionBudget.take(principalId);
    if (firstDropped) {
      this.deps.logger.warn('a principal sent more rejected responses than maxLoggedRejections; the rest this window are not written to the event log', {
        principalId,
        maxLoggedRejections: this.deps.limits.maxLoggedRejections,
        windowMs: this.deps.limits.badFrameWindowMs,
      });
    }
    return log;
  }

  /**
   * Another process settled a question this node had just taken out of its table: tell this
   * node's clients how it ended (as the store has it) and hand the answer to its asker if it waits here.
   */
  async #tellOutcome(entry: PendingQuestion): Promise<void> {
    try {
      const record = await this.deps.store.get(entry.rpcId);
      if (record?.outcome !== undefined) this.deps.handOver.adoptSettled(record, undefined, entry);
    } catch (error) {
      this.deps.logger.error('could not read how another process settled a question', { rpcId: entry.rpcId, error: String(error) });
    }
  }

  /** The session of a question the store still knows (settled), or undefined. */
  async #settledSessionOf(rpcId: string): Promise<string | undefined> {
    try {
      return (await this.deps.store.get(rpcId))?.sessionId;
    } catch (error) {
      this.deps.logger.error('could not read a question from the store', { rpcId, error: String(error) });
      return undefined;
    }
  }
}

function noop(): void {}

function runNow(work: () => void): void {
  work();
}

/** An in-process channel's names for the person and the place, when it gave them. */
function person(via: ResponseVia): Pick<Responder, 'user' | 'destination'> {
  return { ...(via.user === undefined ? {} : { user: via.user }), ...(via.destination === undefined ? {} : { destination: via.destination }) };
}
