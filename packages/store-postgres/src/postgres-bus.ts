import { createHash } from 'node:crypto';
import {
  OutageGrace,
  QuestionStoreError,
  questionBusMessageSchema,
  type BusAnnouncement,
  type QuestionBus,
  type QuestionBusAnnouncementMessage,
  type QuestionBusListener,
  type QuestionBusMessage,
} from '@askseam/store';
import pg from 'pg';
import { checkout, openConnection, type Connection, type PostgresConnectionOptions } from './connection.js';
import { recordColumns, recordOf, type QuestionRow } from './decode.js';
import { closedError, isUnavailableError, storeErrorOf, type Delivery } from './errors.js';
import { migratePostgres } from './migrations.js';
import { MAX_NOTIFY_PAYLOAD_BYTES } from './postgres-store.js';

/** Where the bus reports what it cannot throw: unreadable messages, lost connections, a failing listener. */
export interface PostgresQuestionBusLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface PostgresQuestionBusOptions extends PostgresConnectionOptions {
  /** This node's id, unique on the bus. Default: a random UUID. */
  nodeId?: string;
  /** Default: silent. `console` fits. */
  logger?: PostgresQuestionBusLogger;
  /**
   * How long this node counts as alive after its last liveness refresh (a row it updates every third
   * of this), besides while its LISTEN connection is up: a node whose connection is being re-made
   * stays alive for the others; a killed one counts as gone at most this long after it died. Whole
   * milliseconds, at least 100. Default 10 000.
   */
  livenessTtlMs?: number;
}

/** What travels in a NOTIFY: ids only (PostgreSQL caps a payload at 8000 bytes; question text never goes there). */
interface Notice {
  /** The sender's node id. */
  f: string;
  /** `asked` / `settled`, with `q`: a store announcement, the record read from the store by its rpcId. */
  t?: 'asked' | 'settled';
  q?: string;
  /** A dismissal's words, with a `settled` announcement. */
  m?: string;
  /** The id of a message `publish` kept in `bus_messages`. */
  b?: number;
}

const noop = () => {};
const silentLogger: PostgresQuestionBusLogger = { warn: noop, error: noop };
const defaultLivenessTtlMs = 10_000;
/** How long a published message stays in `bus_messages` for receivers to read: far longer than any delivery takes. */
const keepMessagesMs = 5 * 60_000;

/**
 * A `QuestionBus` on PostgreSQL `LISTEN`/`NOTIFY`. One dedicated connection listens on the channel
 * `askseam:<schema>`; it is re-made after a loss (a restart, `pg_terminate_backend`), and then the
 * listener is told to `resync`, since what was sent meanwhile is lost. A NOTIFY carries ids, never
 * question text: a `publish`ed message is kept in a table and its id sent, and a store announcement
 * (`announcement`, sent by `PostgresQuestionStore` in its write's own transaction, so only a committed
 * write is announced) names the rpcId, whose record each receiver reads from the store. A node is
 * alive while its LISTEN connection is up or its liveness row is fresh; leases are rows with an expiry.
 */
export class PostgresQuestionBus implements QuestionBus {
  readonly nodeId: string;
  readonly schema: string;
  /** The login, server, database and schema (`postgres://user@host:port/database#schema`): a `PostgresQuestionStore` whose `announcesOn` is the same sends this node's news inside its writes. */
  readonly publishesOn: string;
  readonly #connection: Connection;
  readonly #logger: PostgresQuestionBusLogger;
  readonly #channel: string;
  /** The LISTEN connection's application_name: how the others see, in pg_stat_activity, that this node listens. */
  readonly #listenName: string;
  readonly #livenessTtlMs: number;
  #ready: Promise<void> | undefined;
  #listener: QuestionBusListener | undefined;
  #listening: pg.Client | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  /** Whether this node was cut off long enough lately that it must not take another for gone yet. */
  readonly #outage: OutageGrace;
  #livenessTimer: NodeJS.Timeout | undefined;
  /** Notices are handled one after another, so one sender's messages reach the listener in the order they were sent. */
  #inbox: Promise<void> = Promise.resolve();
  /** `publish` calls go out one after another, so their order is the order of the calls. */
  #outbox: Promise<unknown> = Promise.resolve();
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: PostgresQuestionBusOptions) {
    const nodeId = options.nodeId ?? globalThis.crypto.randomUUID();
    if (typeof nodeId !== 'string' || nodeId === '') throw new QuestionStoreError('INVALID_INPUT', 'PostgresQuestionBus: `nodeId` must be a non-empty string (or left out for a random one).');
    const livenessTtlMs = options.livenessTtlMs ?? defaultLivenessTtlMs;
    if (!Number.isSafeInteger(livenessTtlMs) || livenessTtlMs < 100) {
      throw new QuestionStoreError('INVALID_INPUT', `PostgresQuestionBus: \`livenessTtlMs\` must be a whole number of milliseconds, at least 100, not ${String(livenessTtlMs)}.`);
    }
    this.#connection = openConnection(options, 'PostgresQuestionBus');
    this.nodeId = nodeId;
    this.schema = this.#connection.schema;
    this.publishesOn = this.#connection.serverName;
    this.#livenessTtlMs = livenessTtlMs;
    this.#outage = new OutageGrace(livenessTtlMs);
    this.#logger = safeLogger(options.logger ?? silentLogger);
    this.#channel = `askseam:${this.schema}`;
    this.#listenName = listenName(this.schema, nodeId);
    // Started now, so the first call finds the schema checked (a failure is reported by that call).
    this.#ensureSchema('start').catch(noop);
  }

  /** Resolves once the schema is checked (every call waits for it anyway): rejects `NOT_A_STORE`, `NEWER_SCHEMA` or `STORE_UNAVAILABLE`. */
  ready(): Promise<void> {
    this.#assertOpen('ready');
    return this.#ensureSchema('ready');
  }

  async subscribe(listener: QuestionBusListener): Promise<void> {
    this.#assertOpen('subscribe');
    if (this.#listener !== undefined) throw new QuestionStoreError('INVALID_INPUT', `subscribe: bus node "${this.nodeId}" already has a listener; a bus serves one host.`);
    this.#listener = listener;
    try {
      await this.#ensureSchema('subscribe');
      this.#listening = await this.#listen();
      await this.#command('subscribe', true, (client) => this.#refreshLiveness(client));
    } catch (error) {
      this.#listener = undefined;
      // A LISTEN connection lost meanwhile must not be re-made for a bus that is not subscribed.
      clearTimeout(this.#reconnectTimer);
      const listening = this.#listening;
      this.#listening = undefined;
      await listening?.end().catch(noop);
      if (this.#closed) throw closedError('question bus', 'subscribe');
      throw error;
    }
    if (this.#closed) throw closedError('question bus', 'subscribe');
    this.#livenessTimer = setInterval(() => void this.#tick(), Math.max(1, Math.floor(this.#livenessTtlMs / 3)));
    this.#livenessTimer.unref();
  }

  async publish(message: QuestionBusMessage): Promise<void> {
    this.#assertOpen('publish');
    const parsed = questionBusMessageSchema.safeParse(message);
    if (!parsed.success) {
      throw new QuestionStoreError('INVALID_INPUT', `publish: not a bus message (${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ')}); nothing was sent.`);
    }
    // Serialised now, before any await: changing `message` after this call changes nothing sent.
    const body = JSON.stringify(parsed.data);
    const s = `"${this.schema}"`;
    const send = this.#outbox.then(() =>
      this.#command('publish', true, (client) =>
        // The message is kept in a table and only its id travels: one statement, one transaction, so the
        // NOTIFY goes out only once the row is there for the receivers to read.
        client.query(
          `WITH kept AS (INSERT INTO ${s}.bus_messages (body) VALUES ($1::json) RETURNING id)
           SELECT pg_notify($2, json_build_object('f', $3::text, 'b', kept.id)::text) FROM kept`,
          [body, this.#channel, this.nodeId],
        ),
      ),
    );
    this.#outbox = send.catch(noop);
    await send;
  }

  /**
   * The text of this node's `asked` or `settled` notice around an rpcId, for a `PostgresQuestionStore`
   * on the same database and schema to send with its write: the store puts the rpcId (as JSON)
   * between `before` and `after`, and each receiver reads the record from the store. Throws
   * `INVALID_INPUT` when a dismissal's words would not fit a NOTIFY payload (the host then publishes
   * the message after the write, through the table).
   */
  announcement(message: QuestionBusAnnouncementMessage): BusAnnouncement {
    this.#assertOpen('announcement');
    const type: unknown = (message as { type?: unknown } | undefined)?.type;
    const text: unknown = (message as { message?: unknown } | undefined)?.message;
    if ((type !== 'asked' && type !== 'settled') || (text !== undefined && (type !== 'settled' || typeof text !== 'string'))) {
      throw new QuestionStoreError('INVALID_INPUT', 'announcement: give { type: "asked" } or { type: "settled", message?: string }; nothing was prepared.');
    }
    const before = `{"f":${JSON.stringify(this.nodeId)},"t":${JSON.stringify(type)},"q":`;
    const after = text === undefined ? '}' : `,"m":${JSON.stringify(text)}}`;
    // Room left for the rpcId the store puts in between (rpcIds are short; 1 KB is generous).
    if (Buffer.byteLength(before) + Buffer.byteLength(after) > MAX_NOTIFY_PAYLOAD_BYTES - 1_024) {
      throw new QuestionStoreError('INVALID_INPUT', 'announcement: the dismissal message is too long for a PostgreSQL NOTIFY payload; publish the message after the write instead.');
    }
    return { channel: this.#channel, before, after };
  }

  async isNodeAlive(nodeId: string): Promise<boolean> {
    this.#assertOpen('isNodeAlive');
    if (typeof nodeId !== 'string' || nodeId === '') throw new QuestionStoreError('INVALID_INPUT', 'isNodeAlive: `nodeId` must be a non-empty string.');
    await this.#ensureSchema('isNodeAlive');
    // Listening now (its connection is in pg_stat_activity), or refreshed lately: a node whose
    // connection is being re-made is still alive. Both in one statement and one round trip.
    const result = await this.#command('isNodeAlive', false, (client) =>
      client.query<{ alive: boolean; known: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = $1)
             OR EXISTS (SELECT 1 FROM "${this.schema}".bus_nodes WHERE node_id = $2 AND alive_until > clock_timestamp()) AS alive,
                EXISTS (SELECT 1 FROM "${this.schema}".bus_nodes WHERE node_id = $2) AS known`,
        [listenName(this.schema, nodeId), nodeId],
      ),
    );
    const row = result.rows[0];
    // Cut off lately ourselves (OutageGrace): a node whose row expired meanwhile may have been cut off
    // with us. A node that closed deleted its row, so it is gone all the same.
    return row?.alive === true || (row?.known === true && this.#outage.active);
  }

  async acquireLease(key: string, ttlMs: number): Promise<boolean> {
    this.#assertOpen('acquireLease');
    if (typeof key !== 'string' || key === '') throw new QuestionStoreError('INVALID_INPUT', 'acquireLease: `key` must be a non-empty string.');
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new QuestionStoreError('INVALID_INPUT', `acquireLease: \`ttlMs\` must be a positive number of milliseconds, not ${ttlMs}.`);
    await this.#ensureSchema('acquireLease');
    // A new key is inserted; a held one is taken over only once it has expired. Racing callers wait
    // on the row's lock and re-check the expiry, so exactly one gets a row back.
    const result = await this.#command('acquireLease', true, (client) =>
      client.query(
        `INSERT INTO "${this.schema}".bus_leases (key, holder, expires_at) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
         WHERE bus_leases.expires_at <= clock_timestamp() RETURNING key`,
        [key, this.nodeId, Math.ceil(ttlMs)],
      ),
    );
    return result.rowCount === 1;
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#closed = true;
    const wasSubscribed = this.#listener !== undefined;
    this.#listener = undefined;
    clearInterval(this.#livenessTimer);
    clearTimeout(this.#reconnectTimer);
    const listening = this.#listening;
    this.#listening = undefined;
    if (listening !== undefined) {
      // Renamed before it goes: pg_stat_activity drops a closed connection a moment after it ends, and
      // the others must see this node gone as soon as close() resolves.
      await listening.query('UNLISTEN *; SET application_name = \'\'').catch(noop);
      await listening.end().catch(noop);
    }
    if (wasSubscribed) await this.#connection.pool.query(`DELETE FROM "${this.schema}".bus_nodes WHERE node_id = $1`, [this.nodeId]).catch(noop);
    await this.#outbox;
    if (this.#connection.owned) await this.#connection.pool.end().catch(noop);
  }

  /** Open the LISTEN connection; it reconnects by itself when lost. */
  async #listen(): Promise<pg.Client> {
    const client = new pg.Client({ ...this.#connection.clientConfig, application_name: this.#listenName });
    client.on('error', noop);
    client.on('notification', (notification) => {
      if (notification.channel !== this.#channel || this.#listening !== client) return;
      const payload = notification.payload ?? '';
      this.#inbox = this.#inbox.then(() => this.#receive(payload)).catch(noop);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.#channel)}`);
    } catch (error) {
      await client.end().catch(noop);
      throw storeErrorOf(error, 'listen for bus messages', this.#connection.target, 'unsent', false);
    }
    client.once('end', () => this.#lost(client));
    return client;
  }

  /** The LISTEN connection ended under us: make a new one, then have the listener resync (messages may be lost). */
  #lost(client: pg.Client): void {
    if (this.#closed || this.#listening !== client) return;
    this.#listening = undefined;
    this.#outage.lost();
    this.#logger.warn('PostgresQuestionBus lost its LISTEN connection; reconnecting', { nodeId: this.nodeId });
    this.#reconnect(1);
  }

  #reconnect(attempt: number): void {
    this.#reconnectTimer = setTimeout(() => {
      void this.#listen().then(
        (client) => {
          if (this.#closed || this.#listener === undefined) {
            void client.end().catch(noop);
            return;
          }
          this.#listening = client;
          this.#outage.reached();
          this.#logger.warn('PostgresQuestionBus is listening again; resyncing', { nodeId: this.nodeId });
          void this.#command('refresh liveness', true, (pooled) => this.#refreshLiveness(pooled)).catch(noop);
          try {
            this.#listener?.resync();
          } catch (error) {
            this.#logger.error('The bus listener threw on resync', { error: String(error) });
          }
        },
        (error: unknown) => {
          if (this.#closed) return;
          // Said each time: a node that stays deaf to its news must not be silent about it.
          this.#logger.warn('PostgresQuestionBus could not listen again; retrying', { nodeId: this.nodeId, attempt, error: String(error) });
          this.#reconnect(attempt + 1);
        },
      );
    }, Math.min(attempt * 100, 1_000));
    this.#reconnectTimer.unref();
  }

  /** One notice: drop our own, read what it points at, check it, and hand it to the listener. */
  async #receive(payload: string): Promise<void> {
    const listener = this.#listener;
    if (listener === undefined) return;
    let notice: Notice;
    try {
      notice = JSON.parse(payload) as Notice;
    } catch {
      this.#logger.warn('PostgresQuestionBus dropped a notice that is not JSON', { size: payload.length });
      return;
    }
    if (typeof notice !== 'object' || notice === null || notice.f === this.nodeId) return;
    let data: unknown;
    try {
      data = await this.#messageBehind(notice);
    } catch (error) {
      this.#logger.error('PostgresQuestionBus could not read the message behind a notice; the next reconcile catches up', { from: notice.f, error: String(error) });
      return;
    }
    if (data === undefined) return;
    const parsed = questionBusMessageSchema.safeParse(data);
    if (!parsed.success) {
      this.#logger.warn('PostgresQuestionBus dropped a message that is not a bus message', { issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) });
      return;
    }
    if (parsed.data.from === this.nodeId || this.#listener !== listener) return;
    try {
      listener.message(parsed.data);
    } catch (error) {
      this.#logger.error('The bus listener threw on a message', { type: parsed.data.type, rpcId: parsed.data.record.rpcId, error: String(error) });
    }
  }

  /** The bus message a notice stands for, or undefined when what it points at is gone (a hint lost is repaired by reconciling). */
  async #messageBehind(notice: Notice): Promise<unknown> {
    const s = `"${this.schema}"`;
    if (typeof notice.b === 'number') {
      const result = await this.#command('read a bus message', false, (client) => client.query<{ body: unknown }>(`SELECT body FROM ${s}.bus_messages WHERE id = $1`, [notice.b]));
      return result.rows[0]?.body;
    }
    if ((notice.t === 'asked' || notice.t === 'settled') && typeof notice.q === 'string') {
      const rpcId = notice.q;
      const result = await this.#command('read an announced question', false, (client) => client.query<QuestionRow>(`SELECT ${recordColumns} FROM ${s}.questions WHERE rpc_id = $1`, [rpcId]));
      const row = result.rows[0];
      if (row === undefined) return undefined;
      // The record as the store holds it now: the host reads it again anyway before acting (a hint).
      const { resumedAt: _resumed, ...record } = recordOf(row, `schema "${this.schema}"`);
      return { type: notice.t, from: notice.f, record, ...(notice.t === 'settled' && typeof notice.m === 'string' ? { message: notice.m } : {}) };
    }
    this.#logger.warn('PostgresQuestionBus dropped a notice it does not know', { from: notice.f });
    return undefined;
  }

  /** Every third of the liveness ttl: stay alive, and clear out expired leases and old messages. */
  async #tick(): Promise<void> {
    if (this.#closed) return;
    const s = `"${this.schema}"`;
    await this.#command('refresh liveness', true, async (client) => {
      await this.#refreshLiveness(client);
      await client.query(`DELETE FROM ${s}.bus_leases WHERE expires_at < clock_timestamp() - interval '1 minute'`);
      await client.query(`DELETE FROM ${s}.bus_messages WHERE sent_at < now() - $1 * interval '1 millisecond'`, [keepMessagesMs]);
      await client.query(`DELETE FROM ${s}.bus_nodes WHERE alive_until < now() - interval '1 hour'`);
    }).catch(noop);
  }

  #refreshLiveness(client: pg.ClientBase): Promise<unknown> {
    return client.query(
      `INSERT INTO "${this.schema}".bus_nodes (node_id, alive_until) VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond')
       ON CONFLICT (node_id) DO UPDATE SET alive_until = EXCLUDED.alive_until`,
      [this.nodeId, this.#livenessTtlMs],
    );
  }

  /** The schema exists and is current (a bus may start before any store has touched the database). */
  #ensureSchema(action: string): Promise<void> {
    this.#ready ??= this.#command(action, true, (client) => migratePostgres(client, this.schema)).then(noop, (error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** Run statements on a pooled connection, failing at once (STORE_UNAVAILABLE) while PostgreSQL cannot be reached. */
  async #command<T>(action: string, writes: boolean, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    this.#assertOpen(action);
    let delivery: Delivery = 'unsent';
    let client: Awaited<ReturnType<typeof checkout>> | undefined;
    try {
      client = await checkout(this.#connection.pool);
      delivery = 'sent';
      const result = await run(client);
      client.done();
      this.#outage.reached();
      return result;
    } catch (error) {
      const unreachable = isUnavailableError(error);
      if (unreachable) this.#outage.lost();
      // A connection that failed is destroyed rather than handed to the next call; one a statement failed on is fine.
      client?.done(unreachable ? (error as Error) : undefined);
      if (this.#closed) throw closedError('question bus', action);
      throw storeErrorOf(error, action, this.#connection.target, delivery, writes);
    }
  }

  #assertOpen(action: string): void {
    if (this.#closed) throw closedError('question bus', action);
  }
}

/** The LISTEN connection's application_name (at most 63 bytes): the schema and a digest of the node id. */
function listenName(schema: string, nodeId: string): string {
  return `askseam-bus ${createHash('sha256').update(`${schema}\0${nodeId}`).digest('base64url').slice(0, 32)}`;
}

function safeLogger(logger: PostgresQuestionBusLogger): PostgresQuestionBusLogger {
  const guard =
    (level: keyof PostgresQuestionBusLogger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      try {
        logger[level](message, fields);
      } catch {
        // Nowhere left to report a failing logger to.
      }
    };
  return { warn: guard('warn'), error: guard('error') };
}
