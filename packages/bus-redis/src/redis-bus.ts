import {
  QuestionStoreError,
  questionBusMessageSchema,
  redisServerName,
  type BusAnnouncement,
  type QuestionBus,
  type QuestionBusAnnouncementMessage,
  type QuestionBusListener,
  type QuestionBusMessage,
} from '@askseam/store';
import { Redis, type RedisOptions } from 'ioredis';

/** Where the bus reports what it cannot throw: unreadable messages, lost connections, a failing listener. */
export interface RedisQuestionBusLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface RedisQuestionBusOptions {
  /**
   * A client the app made. The bus sends its commands on it and never closes it; it opens one more
   * connection of its own for pub/sub (`client.duplicate()`), which it does close. Give it
   * `enableOfflineQueue: false` so that calls fail at once while Redis is unreachable.
   */
  client?: Redis;
  /** Connect to this URL (`redis://host:port/db`) with clients the bus owns and closes. Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Prefix of every channel and key, so that several apps can share one Redis. Default `askseam:`. */
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
}

const defaultLivenessTtlMs = 10_000;

// Fail fast while Redis is unreachable (no offline queue, no retry of a command cut off mid-flight),
// but let ioredis keep reconnecting by itself so the node comes back without help.
const failFast: RedisOptions = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 };

const noop = () => {};
const silentLogger: RedisQuestionBusLogger = { warn: noop, error: noop };

/**
 * A `QuestionBus` on Redis pub/sub. Every message is JSON on the channel `<prefix>bus`; each
 * node also subscribes to `<prefix>node:<nodeId>` and keeps the key `<prefix>alive:<nodeId>` fresh,
 * so a node is alive while Redis counts a subscriber there or that key has not expired (a cut
 * subscriber connection alone does not make a live node look dead). Leases
 * are `SET <prefix>lease:<key> NX PX`. While Redis is unreachable every call rejects at once with
 * `QuestionStoreError('STORE_UNAVAILABLE')`; when the connection comes back the listener is told
 * to `resync`, since what was published meanwhile is lost.
 */
export class RedisQuestionBus implements QuestionBus {
  readonly nodeId: string;
  readonly keyPrefix: string;
  /**
   * The Redis this bus publishes on (`redis://host:port/db`): a `RedisQuestionStore` whose
   * `announcesOn` is the same publishes this node's `asked` and `settled` inside its writes.
   * Undefined for a client whose commands ioredis rewrites (its own `keyPrefix`) or Sentinel.
   */
  readonly publishesOn: string | undefined;
  readonly #client: Redis;
  readonly #ownsClient: boolean;
  readonly #logger: RedisQuestionBusLogger;
  readonly #busChannel: string;
  readonly #nodeChannel: string;
  readonly #aliveKey: string;
  /** How this node's own messages start as `publish` writes them: every node hears itself, and drops those unparsed. */
  readonly #ownMessageStarts: readonly string[];
  readonly #livenessTtlMs: number;
  #livenessTimer: NodeJS.Timeout | undefined;
  #subscriber: Redis | undefined;
  #listener: QuestionBusListener | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: RedisQuestionBusOptions = {}) {
    if (options.client !== undefined && options.url !== undefined) {
      throw new QuestionStoreError('INVALID_INPUT', 'RedisQuestionBus takes either `client` or `url`, not both.');
    }
    const nodeId = options.nodeId ?? globalThis.crypto.randomUUID();
    if (typeof nodeId !== 'string' || nodeId === '') throw new QuestionStoreError('INVALID_INPUT', 'RedisQuestionBus: `nodeId` must be a non-empty string (or left out for a random one).');
    const livenessTtlMs = options.livenessTtlMs ?? defaultLivenessTtlMs;
    if (!Number.isSafeInteger(livenessTtlMs) || livenessTtlMs < 100) {
      throw new QuestionStoreError('INVALID_INPUT', `RedisQuestionBus: \`livenessTtlMs\` must be a whole number of milliseconds, at least 100, not ${String(livenessTtlMs)}.`);
    }
    this.#livenessTtlMs = livenessTtlMs;
    this.nodeId = nodeId;
    this.keyPrefix = options.keyPrefix ?? 'askseam:';
    this.#logger = safeLogger(options.logger ?? silentLogger);
    this.#busChannel = `${this.keyPrefix}bus`;
    this.#nodeChannel = `${this.keyPrefix}node:${nodeId}`;
    this.#aliveKey = aliveKey(this.keyPrefix, nodeId);
    this.#ownMessageStarts = ownMessageStarts(nodeId);
    if (options.client !== undefined) {
      this.#client = options.client;
      this.#ownsClient = false;
    } else {
      this.#client = new Redis(options.url ?? 'redis://127.0.0.1:6379', failFast);
      this.#ownsClient = true;
      this.#watchConnection(this.#client, 'command');
      // Connect now, so that the first call finds the connection ready (or Redis known to be down).
      this.#client.connect().catch(noop);
    }
    this.publishesOn = redisServerName(this.#client.options);
  }

  async subscribe(listener: QuestionBusListener): Promise<void> {
    this.#assertOpen('subscribe');
    if (this.#listener !== undefined) throw new QuestionStoreError('INVALID_INPUT', `subscribe: bus node "${this.nodeId}" already has a listener; a bus serves one host.`);
    this.#listener = listener;
    // Pub/sub takes a connection to itself: once subscribed, Redis accepts no other commands on it.
    const subscriber = this.#client.duplicate(failFast);
    this.#subscriber = subscriber;
    this.#watchConnection(subscriber, 'subscriber');
    subscriber.on('message', (channel: string, text: string) => this.#receive(channel, text));
    try {
      await subscriber.connect();
      await subscriber.subscribe(this.#busChannel, this.#nodeChannel);
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
    this.#livenessTimer = setInterval(() => void this.#refreshLiveness(this.#client).catch(noop), Math.max(1, Math.floor(this.#livenessTtlMs / 3)));
    this.#livenessTimer.unref();
    this.#client.on('ready', this.#onCommandReady);
    // Registered only now: the first `ready` was the connection above, every later one is a comeback.
    subscriber.on('ready', () => void this.#resubscribed(subscriber));
  }

  async publish(message: QuestionBusMessage): Promise<void> {
    this.#assertOpen('publish');
    const parsed = questionBusMessageSchema.safeParse(message);
    if (!parsed.success) {
      throw new QuestionStoreError('INVALID_INPUT', `publish: not a bus message (${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ')}); nothing was sent.`);
    }
    // Serialised now, before any await: changing `message` after this call changes nothing sent.
    const payload = JSON.stringify(parsed.data);
    await this.#command('publish', (client) => client.publish(this.#busChannel, payload));
  }

  /**
   * The text of this node's `asked` or `settled` message around its record, for a store on the same
   * Redis to publish with its write: the record, as JSON, goes between `before` and `after`. The
   * text is what `publish` would send (same keys, same order), so every node reads it the same way.
   */
  announcement(message: QuestionBusAnnouncementMessage): BusAnnouncement {
    this.#assertOpen('announcement');
    const type: unknown = (message as { type?: unknown } | undefined)?.type;
    const text: unknown = (message as { message?: unknown } | undefined)?.message;
    if ((type !== 'asked' && type !== 'settled') || (text !== undefined && (type !== 'settled' || typeof text !== 'string'))) {
      throw new QuestionStoreError('INVALID_INPUT', 'announcement: give { type: "asked" } or { type: "settled", message?: string }; nothing was prepared.');
    }
    // Keys in the order `publish` writes them (schema order), so `#receive` knows our own either way.
    const before = `{"type":${JSON.stringify(type)},"from":${JSON.stringify(this.nodeId)},"record":`;
    const after = text === undefined ? '}' : `,"message":${JSON.stringify(text)}}`;
    return { channel: this.#busChannel, before, after };
  }

  async isNodeAlive(nodeId: string): Promise<boolean> {
    this.#assertOpen('isNodeAlive');
    if (typeof nodeId !== 'string' || nodeId === '') throw new QuestionStoreError('INVALID_INPUT', 'isNodeAlive: `nodeId` must be a non-empty string.');
    // Subscribed, or refreshed lately: a node whose subscriber connection is being re-made is still alive.
    // Both questions in one write and one round trip: each write wakes Redis once (docs/performance.md).
    const [subscribers, fresh] = await this.#command('isNodeAlive', async (client) => {
      const replies = await client.pipeline().pubsub('NUMSUB', `${this.keyPrefix}node:${nodeId}`).exists(aliveKey(this.keyPrefix, nodeId)).exec();
      if (replies === null) throw new Error('the connection closed before Redis answered');
      for (const [error] of replies) if (error) throw error;
      return [replies[0]![1] as unknown[], replies[1]![1] as number] as const;
    });
    return Number(subscribers[1]) > 0 || fresh > 0;
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

  #receive(channel: string, text: string): void {
    const listener = this.#listener;
    if (channel !== this.#busChannel || listener === undefined) return;
    // Our own message back from Redis: dropped before the JSON parse and the schema check, which
    // would otherwise run on every node's critical path once per message it sends.
    if (this.#ownMessageStarts.some((start) => text.startsWith(start))) return;
    let data: unknown;
    try {
      data = JSON.parse(text);
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
    try {
      listener.message(parsed.data);
    } catch (error) {
      this.#logger.error('The bus listener threw on a message', { type: parsed.data.type, rpcId: parsed.data.record.rpcId, error: String(error) });
    }
  }

  /** The subscriber connection is back: make sure Redis has our channels again, then tell the listener. */
  async #resubscribed(subscriber: Redis): Promise<void> {
    try {
      // ioredis resubscribes by itself before this; waiting for our own SUBSCRIBE's reply proves Redis
      // has processed that, so a resync started now cannot miss a message published after it.
      await subscriber.subscribe(this.#busChannel, this.#nodeChannel);
    } catch (error) {
      // Dropped again before it settled: the next `ready` tries again.
      this.#logger.warn('RedisQuestionBus could not resubscribe after a reconnect', { nodeId: this.nodeId, error: String(error) });
      return;
    }
    const listener = this.#listener;
    if (this.#closed || this.#subscriber !== subscriber || listener === undefined) return;
    this.#logger.warn('RedisQuestionBus is connected again; resyncing', { nodeId: this.nodeId });
    try {
      listener.resync();
    } catch (error) {
      this.#logger.error('The bus listener threw on resync', { error: String(error) });
    }
  }

  /** Mark this node alive for the next `livenessTtlMs`. */
  #refreshLiveness(client: Redis): Promise<unknown> {
    return client.set(this.#aliveKey, '1', 'PX', this.#livenessTtlMs);
  }

  /** The command connection is back (after an outage): refresh at once rather than at the next tick. */
  readonly #onCommandReady = (): void => {
    if (!this.#closed) void this.#refreshLiveness(this.#client).catch(noop);
  };

  /** Run one command on the command connection, failing at once (STORE_UNAVAILABLE) if Redis cannot be reached. */
  async #command<T>(operation: string, run: (client: Redis) => Promise<T>): Promise<T> {
    const client = this.#client;
    // The ready path runs `run` synchronously, so calls made back to back reach Redis in call order.
    if (client.status !== 'ready') {
      if (!(await settledConnecting(client))) {
        if (this.#closed) throw closedError(operation);
        throw this.#unavailable(operation, new Error(`the connection is ${client.status}`));
      }
      this.#assertOpen(operation);
    }
    try {
      return await run(client);
    } catch (error) {
      if (this.#closed) throw closedError(operation);
      throw this.#unavailable(operation, error);
    }
  }

  #unavailable(operation: string, cause: unknown): QuestionStoreError {
    const { host, port, path } = this.#client.options;
    const where = path ?? `${host ?? '127.0.0.1'}:${port ?? 6379}`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new QuestionStoreError('STORE_UNAVAILABLE', `${operation}: Redis at ${where} could not be reached (${reason}); nothing was sent. The bus reconnects by itself: retry once Redis is back.`, { cause });
  }

  #assertOpen(operation: string): void {
    if (this.#closed) throw closedError(operation);
  }

  /** Log a lost connection once per outage (ioredis reports every failed reconnect attempt). */
  #watchConnection(client: Redis, role: 'command' | 'subscriber'): void {
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

/**
 * The first bytes of every message this node publishes: `publish` sends the checked message, whose
 * keys come out in schema order (`type`, then `from`). Any other text (another node's, or one written
 * by hand) takes the full parse, and a message of ours spelled otherwise is still dropped after it.
 */
function ownMessageStarts(nodeId: string): string[] {
  return ['asked', 'settled'].map((type) => `${JSON.stringify({ type, from: nodeId }).slice(0, -1)},`);
}

function aliveKey(keyPrefix: string, nodeId: string): string {
  return `${keyPrefix}alive:${nodeId}`;
}

function closedError(operation: string): QuestionStoreError {
  return new QuestionStoreError('STORE_CLOSED', `${operation}: this RedisQuestionBus was closed.`);
}

/**
 * Whether `client` is ready to take a command, connecting a lazy client first. A connection attempt
 * in progress is waited for (it ends quickly either way: ready, refused, or ioredis' connectTimeout);
 * a client between reconnect attempts is not ready.
 */
async function settledConnecting(client: Redis): Promise<boolean> {
  if (client.status === 'wait') client.connect().catch(noop);
  if (client.status !== 'connecting' && client.status !== 'connect') return client.status === 'ready';
  await new Promise<void>((resolve) => {
    const done = () => {
      client.off('ready', done);
      client.off('close', done);
      client.off('end', done);
      resolve();
    };
    client.once('ready', done);
    client.once('close', done);
    client.once('end', done);
  });
  // Read again: the status changed while we waited (TypeScript still narrows it to 'connecting').
  return (client.status as string) === 'ready';
}

/** Close a connection: politely (QUIT, after UNSUBSCRIBE for a subscriber) when it is up, at once otherwise. */
async function quit(client: Redis, { subscriber }: { subscriber: boolean }): Promise<void> {
  if (client.status === 'ready') {
    try {
      if (subscriber) await client.unsubscribe();
      await client.quit();
      return;
    } catch {
      // It dropped while closing: nothing left to say goodbye to.
    }
  }
  client.disconnect();
}

function safeLogger(logger: RedisQuestionBusLogger): RedisQuestionBusLogger {
  const guard =
    (level: keyof RedisQuestionBusLogger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      try {
        logger[level](message, fields);
      } catch {
        // Nowhere left to report a failing logger to.
      }
    };
  return { warn: guard('warn'), error: guard('error') };
}
