import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { PROTOCOL_VERSION, parseClientFrame, type QuestionRequestedFrame, type QuestionRespondFrame } from '@askseam/protocol';
import {
  UserQuestionError,
  askUserQuestionsSchema,
  type AskUserQuestionAnswer,
  type AskUserQuestionItem,
  type AskUserQuestionRequest,
} from '@askseam/user-questions';
import { WebSocketServer, type RawData, type ServerOptions, type WebSocket } from 'ws';
import { HostConnection, closeCodes } from './connection.js';
import { WebSocketHostError } from './errors.js';
import { eventEmitter } from './events.js';
import { startHeartbeat } from './heartbeat.js';
import { safeLogger } from './logger.js';
import { resolveOptions, type WebSocketHostOptions } from './options.js';
import { PendingTable, type PendingQuestion } from './pending.js';
import type { Principal } from './principal.js';
import { respond } from './respond.js';
import { authorizeUpgrade, refuseUpgrade } from './upgrade.js';

/** A pending question as `WebSocketHost.pending()` lists it. */
export interface HostPendingQuestion {
  rpcId: string;
  sessionId: string;
  questions: AskUserQuestionItem[];
  askedAt: string;
}

export interface WebSocketHost {
  /** `ws://host:port/path`, without the token. */
  readonly url: string;
  readonly port: number;
  /** The questions waiting for an answer, in ask order (copies). */
  pending(): HostPendingQuestion[];
  /**
   * Stop serving: every pending ask rejects `ASK_ABORTED`, sockets close with 1001, the provider
   * is unregistered, the heartbeat stops, the upgrade listener is removed, and the host's own
   * listener (not an attached server) is closed. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Serve `userQuestions` over WebSocket: register as its provider, push each question to the
 * connections that may see the asking agent's session, and settle the ask with the first answer
 * that fits. Resolves once the host is listening (or attached).
 */
export async function createWebSocketHost(options: WebSocketHostOptions): Promise<WebSocketHost> {
  const config = resolveOptions(options);
  const logger = safeLogger(config.logger);
  const emit = eventEmitter(config.onEvent, logger);
  const pending = new PendingTable();
  const connections = new Set<HostConnection>();
  const limits = { maxBufferedBytes: config.maxBufferedBytes, maxBadFrames: config.maxBadFrames };
  let connectionCount = 0;
  let closed = false;
  let closing: Promise<void> | undefined;
  let urlCache: { url: string; port: number } | undefined;

  // First, so that a second provider fails fast (DUPLICATE_PROVIDER) before any port is opened.
  const unregister = config.userQuestions.registerProvider({ ask });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: config.maxPayload,
    clientTracking: false,
    // Bounds how long a closing handshake may hang on a peer that does not answer (ws ≥ 8.19).
    closeTimeout: config.closeTimeoutMs,
  } as ServerOptions);
  wss.on('error', (error) => logger.error('WebSocket server error', { error: String(error) }));

  const ownServer = config.server === undefined;
  const server: Server = config.server ?? createServer((req, res) => answerPlainHttp(req, res, config.path));
  server.on('upgrade', onUpgrade);
  if (ownServer) {
    server.on('error', (error) => logger.error('HTTP server error', { error: String(error) }));
    try {
      await listen(server, config.port, config.host);
    } catch (error) {
      closed = true;
      server.off('upgrade', onUpgrade);
      unregister();
      // An ask may have arrived while the listener was starting; nobody will ever see it now.
      for (const entry of pending.claimAll()) {
        entry.reject(new UserQuestionError('ASK_ABORTED', 'The WebSocket host failed to start, so nobody can answer the question.', { cause: error }));
      }
      throw error;
    }
  }
  // Read the address now when there is one: a closed server has none left to report.
  if (server.listening) address();
  const stopHeartbeat = startHeartbeat(connections, config.heartbeatMs, logger);
  logger.info('askseam host ready', { path: config.path, attached: !ownServer });

  return {
    get url() {
      return address().url;
    },
    get port() {
      return address().port;
    },
    pending: () =>
      pending.all().map(({ rpcId, sessionId, questions, askedAt }) => ({ rpcId, sessionId, questions: structuredClone(questions), askedAt })),
    close: () => (closing ??= closeHost()),
  };

  // ── the provider ────────────────────────────────────────────────────────────────

  async function ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    const { agent, signal } = request;
    if (agent === undefined) {
      throw new UserQuestionError(
        'ASK_MISSING_AGENT',
        'The WebSocket host routes each question to the asking agent\'s session, but the request has no agent; pass `agent` to ask().',
      );
    }
    if (closed) throw new UserQuestionError('ASK_ABORTED', 'The WebSocket host is closed, so nobody can answer the question.');
    if (signal?.aborted) throw new UserQuestionError('ASK_ABORTED', 'The question was aborted before it was asked.', { cause: signal.reason });
    // Only the contract's fields go on the wire, and the caller's later edits do not.
    const parsed = askUserQuestionsSchema.safeParse(request.questions);
    if (!parsed.success) throw new UserQuestionError('INVALID_QUESTIONS', `The questions do not match the question schema: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);

    return new Promise<AskUserQuestionAnswer>((resolve, reject) => {
      const rpcId = randomUUID();
      const onAbort = () => {
        const claimed = pending.claim(rpcId);
        if (claimed === undefined) return;
        broadcastResolved(claimed, 'cancelled');
        emit({ type: 'aborted', rpcId, sessionId: claimed.sessionId, by: 'signal' });
        logger.info('question aborted by its asker', { rpcId, sessionId: claimed.sessionId });
        claimed.reject(new UserQuestionError('ASK_ABORTED', 'The question was aborted while waiting for an answer.', { cause: signal?.reason }));
      };
      const entry: PendingQuestion = {
        rpcId,
        sessionId: agent.id,
        questions: parsed.data,
        askedAt: new Date().toISOString(),
        seq: pending.nextSeq(),
        resolve: (answer) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      pending.add(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      emit({ type: 'asked', rpcId, sessionId: entry.sessionId, questions: entry.questions, askedAt: entry.askedAt });
      logger.info('question asked', { rpcId, sessionId: entry.sessionId, count: entry.questions.length });
      for (const connection of connections) {
        if (connection.canSee(entry.sessionId)) deliver(connection, entry, false);
      }
    });
  }

  // ── connections ─────────────────────────────────────────────────────────────────

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (pathOf(req) !== config.path) {
      // Another path on an attached server belongs to another listener: leave its socket alone.
      if (ownServer) refuseUpgrade(socket, 404);
      return;
    }
    void acceptUpgrade(req, socket, head);
  }

  async function acceptUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // Until ws takes the socket over, a reset during a slow `authenticate` must not be an unhandled error.
    const onSocketError = (error: Error) => logger.debug('socket error during upgrade', { error: String(error) });
    socket.on('error', onSocketError);
    try {
      if (closed) return refuseUpgrade(socket, 503);
      const decision = await authorizeUpgrade(req, {
        token: config.token,
        authenticate: config.authenticate,
        allowAnonymous: config.allowAnonymous,
        origins: config.origins,
      });
      if (closed) return refuseUpgrade(socket, 503);
      if (!decision.ok) {
        const remoteAddress = req.socket.remoteAddress;
        emit({ type: 'auth-failed', status: decision.status, reason: decision.reason, ...(remoteAddress === undefined ? {} : { remoteAddress }) });
        logger.info('upgrade refused', { status: decision.status, reason: decision.reason, remoteAddress });
        return refuseUpgrade(socket, decision.status);
      }
      if (socket.destroyed) return;
      wss.handleUpgrade(req, socket, head, (ws) => {
        socket.off('error', onSocketError);
        accept(ws, decision.principal);
      });
    } catch (error) {
      logger.error('upgrade failed', { error: String(error) });
      socket.destroy();
    }
  }

  function accept(ws: WebSocket, principal: Principal): void {
    const connection = new HostConnection(`c${++connectionCount}`, principal, ws, limits, logger);
    ws.on('error', (error) => logger.debug('socket error', { connectionId: connection.id, error: String(error) }));
    if (closed) {
      connection.close(closeCodes.goingAway, 'host closing');
      return;
    }
    connections.add(connection);
    ws.on('pong', () => {
      connection.isAlive = true;
    });
    ws.on('message', (data, isBinary) => {
      try {
        onMessage(connection, data, isBinary);
      } catch (error) {
        logger.error('handling a frame failed; closing the connection', { connectionId: connection.id, error: String(error) });
        connection.close(closeCodes.internalError, 'internal error');
      }
    });
    ws.on('close', (code, reason) => {
      connections.delete(connection);
      emit({ type: 'disconnected', connectionId: connection.id, principalId: principal.id, code, reason: reason.toString() });
      logger.info('client disconnected', { connectionId: connection.id, code });
    });
    emit({ type: 'connected', connectionId: connection.id, principalId: principal.id });
    logger.info('client connected', { connectionId: connection.id, principalId: principal.id });
    greet(connection);
  }

  /** `hello` listing what is about to be replayed, then the replay itself, with the original rpcIds. */
  function greet(connection: HostConnection): void {
    const sessions = connection.sessions();
    const candidates = sessions === undefined ? pending.all() : pending.ofSessions(sessions);
    const replay = candidates.filter((entry) => connection.canSee(entry.sessionId));
    connection.send(
      {
        type: 'hello',
        protocol: PROTOCOL_VERSION,
        ...(sessions === undefined ? {} : { sessions }),
        pending: replay.map((entry) => entry.rpcId),
      },
      { checkBuffer: false },
    );
    for (const entry of replay) deliver(connection, entry, true);
  }

  function deliver(connection: HostConnection, entry: PendingQuestion, replay: boolean): void {
    const frame: QuestionRequestedFrame = {
      type: 'question/requested',
      rpcId: entry.rpcId,
      sessionId: entry.sessionId,
      questions: entry.questions,
      askedAt: entry.askedAt,
    };
    if (connection.send(frame, { checkBuffer: !replay })) {
      emit({ type: 'delivered', rpcId: entry.rpcId, sessionId: entry.sessionId, connectionId: connection.id, replay });
    }
  }

  function onMessage(connection: HostConnection, data: RawData, isBinary: boolean): void {
    if (isBinary) {
      connection.send({ type: 'error', code: 'binary-frame', message: 'Frames must be JSON text; binary frames are not read.' }, { checkBuffer: true });
      connection.countBadFrame();
      return;
    }
    const parsed = parseClientFrame(asBuffer(data));
    if (!parsed.ok) {
      logger.debug('unreadable frame', { connectionId: connection.id, code: parsed.error.code });
      connection.send({ type: 'error', code: parsed.error.code, message: parsed.error.message }, { checkBuffer: true });
      connection.countBadFrame();
      return;
    }
    const frame = parsed.value;
    if (frame.type === 'ping') connection.send({ type: 'pong' }, { checkBuffer: true });
    else if (frame.type === 'question/respond') onRespond(connection, frame);
  }

  function onRespond(connection: HostConnection, frame: QuestionRespondFrame): void {
    const outcome = respond(frame, (sessionId) => connection.canSee(sessionId), pending);
    connection.send(outcome.receipt, { checkBuffer: true });
    const principalId = connection.principal.id;
    switch (outcome.kind) {
      case 'rejected':
        emit({
          type: 'response-rejected',
          rpcId: frame.rpcId,
          connectionId: connection.id,
          principalId,
          reason: outcome.reason,
          ...(outcome.detail === undefined ? {} : { detail: outcome.detail }),
        });
        logger.info('response rejected', { rpcId: frame.rpcId, connectionId: connection.id, reason: outcome.reason, detail: outcome.detail });
        return;
      case 'cancelled': {
        const { entry } = outcome;
        broadcastResolved(entry, 'cancelled');
        emit({ type: 'cancelled', rpcId: entry.rpcId, sessionId: entry.sessionId, connectionId: connection.id, principalId });
        logger.info('question dismissed by the user', { rpcId: entry.rpcId, sessionId: entry.sessionId });
        const said = outcome.message === undefined ? '' : ` They said: ${outcome.message}`;
        entry.reject(new UserQuestionError('ASK_CANCELLED', `The user dismissed the questions without answering.${said}`));
        return;
      }
      case 'answered': {
        const { entry } = outcome;
        broadcastResolved(entry, 'answered');
        emit({ type: 'answered', rpcId: entry.rpcId, sessionId: entry.sessionId, connectionId: connection.id, principalId, answer: outcome.answer });
        logger.info('question answered', { rpcId: entry.rpcId, sessionId: entry.sessionId });
        entry.resolve(outcome.answer);
        return;
      }
    }
  }

  function broadcastResolved(entry: PendingQuestion, outcome: 'answered' | 'cancelled'): void {
    for (const connection of connections) {
      if (!connection.canSee(entry.sessionId)) continue;
      connection.send({ type: 'question/resolved', rpcId: entry.rpcId, sessionId: entry.sessionId, outcome }, { checkBuffer: true });
    }
  }

  // ── lifecycle ───────────────────────────────────────────────────────────────────

  function address(): { url: string; port: number } {
    if (urlCache !== undefined) return urlCache;
    const info = server.address();
    if (info === null || typeof info === 'string') {
      throw new WebSocketHostError(
        'NOT_LISTENING',
        'The attached server is not listening on a TCP port yet; call server.listen() before reading host.url or host.port.',
      );
    }
    urlCache = { url: `ws://${clientHost(info)}:${info.port}${config.path}`, port: info.port };
    return urlCache;
  }

  async function closeHost(): Promise<void> {
    closed = true;
    unregister();
    stopHeartbeat();
    server.off('upgrade', onUpgrade);
    for (const entry of pending.claimAll()) {
      broadcastResolved(entry, 'cancelled');
      emit({ type: 'aborted', rpcId: entry.rpcId, sessionId: entry.sessionId, by: 'host-close' });
      entry.reject(new UserQuestionError('ASK_ABORTED', 'The WebSocket host closed while the question was waiting for an answer.'));
    }
    await closeConnections();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    if (ownServer) {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
    }
    logger.info('askseam host closed');
  }

  /** Close every socket with 1001; whatever has not finished the handshake in time is terminated. */
  async function closeConnections(): Promise<void> {
    const all = [...connections];
    const finished = Promise.all(all.map((connection) => socketClosed(connection.socket)));
    for (const connection of all) connection.close(closeCodes.goingAway, 'host closing');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), config.closeTimeoutMs);
    });
    if ((await Promise.race([finished, timedOut])) === 'timeout') {
      for (const connection of all) connection.terminate();
      await finished;
    }
    clearTimeout(timer);
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The host's own listener serves nothing over plain HTTP; the WebSocket path says how to reach it. */
function answerPlainHttp(req: IncomingMessage, res: ServerResponse, path: string): void {
  res.statusCode = pathOf(req) === path ? 426 : 404;
  res.setHeader('Connection', 'close');
  res.end();
}

// Split by hand rather than with `new URL`: a request target like "//x" must not be read as a host.
function pathOf(req: IncomingMessage): string {
  const target = req.url ?? '';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** A host a client can dial: a wildcard bind is reached over loopback, IPv6 goes in brackets. */
function clientHost(info: AddressInfo): string {
  if (info.address === '0.0.0.0') return '127.0.0.1';
  if (info.address === '::') return '[::1]';
  return info.family === 'IPv6' ? `[${info.address}]` : info.address;
}

function socketClosed(ws: WebSocket): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise((resolve) => ws.once('close', () => resolve()));
}

function asBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
