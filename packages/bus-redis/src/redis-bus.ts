import {
  OutageGrace,
  QuestionStoreError,
  questionBusMessageSchema,
  type QuestionBus,
  type BusSealFacts,
  type QuestionBusAnnouncementMessage,
  type QuestionBusListener,
  type QuestionBusMessage,
} from '@askseam/store';
import { describeTarget, publisherName, recommendedClusterOptions, sessionChannel, type RedisBusAnnouncement } from '@askseam/store-redis';
import { Cluster, Redis, type ClusterNode, type ClusterOptions, type RedisOptions } from 'ioredis';
import { aliveKey, closedError, ownMessageStarts, quit, safeLogger, settledConnecting } from './helpers.js';
import { BusSeal, sealedText, sealedTextOf, splitSeal } from './seal.js';

/** Where the bus reports what it cannot throw: unreadable messages, lost connections, a failing listener. */
export interface RedisQuestionBusLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface RedisQuestionBusOptions {
  /**
   * A client the app made, a `Redis` or a `Cluster`. The bus sends its commands on it and never
   * closes it; it opens one more client of its own for pub/sub (`client.duplicate()`; for a
   * Cluster one with `shardedSubscribers`), which it does close. Give it `enableOfflineQueue:
   * false` (or `recommendedClusterOptions`) so that calls fail at once while Redis is unreachable.
   */
  client?: Redis | Cluster;
  /** Connect to this URL (`redis://host:port/db`) with clients the bus owns and closes. Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Connect to the Redis Cluster with these nodes, with clients the bus owns and closes. */
  nodes?: readonly (string | ClusterNode)[];
  /** Prefix of every channel and key, so that several apps can share one Redis. Without `{` or `}`. Default `askseam:`. */
  keyPrefix?: string;
  /** This node's id, unique on the bus. Default: a random UUID. */
  nodeId?: string;
  /** Default: silent. `console` fits. */
  logger?: RedisQuestionBusLogger;
  /**
   * How long this node counts as alive after its last liveness refresh (a key it sets every third of
   * this on the command connection), besides while it is subscribed. It keeps a node whose
   * subscriber connection is cut for a moment alive in the eyes of the others; a killed node counts
   * as gone at most this long after it died. Whole milliseconds, at least 100. Default 10 000.
   */
  livenessTtlMs?: number;
  /**
   * A secret every node of the app shares (at least 32 bytes: `crypto.randomBytes(32)`). With it
   * this node seals its `asked` and `settled` (an HMAC after the JSON), and a message whose seal
   * verifies is delivered `{ sealed: true }`: the host then shows the question, or hands the answer
   * to its asker, without reading the store first (two fewer Redis round trips per cross-node
   * answer). Anything else (no seal, a wrong one, a node without the key) stays a hint the host
   * checks against the store. Give all nodes the same key; docs/scaling.md, "Sealed news".
   */
  sealKey?: string | Uint8Array;
}

const defaultLivenessTtlMs = 10_000;
/** How often a Cluster subscriber re-reads the slot map, so a moved session channel is followed again. */
const slotsRefreshMs = 2_000;

/** How long a node waits before subscribing again after Redis refused it on a live connection. */
const RESUBSCRIBE_RETRY_MS = 1_000;

// Fail fast while Redis is unreachable (no offline queue, no retry of a command cut off mid-flight),
// but let ioredis keep reconnecting by itself so the node comes back without help.
const failFast: RedisOptions = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 };
const clusterFailFast: ClusterOptions = { ...recommendedClusterOptions, lazyConnect: true };

const noop = () => {};

/** The master with the lowest address: the same one for every publish of this process (and every process). */
function firstMaster(cluster: Cluster): Redis | Cluster {
  const name = (node: Redis) => `${node.options.host}:${node.options.port}`;
  return cluster.nodes('master').sort((a, b) => name(a).localeCompare(name(b)))[0] ?? cluster;
}
const silentLogger: RedisQuestionBusLogger = { warn: noop, error: noop };

/**
 * A `QuestionBus` on Redis pub/sub, on one Redis or a Redis Cluster. Every message is JSON. It goes
 * to `<prefix>bus` (heard by every node that never followed, or follows `'*'`), to its session's
 * channel `sessionChannel(<prefix>, sessionId)` with `SPUBLISH` (a shard channel in the slot of the
 * session's store keys: on a Cluster only the master of that slot carries it), and a `settled` also
 * to `<prefix>node:<askedOn>`, the asking node's channel. Once a node follows sessions it listens
 * only to their channels and its own, so its traffic grows with its share. Each node keeps the key
 * `<prefix>alive:<nodeId>` fresh and, on one Redis, is also alive while Redis counts a subscriber
 * on its channel (a cut subscriber connection alone does not make a live node look dead). Leases
 * are `SET <prefix>lease:<key> NX PX`. While Redis is unreachable every call rejects at once with
 * `QuestionStoreError('STORE_UNAVAILABLE')`; when the connection comes back the listener is told
 * to `resync`, since what was published meanwhile is lost.
 */
export class RedisQuestionBus implements QuestionBus {
  readonly nodeId: string;
  readonly keyPrefix: string;
  /**
   * The Redis this bus publishes on (`redis://host:port/db`, `redis-cluster://…`): a
   * `RedisQuestionStore` whose `announcesOn` is the same publishes this node's `asked` and
   * `settled` inside its writes. Undefined for a client whose commands ioredis rewrites (its own
   * `keyPrefix`) or Sentinel.
   */
  readonly publishesOn: string | undefined;
  readonly #client: Redis | Cluster;
  readonly #ownsClient: boolean;
  readonly #logger: RedisQuestionBusLogger;
  readonly #busChannel: string;
  readonly #nodeChannel: string;
  readonly #aliveKey: string;
  /** How this node's own messages start as `publish` writes them: every node hears itself, and drops those unparsed. */
  readonly #ownMessageStarts: readonly string[];
  readonly #livenessTtlMs: number;
  #livenessTimer: NodeJS.Timeout | undefined;
  /** With a `sealKey`: seals this node's news and checks the others'. */
  readonly #seal: BusSeal | undefined;
  /** Whether this node was cut off long enough lately that it must not take another for gone yet. */
  readonly #outage: OutageGrace;
  /** A re-subscribe refused on a live connection, tried again after `RESUBSCRIBE_RETRY_MS`. */
  #resubscribeTimer: NodeJS.Timeout | undefined;
  #subscriber: Redis | Cluster | undefined;
  #listener: QuestionBusListener | undefined;
  /** Once follow or unfollow was called: news by session (the sets below), no longer everything. */
  #bySession = false;
  #followsAll = false;
  /** Followed sessions by their channel. */
  readonly #followed = new Map<string, string>();
  /** follow/unfollow one after another, so the subscriptions always end as the last call left them. */
  #changes: Promise<unknown> = Promise.resolve();
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: RedisQuestionBusOptions = {}) {
    if ([options.client, options.url, options.nodes].filter((value) => value !== undefined).length > 1) {
      throw new QuestionStoreError('INVALID_INPUT', 'RedisQuestionBus takes one of `client`, `url` or `nodes`, not several.');
    }
    const nodeId = options.nodeId ?? globalThis.crypto.randomUUID();
    if (typeof nodeId !== 'string' || nodeId === '') throw new QuestionStoreError('INVALID_INPUT', 'RedisQuestionBus: `nodeId` must be a non-empty string (or left out for a random one).');
    const livenessTtlMs = options.livenessTtlMs ?? defaultLivenessTtlMs;
    if (!Number.isSafeInteger(livenessTtlMs) || livenessTtlMs < 100) {
      throw new QuestionStoreError('INVALID_INPUT', `RedisQuestionBus: \`livenessTtlMs\` must be a whole number of milliseconds, at least 100, not ${String(livenessTtlMs)}.`);
    }
    const keyPrefix = options.keyPrefix ?? 'askseam:';
    if (typeof keyPrefix !== 'string' || /[{}]/.test(keyPrefix)) {
      throw new QuestionStoreError('INVALID_INPUT', `RedisQuestionBus: \`keyPrefix\` must be a string without { or } (session channels put their hash tag after it), not ${JSON.stringify(keyPrefix)}.`);
    }
    this.#seal = options.sealKey === undefined ? undefined : new BusSeal(options.sealKey);
    this.#livenessTtlMs = livenessTtlMs;
    this.#outage = new OutageGrace(livenessTtlMs);
    this.nodeId = nodeId;
    this.keyPrefix = keyPrefix;
    this.#logger = safeLogger(options.logger ?? silentLogger);
    this.#busChannel = `${this.keyPrefix}bus`;
    this.#nodeChannel = `${this.keyPrefix}node:${nodeId}`;
    this.#aliveKey = aliveKey(this.keyPrefix, nodeId);
    this.#ownMessageStarts = ownMessageStarts(nodeId);
    if (options.client !== undefined) {
      this.#client = options.client;
      this.#ownsClient = false;
    } else {
      this.#client = options.nodes !== undefined ? new Cluster([...options.nodes], clusterFailFast) : new Redis(options.url ?? 'redis://127.0.0.1:6379', failFast);
      this.#ownsClient = true;
      this.#watchConnection(this.#client, 'command');
      // Connect now, so that the first call finds the connection ready (or Redis known to be down).
      this.#client.connect().catch(noop);
    }
    this.publishesOn = publisherName(this.#client);
  }

  async subscribe(listener: QuestionBusListener): Promise<void> {
    this.#assertOpen('subscribe');
    if (this.#listener !== undefined) throw new QuestionStoreError('INVALID_INPUT', `subscribe: bus node "${this.nodeId}" already has a listener; a bus serves one host.`);
    this.#listener = listener;
    // Pub/sub takes a connection to itself: once subscribed, Redis accepts no other commands on it.
    // A Cluster's subscriber re-reads the slot map now and then: when a slot moves, its master drops
    // the shard channels of that slot, and ioredis subscribes them again on the new owner once it
    // sees the move (messages meanwhile are lost: hints, repaired by the next reconcile). On one
    // Redis, `#resubscribed` subscribes again after a reconnect, not ioredis: its own resubscribe
    // leaves a rejection unhandled when the connection drops again at once (no offline queue).
    const subscriber =
      this.#client instanceof Cluster ? this.#client.duplicate([], { ...clusterFailFast, shardedSubscribers: true, slotsRefreshInterval: slotsRefreshMs }) : this.#client.duplicate({ ...failFast, autoResubscribe: false });
    this.#subscriber = subscriber;
    this.#watchConnection(subscriber, 'subscriber');
    subscriber.on('message', (channel: string, text: string) => this.#receive(channel, text));
    subscriber.on('smessage', (channel: string, text: string) => this.#receive(channel, text));
    try {
      await subscriber.connect();
      await this.#listen(subscriber);
      // Registered as soon as the channels are ours: the first `ready` was the connection above, every
      // later one a comeback (even one during the liveness refresh below), which subscribes again.
      subscriber.on('ready', () => void this.#resubscribed(subscriber));
      subscriber.on('close', () => {
        if (this.#subscriber === subscriber) this.#outage.lost();
      });
      await this.#command('subscribe', (client) => this.#refreshLiveness(client));
    } catch (error) {
      if (this.#subscriber === subscriber) {
        this.#subscriber = undefined;
        this.#listener = undefined;
      }
      subscriber.disconnect();
      if (this.#closed) throw closedError('subscribe');
      throw this.#unavailable('subscribe', error);
    }
    if (this.#closed) throw closedError('subscribe');
    // Kept fresh from now on; a failed refresh (Redis away) is retried at the next tick and on reconnect.
    this.#livenessTimer = setInterval(
      () =>
        void this.#refreshLiveness(this.#client).then(
          () => this.#outage.reached(),
          () => this.#outage.lost(),
        ),
      Math.max(1, Math.floor(this.#livenessTtlMs / 3)),
    );
    this.#livenessTimer.unref();
    this.#client.on('ready', this.#onCommandReady);
  }

  async publish(message: QuestionBusMessage): Promise<void> {
    this.#assertOpen('publish');
    const parsed = questionBusMessageSchema.safeParse(message);
    if (!parsed.success) {
      throw new QuestionStoreError('INVALID_INPUT', `publish: not a bus message (${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ')}); nothing was sent.`);
    }
    // Serialised now, before any await: changing `message` after this call changes nothing sent.
    const { record, type } = parsed.data;
    let payload = JSON.stringify(parsed.data);
    if (this.#seal !== undefined && parsed.data.from === this.nodeId) {
      const covered = sealedTextOf(parsed.data);
      if (covered !== undefined) payload += this.#seal.suffix(covered);
    }
    await this.#command('publish', async (client) => {
      // Sent at once, one reply each: the nodes that hear everything, the session's followers, the asker.
      // On a Cluster, ioredis sends a PUBLISH to any master; one fixed master keeps one sender's
      // messages in order (while it is down, any other carries them).
      const broadcast = (channel: string) =>
        client instanceof Cluster ? firstMaster(client).publish(channel, payload).catch(() => client.publish(channel, payload)) : client.publish(channel, payload);
      const sends: Promise<unknown>[] = [broadcast(this.#busChannel), client.spublish(sessionChannel(this.keyPrefix, record.sessionId), payload)];
      if (type === 'settled' && record.askedOn !== undefined) sends.push(broadcast(`${this.keyPrefix}node:${record.askedOn}`));
      await Promise.all(sends);
    });
  }

  /**
   * The text of this node's `asked` or `settled` message around its record, for a store on the same
   * Redis to publish with its write: the record, as JSON, goes between `before` and `after`. The
   * text is what `publish` would send (same keys, same order), so every node reads it the same way,
   * and `routes` tells a `RedisQuestionStore` to send it where `publish` would (the session's
   * channel, the asking node's), from inside its script.
   */
  announcement(message: QuestionBusAnnouncementMessage): RedisBusAnnouncement {
    this.#assertOpen('announcement');
    const type: unknown = (message as { type?: unknown } | undefined)?.type;
    const text: unknown = (message as { message?: unknown } | undefined)?.message;
    if ((type !== 'asked' && type !== 'settled') || (text !== undefined && (type !== 'settled' || typeof text !== 'string'))) {
      throw new QuestionStoreError('INVALID_INPUT', 'announcement: give { type: "asked" } or { type: "settled", message?: string }; nothing was prepared.');
    }
    // Keys in the order `publish` writes them (schema order), so `#receive` knows our own either way.
    const before = `{"type":${JSON.stringify(type)},"from":${JSON.stringify(this.nodeId)},"record":`;
    const after = text === undefined ? '}' : `,"message":${JSON.stringify(text)}}`;
    const routes = { sessionPrefix: this.keyPrefix, nodePrefix: `${this.keyPrefix}node:` };
    const seal = this.#seal;
    if (seal === undefined) return { channel: this.#busChannel, before, after, routes };
    const from = this.nodeId;
    return { channel: this.#busChannel, before, after, routes, seal: (facts: BusSealFacts) => seal.suffix(sealedText(type, from, facts, text)) };
  }

  /**
   * From the first call of `follow` or `unfollow` on, this node hears a session's news only while
   * it follows it (its shard channel), its askers' `settled` (its own channel), and everything while
   * it follows `'*'`. Calls run one after another; each resolves once Redis confirmed it.
   */
  follow(sessionId: string | '*'): Promise<void> {
    return this.#change('follow', sessionId, true);
  }

  unfollow(sessionId: string | '*'): Promise<void> {
    return this.#change('unfollow', sessionId, false);
  }

  #change(operation: string, sessionId: string, on: boolean): Promise<void> {
    if (this.#closed) return Promise.reject(closedError(operation));
    if (typeof sessionId !== 'string' || sessionId === '') return Promise.reject(new QuestionStoreError('INVALID_INPUT', `${operation}: give a session id or '*', not ${JSON.stringify(sessionId)}.`));
    const step = this.#changes.then(async () => {
      this.#assertOpen(operation);
      const wasBySession = this.#bySession;
      this.#bySession = true;
      const subscriber = this.#subscriber;
      if (sessionId === '*') {
        this.#followsAll = on;
      } else if (on) {
        this.#followed.set(sessionChannel(this.keyPrefix, sessionId), sessionId);
      } else {
        this.#followed.delete(sessionChannel(this.keyPrefix, sessionId));
      }
      if (subscriber === undefined) return;
      try {
        if (sessionId !== '*') {
          const channel = sessionChannel(this.keyPrefix, sessionId);
          if (on) await subscriber.ssubscribe(channel);
          else await subscriber.sunsubscribe(channel);
        }
        // The channel of everything: kept while following '*', left at the first step to news by session.
        if (this.#followsAll) await subscriber.subscribe(this.#busChannel);
        else if (!wasBySession || sessionId === '*') await subscriber.unsubscribe(this.#busChannel);
      } catch (error) {
        if (this.#closed) throw closedError(operation);
        throw this.#unavailable(operation, error);
      }
    });
    this.#changes = step.catch(noop);
    return step;
  }

  async isNodeAlive(nodeId: string): Promise<boolean> {
    this.#assertOpen('isNodeAlive');
    if (typeof nodeId !== 'string' || nodeId === '') throw new QuestionStoreError('INVALID_INPUT', 'isNodeAlive: `nodeId` must be a non-empty string.');
    const key = aliveKey(this.keyPrefix, nodeId);
    // On a Cluster, PUBSUB NUMSUB counts the subscribers of one master only: the key alone decides.
    if (this.#client instanceof Cluster) return (await this.#command('isNodeAlive', (client) => client.exists(key))) > 0 || this.#unsureWhoIsGone();
    // Subscribed, or refreshed lately: a node whose subscriber connection is being re-made is still alive.
    // Both questions in one write and one round trip: each write wakes Redis once (docs/performance.md).
    const [subscribers, fresh] = await this.#command('isNodeAlive', async (client) => {
      const replies = await client.pipeline().pubsub('NUMSUB', `${this.keyPrefix}node:${nodeId}`).exists(key).exec();
      if (replies === null) throw new Error('the connection closed before Redis answered');
      for (const [error] of replies) if (error) throw error;
      return [replies[0]![1] as unknown[], replies[1]![1] as number] as const;
    });
    return Number(subscribers[1]) > 0 || fresh > 0 || this.#unsureWhoIsGone();
  }

  /**
   * Cut off lately ourselves (OutageGrace): a node whose key expired meanwhile may have been cut off
   * with us. A node that closed during the grace counts as alive until it ends (its key is gone
   * either way), which only defers its answers' resume.
   */
  #unsureWhoIsGone(): boolean {
    return this.#outage.active;
  }

  async acquireLease(key: string, ttlMs: number): Promise<boolean> {
    this.#assertOpen('acquireLease');
    if (typeof key !== 'string' || key === '') throw new QuestionStoreError('INVALID_INPUT', 'acquireLease: `key` must be a non-empty string.');
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new QuestionStoreError('INVALID_INPUT', `acquireLease: \`ttlMs\` must be a positive number of milliseconds, not ${ttlMs}.`);
    const reply = await this.#command('acquireLease', (client) => client.set(`${this.keyPrefix}lease:${key}`, this.nodeId, 'PX', Math.ceil(ttlMs), 'NX'));
    return reply === 'OK';
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#closed = true;
    this.#listener = undefined;
    clearInterval(this.#livenessTimer);
    clearTimeout(this.#resubscribeTimer);
    this.#client.off('ready', this.#onCommandReady);
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber !== undefined) {
      // Gone at once for the others, not after the key's ttl (if Redis is away, the ttl ends it).
      if (this.#client.status === 'ready') await this.#client.del(this.#aliveKey).catch(noop);
      // Its message and ready handlers check #listener and #subscriber, so they go quiet from here on.
      // Unsubscribe and wait for Redis to confirm: from then on every node sees this one as not alive.
      await quit(subscriber, { subscriber: true });
    }
    if (this.#ownsClient) await quit(this.#client, { subscriber: false });
  }

  /** Subscribe to what this node hears now: its own channel, the channel of everything unless it follows by session, each followed session. */
  async #listen(subscriber: Redis | Cluster): Promise<void> {
    await subscriber.subscribe(...(!this.#bySession || this.#followsAll ? [this.#busChannel] : []), this.#nodeChannel);
    // One channel per call: on a Cluster each may live on another master.
    for (const channel of this.#followed.keys()) await subscriber.ssubscribe(channel);
  }

  #receive(channel: string, text: string): void {
    const listener = this.#listener;
    if (listener === undefined) return;
    // Each message reaches a node by one road: the channel of everything while it hears everything,
    // else its sessions' channels and (for its askers' settled) its own.
    const everything = !this.#bySession || this.#followsAll;
    const bySession = this.#followed.has(channel);
    const toAsker = channel === this.#nodeChannel;
    if (channel === this.#busChannel ? !everything : everything || (!bySession && !toAsker)) return;
    // Our own message back from Redis: dropped before the JSON parse and the schema check, which
    // would otherwise run on every node's critical path once per message it sends.
    if (this.#ownMessageStarts.some((start) => text.startsWith(start))) return;
    const { json, seal } = splitSeal(text);
    let data: unknown;
    try {
      data = JSON.parse(json);
    } catch {
      this.#logger.warn('RedisQuestionBus dropped a message that is not JSON', { channel, size: text.length });
      return;
    }
    const parsed = questionBusMessageSchema.safeParse(data);
    if (!parsed.success) {
      this.#logger.warn('RedisQuestionBus dropped a message that is not a bus message', { channel, issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) });
      return;
    }
    if (parsed.data.from === this.nodeId) return;
    // On this node's own channel only its askers' settled counts (anyone may publish there).
    if (toAsker && !bySession && (parsed.data.type !== 'settled' || parsed.data.record.askedOn !== this.nodeId)) return;
    if (bySession && this.#followed.get(channel) !== parsed.data.record.sessionId) return;
    const sealed = this.#sealed(data as QuestionBusMessage, seal);
    try {
      listener.message(parsed.data, { sealed });
    } catch (error) {
      this.#logger.error('The bus listener threw on a message', { type: parsed.data.type, rpcId: parsed.data.record.rpcId, error: String(error) });
    }
  }

  /**
   * Whether a message's seal is our key's MAC of what it says, recomputed from its JSON as parsed
   * (before the schema rebuilt it: the sender's record text comes back only from that). A wrong
   * seal leaves the message a hint, like one without: it is checked against the store.
   */
  #sealed(raw: QuestionBusMessage, seal: string | undefined): boolean {
    if (this.#seal === undefined || seal === undefined) return false;
    const covered = sealedTextOf(raw);
    if (covered !== undefined && this.#seal.verifies(covered, seal)) return true;
    this.#logger.warn('RedisQuestionBus received a message whose seal does not verify (another key, or forged); treating it as a hint', { type: raw.type, from: raw.from });
    return false;
  }

  /** The subscriber connection is back: make sure Redis has our channels again, then tell the listener. */
  async #resubscribed(subscriber: Redis | Cluster): Promise<void> {
    try {
      // Waiting for our SUBSCRIBE's reply proves Redis has processed it, so a resync started now
      // cannot miss a message published after it (on a Cluster, ioredis has subscribed again too).
      await this.#listen(subscriber);
    } catch (error) {
      this.#logger.warn('RedisQuestionBus could not resubscribe after a reconnect', { nodeId: this.nodeId, error: String(error) });
      // Dropped again before it settled: the next `ready` tries again. Refused on a live connection
      // (an ACL that no longer allows the channel): no `ready` will come, so try again in a while.
      if (!this.#closed && this.#subscriber === subscriber && subscriber.status === 'ready') {
        this.#resubscribeTimer = setTimeout(() => void this.#resubscribed(subscriber), RESUBSCRIBE_RETRY_MS);
        this.#resubscribeTimer.unref();
      }
      return;
    }
    const listener = this.#listener;
    if (this.#closed || this.#subscriber !== subscriber || listener === undefined) return;
    this.#outage.reached();
    this.#logger.warn('RedisQuestionBus is connected again; resyncing', { nodeId: this.nodeId });
    try {
      listener.resync();
    } catch (error) {
      this.#logger.error('The bus listener threw on resync', { error: String(error) });
    }
  }

  /** Mark this node alive for the next `livenessTtlMs`. */
  #refreshLiveness(client: Redis | Cluster): Promise<unknown> {
    return client.set(this.#aliveKey, '1', 'PX', this.#livenessTtlMs);
  }

  /** The command connection is back (after an outage): refresh at once rather than at the next tick. */
  readonly #onCommandReady = (): void => {
    if (!this.#closed) void this.#refreshLiveness(this.#client).catch(noop);
  };

  /** Run one command on the command connection, failing at once (STORE_UNAVAILABLE) if Redis cannot be reached. */
  async #command<T>(operation: string, run: (client: Redis | Cluster) => Promise<T>): Promise<T> {
    const client = this.#client;
    // The ready path runs `run` synchronously, so calls made back to back reach Redis in call order.
    if (client.status !== 'ready') {
      if (!(await settledConnecting(client))) {
        if (this.#closed) throw closedError(operation);
        this.#outage.lost();
        throw this.#unavailable(operation, new Error(`the connection is ${client.status}`));
      }
      this.#assertOpen(operation);
    }
    try {
      const result = await run(client);
      this.#outage.reached();
      return result;
    } catch (error) {
      if (this.#closed) throw closedError(operation);
      this.#outage.lost();
      throw this.#unavailable(operation, error);
    }
  }

  #unavailable(operation: string, cause: unknown): QuestionStoreError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new QuestionStoreError('STORE_UNAVAILABLE', `${operation}: Redis at ${describeTarget(this.#client)} could not be reached (${reason}); nothing was sent. The bus reconnects by itself: retry once Redis is back.`, { cause });
  }

  #assertOpen(operation: string): void {
    if (this.#closed) throw closedError(operation);
  }

  /** Log a lost connection once per outage (ioredis reports every failed reconnect attempt). */
  #watchConnection(client: Redis | Cluster, role: 'command' | 'subscriber'): void {
    let down = false;
    client.on('error', (error: Error) => {
      if (down || this.#closed) return;
      down = true;
      this.#logger.warn(`RedisQuestionBus lost its ${role} connection; reconnecting`, { nodeId: this.nodeId, error: error.message });
    });
    client.on('ready', () => {
      down = false;
    });
  }
}
