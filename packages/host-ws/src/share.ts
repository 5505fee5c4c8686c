import type { QuestionBus, QuestionBusMessage, QuestionRecord, QuestionStore, SessionSelection, UnreadableRecord } from '@askseam/store';
import type { Indexable } from './connection-index.js';
import type { BackgroundWork, Lifecycle } from './lifecycle.js';
import type { HostLogger } from './logger.js';
import type { PendingQuestion, PendingTable } from './pending.js';

/** A bus that can follow sessions (`QuestionBus.follow`/`unfollow` present). */
export type FollowingBus = QuestionBus & Required<Pick<QuestionBus, 'follow' | 'unfollow'>>;

export function canFollow(bus: QuestionBus | undefined): bus is FollowingBus {
  return typeof bus?.follow === 'function' && typeof bus.unfollow === 'function';
}

/** What the share reads and changes of the rest of the host. */
export interface ShareDeps {
  bus: FollowingBus;
  store: QuestionStore;
  pending: PendingTable;
  /** Whether a blocking asker of this rpcId waits in this process (its question is held for it). */
  asksHere: (rpcId: string) => boolean;
  /** Add a stored pending question to the table and show it to this node's subscribers of its session. */
  adoptPending: (record: QuestionRecord) => void;
  onUnreadable: (record: UnreadableRecord) => void;
  lifecycle: Lifecycle;
  work: BackgroundWork;
  logger: HostLogger;
  /**
   * Hold every question anyway (follow `'*'` for the host's whole life): a host with a `route`
   * escalates tiers on timers, and a routed question nobody is connected for must still escalate.
   */
  everything: boolean;
}

/** What a subscriber that may see any session counts under: it needs every session's questions. */
const ALL = '*';

/**
 * This node's share of the cluster's pending questions (`holds: 'share'`, docs/scaling.md): the
 * questions of the sessions its subscribers may see, and of the askers waiting in it. A session's
 * first subscriber makes the node follow the session on the bus and read its pending questions from
 * the store; its last one leaving makes the node unfollow and forget them. A subscriber that may see
 * any session (a token, anonymous, a principal without an exhaustive session list, most channels)
 * makes the node follow `'*'` and hold everything while it stays.
 */
export class Share {
  /** Subscribers per followed session (`'*'`: subscribers that may see any session). */
  readonly #served = new Map<string, number>();
  /** A session's follow and first read, while in flight: a second subscriber waits for the same one. */
  readonly #loading = new Map<string, Promise<void>>();
  /** The last follow or unfollow of a session, while in flight: the next one waits for it. */
  readonly #steps = new Map<string, Promise<void>>();
  /** Sessions served whose follow failed (the bus was away): the next reconcile follows them again. */
  readonly #followFailed = new Set<string>();

  constructor(private readonly deps: ShareDeps) {}

  /**
   * Before the store is read at start: with `everything`, follow `'*'` (a throw fails the start);
   * otherwise follow nothing yet, so the bus sends only news of this node's askers from now on.
   */
  async start(): Promise<void> {
    if (this.deps.everything) await this.deps.bus.follow(ALL);
    else await this.deps.bus.unfollow(ALL);
  }

  /** What the start reads of the store's pending questions: everything, or nothing (no subscriber yet). */
  get startSelection(): SessionSelection {
    return this.deps.everything ? 'all' : [];
  }

  /** True when this node holds the questions of `sessionId` (a subscriber here may see it). */
  serves(sessionId: string): boolean {
    return this.deps.everything || this.#served.has(ALL) || this.#served.has(sessionId);
  }

  /** Whether this node keeps `entry`: its session is served, its asker waits here, or it is still being saved here. */
  keeps(entry: PendingQuestion): boolean {
    return !entry.saved || this.serves(entry.sessionId) || this.deps.asksHere(entry.rpcId);
  }

  /**
   * Whether a bus message is for this node's share, before any store read is spent on it. A bus
   * that follows sessions sends little else; this covers a message in flight across an unfollow.
   */
  wants(message: QuestionBusMessage): boolean {
    if (this.serves(message.record.sessionId)) return true;
    if (message.type !== 'settled') return false;
    return message.record.askedOn === this.deps.bus.nodeId || this.deps.pending.get(message.record.rpcId) !== undefined || this.deps.asksHere(message.record.rpcId);
  }

  /**
   * The sessions a reconcile lists pending questions of; undefined when there are none. A session
   * whose first read is still on its way is left out: that read brings its questions (it follows
   * the session first), and a reconcile listing it meanwhile would read each of them again, one by one.
   */
  selection(): SessionSelection | undefined {
    if (this.deps.everything || (this.#served.has(ALL) && !this.#loading.has(ALL))) return 'all';
    const sessions = [...this.#served.keys()].filter((key) => key !== ALL && !this.#loading.has(key));
    return sessions.length === 0 ? undefined : sessions;
  }

  /**
   * A subscriber arrived: count it under the sessions it may see. Resolves once the node holds
   * those sessions' questions (followed, read from the store); undefined when it already does, so
   * the subscriber can be greeted at once.
   */
  hold(subscriber: Indexable): Promise<void> | undefined {
    if (this.deps.everything) return undefined;
    const waits: Promise<void>[] = [];
    for (const key of keysOf(subscriber)) {
      const count = this.#served.get(key) ?? 0;
      this.#served.set(key, count + 1);
      let loading = this.#loading.get(key);
      if (count === 0) {
        const load = this.#inOrder(key, () => this.#load(key));
        this.#loading.set(key, load);
        void load.finally(() => {
          if (this.#loading.get(key) === load) this.#loading.delete(key);
        });
        loading = load;
      }
      if (loading !== undefined) waits.push(loading);
    }
    if (waits.length === 0) return undefined;
    return Promise.all(waits).then(() => undefined);
  }

  /** A subscriber left: a session nobody here may see any longer is unfollowed and its questions forgotten. */
  release(subscriber: Indexable): void {
    if (this.deps.everything) return;
    for (const key of keysOf(subscriber)) {
      const count = (this.#served.get(key) ?? 0) - 1;
      if (count > 0) {
        this.#served.set(key, count);
        continue;
      }
      this.#served.delete(key);
      this.#followFailed.delete(key);
      // Closing: the bus goes with the host, and the askers were let go already.
      if (this.deps.lifecycle.ended) continue;
      // After the session's load, and only if nobody came back meanwhile. A failed unfollow costs
      // only news this node then drops (`wants`), never a wrong answer.
      void this.#inOrder(key, async () => {
        if (this.#served.has(key)) return;
        await this.deps.bus.unfollow(key).then(undefined, (error: unknown) => this.deps.logger.warn('could not unfollow a session on the bus; its news is dropped here', { sessionId: key, error: String(error) }));
      });
      this.trim(key === ALL ? undefined : key);
    }
  }

  /** Forget the questions this node no longer keeps (of one session, or of all). Not a settlement: they stay pending in the store. */
  trim(sessionId?: string): void {
    const { pending } = this.deps;
    // All of them without a copy or a sort (after each reconcile, tens of thousands on a big node).
    const entries = sessionId === undefined ? pending.values() : pending.ofSessions([sessionId]);
    for (const entry of entries) if (!this.keeps(entry)) pending.forget(entry);
  }

  /**
   * An answer arrived for a question this node does not hold (the HTTP API, a link, a socket racing
   * the replay): one store read, and a question the store holds pending is added, to be judged and
   * claimed as usual. `added` means the caller trims it again after judging; `unreadable` means the
   * store could not be read, so nobody can tell whether the question is pending (the caller says
   * "send it again", never "not pending").
   */
  async visit(rpcId: string): Promise<'added' | 'absent' | 'unreadable'> {
    const { store, pending, logger } = this.deps;
    let record: QuestionRecord | undefined;
    try {
      record = await store.get(rpcId);
    } catch (error) {
      logger.error('could not read a question an answer was sent for; the sender is asked to send it again', { rpcId, error: String(error) });
      return 'unreadable';
    }
    if (record === undefined || record.outcome !== undefined || pending.get(rpcId) !== undefined) return 'absent';
    this.deps.adoptPending(record);
    return pending.get(rpcId) !== undefined ? 'added' : 'absent';
  }

  /** After judging a question `visit` added: forget it again unless this node keeps it. */
  letGo(rpcId: string): void {
    const entry = this.deps.pending.get(rpcId);
    if (entry !== undefined && !this.keeps(entry)) this.deps.pending.forget(entry);
  }

  /** After each reconcile: forget what this node no longer keeps, and follow again what could not be followed. */
  async afterReconcile(): Promise<void> {
    this.trim();
    await this.refollow();
  }

  /** At each reconcile: follow again what could not be followed (the bus was away). */
  async refollow(): Promise<void> {
    for (const key of [...this.#followFailed]) {
      if (!this.#served.has(key)) continue;
      try {
        await this.deps.bus.follow(key);
        this.#followFailed.delete(key);
      } catch (error) {
        this.deps.logger.error('could not follow a session on the bus; trying again at the next reconcile', { sessionId: key, error: String(error) });
      }
    }
  }

  /**
   * Run `step` after the session's earlier follows and unfollows: the bus's last word on a session
   * is always the last one this node meant. `step` never rejects.
   */
  #inOrder(key: string, step: () => Promise<void>): Promise<void> {
    const next = (this.#steps.get(key) ?? Promise.resolve()).then(step);
    this.#steps.set(key, next);
    void next.finally(() => {
      if (this.#steps.get(key) === next) this.#steps.delete(key);
    });
    this.deps.work.track(next);
    return next;
  }

  /** Follow a session (or `'*'`), then read its pending questions: news after the follow is not missed. */
  async #load(key: string): Promise<void> {
    const { bus, store, logger, lifecycle } = this.deps;
    try {
      await bus.follow(key);
    } catch (error) {
      this.#followFailed.add(key);
      logger.error('could not follow a session on the bus; the next reconcile tries again', { sessionId: key, error: String(error) });
    }
    let records: QuestionRecord[];
    try {
      records = await store.listPending(key === ALL ? 'all' : [key], { onUnreadable: this.deps.onUnreadable });
    } catch (error) {
      // The subscriber is greeted with what is held; the next reconcile reads the session again.
      logger.error('could not read a session\'s pending questions; the next reconcile catches up', { sessionId: key, error: String(error) });
      return;
    }
    if (lifecycle.ended) return;
    // A subscriber that left meanwhile leaves nothing behind.
    for (const record of records) if (this.serves(record.sessionId)) this.deps.adoptPending(record);
  }
}

/** The sessions a subscriber counts under: its exhaustive list, or `'*'` when it may see any session. */
function keysOf(subscriber: Indexable): string[] {
  return subscriber.scope === undefined ? [ALL] : [...new Set(subscriber.scope)];
}
