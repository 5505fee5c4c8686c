import {
  humanOutcomes,
  type BusAnnouncement,
  type QuestionBus,
  type QuestionBusAnnouncementMessage,
  type QuestionBusDelivery,
  type QuestionBusMessage,
  type QuestionRecord,
  type QuestionStore,
  type SessionSelection,
  type UnreadableRecord,
} from '@askseam/store';
import type { AwaitingResumeReader } from './awaiting-resume.js';
import type { BackgroundWork, Lifecycle } from './lifecycle.js';
import type { HostLogger } from './logger.js';
import type { PendingQuestion, PendingTable } from './pending.js';
import { quorumOf } from './quorum.js';
import { reconcilePass } from './reconcile-pass.js';
import { SETTLED_IDS_REMEMBERED_ON_A_BUS } from './recent-ids.js';

/** A bus message as this host writes it; `publish` adds the sender. */
export type OutgoingBusMessage = { type: 'asked'; record: QuestionRecord } | { type: 'settled'; record: QuestionRecord; message?: string } | { type: 'voted'; record: QuestionRecord };

/** The host's side of the cluster: what a reconcile reads, and where news from the bus or a reconcile goes. */
export interface ClusterLink {
  /** This node's pending questions (a reconcile compares them with the store). */
  pending: PendingTable;
  /** A question asked on another node: pending here too. */
  adoptPending(record: QuestionRecord): void;
  /** A question settled elsewhere: gone here, its answer to its asker if it waits here. */
  adoptSettled(record: QuestionRecord, message?: string): void;
  /** A question held here that the store does not know (its record expired, or a replayed sealed `asked` brought it): gone. */
  forgetUnknown(entry: PendingQuestion): void;
  /** A quorum approval counted a vote elsewhere: this node's clients see the progress. */
  adoptVotes(record: QuestionRecord): void;
  /** Settled records that may need handing to their asker or to onResume. */
  resumeOrphans(records: QuestionRecord[]): Promise<void>;
  onUnreadable(record: UnreadableRecord): void;
  /**
   * A node that holds only its share (share.ts): whether a message concerns it (checked before the
   * store read a message costs), which sessions a reconcile lists (undefined: none), and what to do
   * after one (forget what it no longer keeps, follow again what failed). Absent: everything.
   */
  share?: {
    wants(message: QuestionBusMessage): boolean;
    selection(): SessionSelection | undefined;
    serves(sessionId: string): boolean;
    afterReconcile(): Promise<void>;
  };
}

/**
 * This node's part in a cluster of hosts sharing one store (docs/scaling.md). Without a bus it is
 * `standalone`, which does nothing: the rest of the host asks the cluster and never tests for a bus.
 */
export interface Cluster {
  /** This node's id, written on a blocking ask (`askedOn`) so another node that settles it knows where the asker waits. */
  readonly nodeId: string | undefined;
  /** How many settled rpcIds to remember: only news from other nodes can come late or twice. */
  readonly rememberSettled: number;
  /** One lease per settled record decides which node delivers it (to its asker or to onResume); none alone. */
  readonly takeResumeLease: ((rpcId: string) => Promise<boolean>) | undefined;
  /** Take the right to escalate one tier of a routed question: true for exactly one node (alone: undefined, no lease needed). */
  readonly takeEscalationLease: ((rpcId: string, tier: number) => Promise<boolean>) | undefined;
  /** Tell the other nodes, without holding anything up. */
  publish(message: OutgoingBusMessage): void;
  /**
   * This node's message of this type for the store to publish inside the write it announces (store
   * and bus on the same server), or undefined: then the caller publishes after the write as usual.
   */
  announcement(message: QuestionBusAnnouncementMessage): BusAnnouncement | undefined;
  /** True when the record's asker waits on this node. */
  askedHere(record: QuestionRecord): boolean;
  /** True when the record's asker waits on another node (then `isNodeAlive` says whether that node takes it). */
  askedElsewhere(record: QuestionRecord): boolean;
  isNodeAlive(nodeId: string): Promise<boolean>;
  /** Subscribe, before the store is read; news is held until `loaded()`. Throws when the bus cannot be reached. */
  subscribe(link: ClusterLink): Promise<void>;
  /** The store's pending questions are loaded: apply the news held meanwhile. */
  loaded(): void;
  /** The host serves: start reconciling. */
  running(): void;
  /** close() began: stop reconciling (news of our own askers' answers is still taken). */
  stop(): void;
  /** Resolves once a reconcile in flight has finished. */
  drain(): Promise<void>;
  /** Leave the cluster (last, so the others see this node gone only when nothing of ours is on its way). */
  close(): Promise<void>;
}

/** A host alone: nobody to tell, nobody to hear from. */
export const standalone: Cluster = {
  nodeId: undefined,
  rememberSettled: 0,
  takeResumeLease: undefined,
  takeEscalationLease: undefined,
  publish: () => {},
  announcement: () => undefined,
  askedHere: () => false,
  askedElsewhere: () => false,
  isNodeAlive: () => Promise.resolve(false),
  subscribe: () => Promise.resolve(),
  loaded: () => {},
  running: () => {},
  stop: () => {},
  drain: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

export interface BusClusterDeps {
  store: QuestionStore;
  lifecycle: Lifecycle;
  work: BackgroundWork;
  logger: HostLogger;
  reconcileMs: number;
  resumeLeaseMs: number;
  /** How a reconcile reads the records awaiting their resume (a node holding its share shares the scan). Default: all of them. */
  readAwaitingResume?: AwaitingResumeReader;
}

/** How long the node that escalated a tier holds it: a day. */
export const ESCALATION_LEASE_MS = 24 * 60 * 60 * 1000;

/** How long a node the bus reported alive counts as alive without asking again. */
export const NODE_SEEN_ALIVE_MS = 1_000;

/** One node of several on `bus`. */
export class BusCluster implements Cluster {
  readonly nodeId: string;
  readonly rememberSettled = SETTLED_IDS_REMEMBERED_ON_A_BUS;
  readonly takeResumeLease: (rpcId: string) => Promise<boolean>;
  readonly takeEscalationLease: (rpcId: string, tier: number) => Promise<boolean>;
  #link: ClusterLink | undefined;
  /** Bus messages that arrived before the store's pending questions were loaded; applied right after. */
  readonly #heldNews: { message: QuestionBusMessage; sealed: boolean }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #reconciling: Promise<void> | undefined;
  /** A reconcile was asked for while one ran (or before the store was loaded): run once more. */
  #reconcileAgain = false;
  /** Node id → until when (performance.now()) it counts as alive without asking the bus. */
  readonly #seenAlive = new Map<string, number>();
  /** The store publishes our news inside its writes: it and the bus name the same server. */
  readonly #storeAnnounces: boolean;

  constructor(
    private readonly bus: QuestionBus,
    private readonly deps: BusClusterDeps,
  ) {
    this.nodeId = bus.nodeId;
    this.takeResumeLease = (rpcId) => bus.acquireLease(`resume:${rpcId}`, deps.resumeLeaseMs);
    // Held long past any tier: every node's timer fires within moments of the others', and a node
    // that starts later reads the escalation from the event log instead.
    this.takeEscalationLease = (rpcId, tier) => bus.acquireLease(`escalate:${rpcId}:${tier}`, ESCALATION_LEASE_MS);
    // One round trip less per message: the news leaves Redis with the write instead of after its reply.
    this.#storeAnnounces = bus.announcement !== undefined && bus.publishesOn !== undefined && deps.store.announcesOn === bus.publishesOn;
  }

  announcement(message: QuestionBusAnnouncementMessage): BusAnnouncement | undefined {
    if (!this.#storeAnnounces) return undefined;
    try {
      return this.bus.announcement!(message);
    } catch (error) {
      // Publishing after the write still works; only the saving of a round trip is lost.
      this.deps.logger.error('could not prepare a bus message for the store to publish; publishing it after the write instead', { type: message.type, error: String(error) });
      return undefined;
    }
  }

  publish(message: OutgoingBusMessage): void {
    // A lost message is repaired by the other nodes' next reconcile.
    this.deps.work.track(
      this.bus.publish({ ...message, from: this.nodeId }).then(undefined, (error: unknown) =>
        this.deps.logger.error('could not tell the other nodes; they catch up at their next reconcile', { type: message.type, rpcId: message.record.rpcId, error: String(error) }),
      ),
    );
  }

  askedHere(record: QuestionRecord): boolean {
    return record.askedOn === this.nodeId;
  }

  askedElsewhere(record: QuestionRecord): boolean {
    return record.askedOn !== undefined && record.askedOn !== this.nodeId;
  }

  /**
   * A node seen alive in the last `NODE_SEEN_ALIVE_MS` counts as alive without asking the bus again:
   * a node answering a stream of another node's questions asks once a second, not once per answer.
   * Only "alive" is remembered, and it only ever defers a resume (the asker's node takes the answer,
   * or a reconcile after the window hands it to onResume); "gone" is asked afresh every time.
   */
  async isNodeAlive(nodeId: string): Promise<boolean> {
    const seenUntil = this.#seenAlive.get(nodeId);
    if (seenUntil !== undefined && performance.now() < seenUntil) return true;
    const asked = performance.now();
    const alive = await this.bus.isNodeAlive(nodeId);
    if (alive) this.#seenAlive.set(nodeId, asked + NODE_SEEN_ALIVE_MS);
    else this.#seenAlive.delete(nodeId);
    return alive;
  }

  async subscribe(link: ClusterLink): Promise<void> {
    this.#link = link;
    await this.bus.subscribe({ message: (message, delivery) => this.#onMessage(message, delivery), resync: () => void this.reconcile() });
  }

  loaded(): void {
    for (const { message, sealed } of this.#heldNews.splice(0)) this.#take(message, sealed);
  }

  running(): void {
    this.#timer = setInterval(() => void this.reconcile(), this.deps.reconcileMs);
    this.#timer.unref();
    if (this.#reconcileAgain) void this.reconcile();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async drain(): Promise<void> {
    await this.#reconciling;
  }

  async close(): Promise<void> {
    try {
      await this.bus.close();
    } catch (error) {
      this.deps.logger.error('could not close the question bus', { error: String(error) });
    }
  }

  #onMessage(message: QuestionBusMessage, delivery?: QuestionBusDelivery): void {
    // Not this node's share (in flight across an unfollow): not worth a store read.
    if (this.#link?.share?.wants(message) === false) return;
    const sealed = delivery?.sealed === true;
    if (this.deps.lifecycle.state === 'loading') this.#heldNews.push({ message, sealed });
    else this.#take(message, sealed);
  }

  /** A message acted on: a sealed one as it came when it can be, anything else as the store holds it. */
  #take(message: QuestionBusMessage, sealed: boolean): void {
    if (!sealed || !this.#applySealed(message)) this.deps.work.track(this.#apply(message));
  }

  /**
   * A sealed message (a node with our key sent it, as it says) taken without reading the store:
   * an `asked` is the record as saved, a `settled` the settlement of a question this node holds.
   * False when it needs the store after all (then #apply reads it).
   */
  #applySealed(message: QuestionBusMessage): boolean {
    const { lifecycle } = this.deps;
    const news = this.#link!;
    if (lifecycle.ended) return message.type === 'asked';
    if (message.type === 'asked') {
      news.adoptPending(message.record);
      return true;
    }
    if (message.type !== 'settled') return false;
    const { rpcId, outcome, settledAt, answer, answeredBy } = message.record;
    const entry = news.pending.get(rpcId);
    // The seal covers the settlement, not the message's copy of the question: that comes from the
    // entry held here. A quorum's votes are not sealed (who decided is read from the store), and a
    // question not held here needs the store; both are judged by what this node holds.
    if (entry === undefined || outcome === undefined || quorumOf(entry.questions) !== undefined) return false;
    const record: QuestionRecord = { ...entry.record, outcome, ...(settledAt === undefined ? {} : { settledAt }), ...(answer === undefined ? {} : { answer }), ...(answeredBy === undefined ? {} : { answeredBy }) };
    news.adoptSettled(record, outcome === 'cancelled' ? message.message : undefined);
    return true;
  }

  /**
   * A bus message is a hint, not the truth: anyone who can reach Redis can publish one. Act on the
   * record as the store holds it, never on the message's copy (docs/scaling.md).
   */
  async #apply(message: QuestionBusMessage): Promise<void> {
    const { lifecycle } = this.deps;
    const news = this.#link!;
    // While closing, only news of our own askers' answers matters (below).
    if (lifecycle.ended && message.type === 'asked') return;
    const record = await this.#recordBehind(message);
    if (record === undefined) return;
    if (lifecycle.ended) {
      // Still on the bus while closing, so the others think our askers live: take their answers to onResume.
      if (this.askedHere(record) && record.outcome !== undefined && humanOutcomes.includes(record.outcome)) await news.resumeOrphans([record]);
      return;
    }
    if (message.type === 'asked') news.adoptPending(record);
    else if (message.type === 'voted') {
      // Votes only ever grow while pending; a settled record's news comes as `settled`.
      if (record.outcome === undefined) news.adoptVotes(record);
    }
    // The dismissal's words travel on the bus only: taken when the store confirms the dismissal.
    else news.adoptSettled(record, record.outcome === 'cancelled' ? message.message : undefined);
  }

  /** The store's record behind a bus message, or undefined when the store does not bear the message out. */
  async #recordBehind(message: QuestionBusMessage): Promise<QuestionRecord | undefined> {
    const { type, from } = message;
    const rpcId = message.record.rpcId;
    let record: QuestionRecord | undefined;
    try {
      record = await this.deps.store.get(rpcId);
    } catch (error) {
      this.deps.logger.error('could not read the question a bus message is about; the next reconcile catches up', { type, rpcId, from, error: String(error) });
      return undefined;
    }
    // A node saves before it publishes `asked` and claims before it publishes `settled`, so anything else was not sent by a node.
    if (record === undefined || (type === 'settled' && record.outcome === undefined)) {
      this.deps.logger.warn('ignored a bus message the store does not bear out (not published by a host node?)', { type, rpcId, from, stored: record === undefined ? 'unknown' : 'pending' });
      return undefined;
    }
    // An `asked` whose question was settled meanwhile is old news: adoptPending skips a settled record.
    return record;
  }

  /**
   * Re-read the store and repair whatever the bus lost: questions asked elsewhere come in (and are
   * shown), questions settled elsewhere go (and reach their asker here), and settled records whose
   * asker's node is gone go to the resume handler. Runs every `reconcileMs` and when the bus is back.
   */
  reconcile(): Promise<void> {
    const { lifecycle } = this.deps;
    if (lifecycle.ended) return Promise.resolve();
    if (lifecycle.state === 'loading') {
      // The start's own read of the store may predate whatever was lost: reconcile once it is done.
      this.#reconcileAgain = true;
      return Promise.resolve();
    }
    if (this.#reconciling !== undefined) {
      // The running pass may have read the store before whatever prompted this call: run once more after it.
      this.#reconcileAgain = true;
      return this.#reconciling;
    }
    this.#reconciling = (async () => {
      do {
        this.#reconcileAgain = false;
        await this.#reconcileOnce();
      } while (this.#reconcileAgain && !lifecycle.ended);
    })().finally(() => (this.#reconciling = undefined));
    return this.#reconciling;
  }

  #reconcileOnce(): Promise<void> {
    const { store, lifecycle, logger, readAwaitingResume } = this.deps;
    return reconcilePass({ store, lifecycle, logger, nodeId: this.nodeId, ...(readAwaitingResume === undefined ? {} : { readAwaitingResume }) }, this.#link!);
  }
}
