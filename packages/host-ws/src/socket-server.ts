import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { parseClientFrame } from '@askseam/protocol';
import { WebSocketServer, type RawData, type ServerOptions, type WebSocket } from 'ws';
import { HostConnection, closeCodes, type ConnectionLimits } from './connection.js';
import { startHeartbeat } from './heartbeat.js';
import { pathOf } from './http-api.js';
import type { HostLogger } from './logger.js';
import type { Principal } from './principal.js';
import { capRefusal } from './connection-caps.js';
import type { Transport, TransportCore } from './transport.js';
import { authorizeUpgrade, refuseUpgrade, type UpgradeAuth } from './upgrade.js';

export interface SocketServerOptions {
  /** The HTTP server whose upgrades on `path` are ours. */
  server: Server;
  /** The server is the host's own: every upgrade is ours to answer (a wrong path gets 404). */
  ownServer: boolean;
  path: string;
  auth: UpgradeAuth;
  maxPayload: number;
  heartbeatMs: number;
  closeTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerPrincipal: number;
  limits: ConnectionLimits;
  logger: HostLogger;
}

/** An open connection as `WebSocketHost.connections()` lists it. */
export interface HostConnectionInfo {
  connectionId: string;
  principalId: string;
  /** Bytes of frames handed to the socket (or queued behind a replay) that the peer's TCP connection has not taken yet. */
  bufferedBytes: number;
  /** Frames held back until the peer reads more: the rest of a replay and what was sent after it. */
  heldFrames: number;
}

/**
 * The WebSocket transport: the upgrade (path, authentication, connection caps), accepted sockets
 * (heartbeat, one frame at a time, bad-frame counting) and their timed close. Everything a frame
 * means is decided elsewhere (the core's judge and delivery).
 */
export class SocketServer implements Transport {
  readonly #wss: WebSocketServer;
  /** This transport's open (and still closing) connections: the heartbeat's, close()'s and connections()'s. */
  readonly #open = new Set<HostConnection>();
  /** Upgrade sockets whose `authenticate` has not answered yet: close() must not wait for a lookup that may never end. */
  readonly #authenticating = new Set<Duplex>();
  readonly #onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#upgrade(req, socket, head);
  #stopHeartbeat: () => void = () => {};
  #connectionCount = 0;

  constructor(
    private readonly core: TransportCore,
    private readonly options: SocketServerOptions,
  ) {
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload,
      clientTracking: false,
      // Bounds how long a closing handshake may hang on a peer that does not answer (ws ≥ 8.19).
      closeTimeout: options.closeTimeoutMs,
    } as ServerOptions);
    this.#wss.on('error', (error) => options.logger.error('WebSocket server error', { error: String(error) }));
  }

  /** Take upgrades on `path` from now on (before listening: the first upgrade may come right after). */
  listen(): void {
    this.options.server.on('upgrade', this.#onUpgrade);
  }

  /** Stop taking upgrades (a start that failed, or close()). */
  unlisten(): void {
    this.options.server.off('upgrade', this.#onUpgrade);
  }

  start(): void {
    this.#stopHeartbeat = startHeartbeat(this.#open, this.options.heartbeatMs, this.options.logger);
  }

  connections(): HostConnectionInfo[] {
    return [...this.#open].map((connection) => ({ connectionId: connection.id, principalId: connection.principalId, ...connection.backlog() }));
  }

  async close(): Promise<void> {
    this.#stopHeartbeat();
    this.unlisten();
    await Promise.all([this.#closeConnections(), this.#refuseAuthenticating()]);
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const { server, ownServer, path, logger } = this.options;
    if (pathOf(req) !== path) {
      // Another path on an attached server belongs to another listener: leave its socket alone.
      // When we are the only upgrade listener nobody else will ever answer it, so it is ours to refuse.
      if (!ownServer && server.listenerCount('upgrade') > 1) return;
      // Node takes its own 'error' listener off an upgraded socket: without ours, a peer's reset
      // (while the refusal is written, or just read) is an unhandled error that ends the process.
      socket.on('error', (error) => logger.debug('socket error on a refused upgrade', { error: String(error) }));
      refuseUpgrade(socket, 404);
      return;
    }
    void this.#acceptUpgrade(req, socket, head);
  }

  async #acceptUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const { logger } = this.options;
    const { lifecycle, reporter } = this.core;
    // Until ws takes the socket over, a reset during a slow `authenticate` must not be an unhandled error.
    const onSocketError = (error: Error) => logger.debug('socket error during upgrade', { error: String(error) });
    socket.on('error', onSocketError);
    this.#authenticating.add(socket);
    try {
      if (lifecycle.ended) return refuseUpgrade(socket, 503);
      const decision = await authorizeUpgrade(req, this.options.auth);
      if (lifecycle.ended) return refuseUpgrade(socket, 503);
      if (!decision.ok) {
        const remoteAddress = req.socket.remoteAddress;
        reporter.report({ kind: 'auth-failed', status: decision.status, reason: decision.reason, ...(remoteAddress === undefined ? {} : { remoteAddress }) }, { log: false });
        return refuseUpgrade(socket, decision.status);
      }
      if (socket.destroyed) return;
      // Checked here, after the last await: handleUpgrade accepts synchronously, so no other upgrade slips in between.
      const full = capRefusal(this.core.delivery.audience, decision.principal, this.options);
      if (full !== undefined) {
        logger.warn('upgrade refused: too many connections', { status: full.status, reason: full.reason, principalId: decision.principal.id });
        return refuseUpgrade(socket, full.status);
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => {
        socket.off('error', onSocketError);
        this.#accept(ws, socket, decision.principal);
      });
    } catch (error) {
      logger.error('upgrade failed', { error: String(error) });
      socket.destroy();
    } finally {
      this.#authenticating.delete(socket);
    }
  }

  #accept(ws: WebSocket, transport: Duplex, principal: Principal): void {
    const { logger, limits } = this.options;
    const { delivery, reporter, lifecycle } = this.core;
    const connection = new HostConnection(`c${++this.#connectionCount}`, principal, ws, transport, limits, logger);
    ws.on('error', (error) => logger.debug('socket error', { connectionId: connection.id, error: String(error) }));
    if (lifecycle.ended) {
      connection.close(closeCodes.goingAway, 'host closing');
      return;
    }
    this.#open.add(connection);
    ws.on('pong', (payload) => connection.onPong(payload));
    // One frame at a time per connection, in arrival order: a respond is judged against the store
    // asynchronously, and its receipt must still come before the reply to any later frame.
    ws.on('message', (data, isBinary) => {
      connection.heardSinceEcho = true;
      connection.serially(() => this.#onMessage(connection, data, isBinary));
    });
    ws.on('close', (code, reason) => {
      this.#open.delete(connection);
      delivery.leave(connection);
      reporter.report({ kind: 'disconnected', connectionId: connection.id, principalId: principal.id, code, reason: reason.toString(), transport: 'websocket' }, { log: false });
    });
    reporter.report({ kind: 'connected', connectionId: connection.id, principalId: principal.id, transport: 'websocket' }, { log: false });
    delivery.arrive(connection);
  }

  async #onMessage(connection: HostConnection, data: RawData, isBinary: boolean): Promise<void> {
    if (isBinary) {
      connection.send({ type: 'error', code: 'binary-frame', message: 'Frames must be JSON text; binary frames are not read.' }, { checkBuffer: true });
      connection.countBadFrame();
      return;
    }
    const parsed = parseClientFrame(asBuffer(data));
    if (!parsed.ok) {
      this.options.logger.debug('unreadable frame', { connectionId: connection.id, code: parsed.error.code });
      connection.send({ type: 'error', code: parsed.error.code, message: parsed.error.message }, { checkBuffer: true });
      connection.countBadFrame();
      return;
    }
    const frame = parsed.value;
    if (frame.type === 'ping') connection.send({ type: 'pong' }, { checkBuffer: true });
    else if (frame.type === 'question/respond') {
      const outcome = await this.core.judge.judge(frame, connection.principal, (sessionId) => connection.canSee(sessionId), {
        channel: 'websocket',
        connectionId: connection.id,
        reply: (receipt) => connection.send(receipt, { checkBuffer: true }),
        batch: (work) => connection.batch(work),
      });
      // A conforming client never sends a response it cannot see or one that does not fit (its
      // local check is the host's): those count like unreadable frames. `not-pending` does not: two
      // tabs racing to answer cannot avoid it, and its log entries are bounded by maxLoggedRejections.
      if (outcome.kind === 'rejected' && outcome.reason !== 'not-pending') connection.countBadFrame();
    }
  }

  /**
   * Answer 503 to every upgrade still waiting for `authenticate` and hang up: its answer, when it
   * comes, finds the host closed. A peer that does not take the 503 within closeTimeoutMs is cut.
   */
  async #refuseAuthenticating(): Promise<void> {
    const all = [...this.#authenticating];
    if (all.length === 0) return;
    this.options.logger.info('refusing upgrades still being authenticated', { count: all.length });
    const finished = Promise.all(all.map((socket) => (socket.destroyed ? undefined : new Promise((resolve) => socket.once('close', resolve)))));
    for (const socket of all) refuseUpgrade(socket, 503);
    if ((await within(finished, this.options.closeTimeoutMs)) === 'timeout') {
      for (const socket of all) socket.destroy();
      await finished;
    }
  }

  /** Close every socket with 1001; whatever has not finished the handshake in time is terminated. */
  async #closeConnections(): Promise<void> {
    const all = [...this.#open];
    const finished = Promise.all(all.map((connection) => socketClosed(connection.socket)));
    for (const connection of all) connection.close(closeCodes.goingAway, 'host closing');
    if ((await within(finished, this.options.closeTimeoutMs)) === 'timeout') {
      for (const connection of all) connection.terminate();
      await finished;
    }
  }
}

/** `work`'s settling, or 'timeout' after `ms`, whichever comes first (the timer never outlives the race). */
async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function socketClosed(ws: WebSocket): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise((resolve) => ws.once('close', () => resolve()));
}

function asBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
