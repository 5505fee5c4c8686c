import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { PROTOCOL_VERSION, parseClientFrame, type QuestionRequestedFrame, type QuestionResolvedFrame, type ReceiptFrame } from '@askseam/protocol';
import { MemoryQuestionStore, humanOutcomes, type QuestionBusMessage, type QuestionRecord, type QuestionStore, type UnreadableRecord } from '@askseam/store';
import {
  UserQuestionError,
  askUserQuestionUrgencySchema,
  askUserQuestionsSchema,
  compiledSafeParse,
  copyAnswer,
  hasUserQuestionErrorCode,
  isSealedQuestionBatch,
  type AskUserQuestionAnswer,
  type AskUserQuestionItem,
  type AskUserQuestionRequest,
} from '@askseam/user-questions';
import { WebSocketServer, type RawData, type ServerOptions, type WebSocket } from 'ws';
import { HostConnection, closeCodes } from './connection.js';
import { ConnectionIndex } from './connection-index.js';
import { checkDetachedAsk, type DetachedAskRequest } from './detached.js';
import { WebSocketHostError } from './errors.js';
import { EventLog } from './event-log.js';
import { eventEmitter, type ResponseChannel } from './events.js';
import { startHeartbeat } from './heartbeat.js';
import { createHttpHandler, pathOf } from './http-api.js';
import { safeLogger } from './logger.js';
import { callNotifier } from './notify.js';
import { resolveOptions, type WebSocketHostOptions } from './options.js';
import { PendingQuestion, PendingTable } from './pending.js';
import { safeCanSee, seesEverything, type Principal } from './principal.js';
import { claimVerdict, confirmDelaysMs, readBack } from './read-back.js';
import { respond, type RespondInput, type RespondOutcome } from './respond.js';
import { Quarantine, type QuarantinedQuestion } from './quarantine.js';
import { RecentIds, SETTLED_IDS_REMEMBERED_ON_A_BUS } from './recent-ids.js';
import { RejectionBudget } from './rejection-budget.js';
import { Resumer } from './resume.js';
import { ResumeMarks } from './resume-marks.js';
import { storedAnswerProblem } from './stored-answer.js';
import { authorizeUpgrade, refuseUpgrade } from './upgrade.js';

/** An open connection as `WebSocketHost.connections()` lists it. */
export interface HostConnectionInfo {
  connectionId: string;
  principalId: string;
  /** Bytes of frames handed to the socket (or queued behind a replay) that the peer's TCP connection has not taken yet. */
  bufferedBytes: number;
  /** Frames held back until the peer reads more: the rest of a replay and what was sent after it. */
  heldFrames: number;
}

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
  /** Where the host keeps its questions and event log (the `store` option, or its own in-memory one). */
  readonly store: QuestionStore;
  /** The questions waiting for an answer, in ask order (copies). */
  pending(): HostPendingQuestion[];
  /**
   * The open WebSocket connections (closing ones included) and what the host holds for each: bytes
   * written but not yet taken by the peer's TCP connection, and frames held back until the peer
   * reads. For metrics, and to see a slow consumer before it is closed.
   */
  connections(): HostConnectionInfo[];
  /**
   * Ask without waiting: the question is saved, delivered and notified like any other, and the
   * promise resolves with its rpcId as soon as it is saved. The answer (or dismissal) goes to
   * `onResume`, in this process or in the next host started on the same store.
   */
  askDetached(request: DetachedAskRequest): Promise<{ rpcId: string }>;
  /**
   * Serve a plain HTTP request if it is the host's (its `path` and below: the HTTP API) and return
   * true; return false, touching nothing, for any other request. The host's own listener uses it;
   * with `server`, call it first in your request handler: `if (host.handleRequest(req, res)) return;`.
   */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * The stored questions this host set aside because it could not use them (a record it cannot
   * read, or a settled answer that does not fit its questions), in the order it met them. They stay
   * in the store as they are; repair or delete them there (docs/durability.md).
   */
  quarantined(): QuarantinedQuestion[];
  /**
   * Stop serving: every pending ask rejects `ASK_ABORTED`, sockets close with 1001, the provider
   * is unregistered, the heartbeat stops, the upgrade listener is removed, and the host's own
   * listener (not an attached server) is closed. With the host's own in-memory store, pending
   * questions are withdrawn (`aborted`); in a store you passed they stay pending for the next host.
   * Waits for saves, event-log appends and resume handlers already started. Idempotent.
   */
  close(): Promise<void>;
}

/** Where a response came from, and how to answer its sender. */
interface ResponseVia {
  channel: ResponseChannel;
  connectionId: string;
  reply?: (receipt: ReceiptFrame) => void;
  batch?: (work: () => void) => void;
}

/** A bus message as this host writes it; `publish` adds the sender. */
type OutgoingBusMessage = { type: 'asked'; record: QuestionRecord } | { type: 'settled'; record: QuestionRecord; message?: string };

interface Waiter {
  resolve(answer: AskUserQuestionAnswer): void;
  reject(error: unknown): void;
}

/**
 * Serve `userQuestions` over WebSocket: register as its provider, push each question to the
 * connections that may see the asking agent's session, and settle the ask with the first answer
 * that fits. Resolves once the host has loaded its store's pending questions and is listening (or attached).
 */
export async function createWebSocketHost(options: WebSocketHostOptions): Promise<WebSocketHost> {
  const config = resolveOptions(options);
  const logger = safeLogger(config.logger);
  const emit = eventEmitter(config.onEvent, logger);
  // A store we made is ours to settle on close; one we were given outlives us.
  const ownsStore = config.store === undefined;
  const store: QuestionStore = config.store ?? new MemoryQuestionStore();
  const eventLog = new EventLog(store, logger);
  /** With several nodes (docs/scaling.md): the bus that tells this node what the others asked and settled. */
  const bus = config.bus;
  const marks = new ResumeMarks(store, logger);
  /** With several nodes: one lease per settled record decides which node delivers it (to its asker or to onResume). */
  const takeResumeLease = bus && ((rpcId: string) => bus.acquireLease(`resume:${rpcId}`, config.resumeLeaseMs));
  const resumer = new Resumer(store, config.onResume, logger, marks, takeResumeLease);
  /** Bus messages that arrived before the store's pending questions were loaded; applied right after. */
  let startQueue: QuestionBusMessage[] | undefined = [];
  /** How many settled rpcIds to remember: only news from other nodes can come late or twice. */
  const rememberSettled = bus === undefined ? 0 : SETTLED_IDS_REMEMBERED_ON_A_BUS;
  /** Settled records this process gave to their waiting asker: a reconcile that read the store before markResumed landed must not resume them too. */
  const handedToAsker = new RecentIds(rememberSettled);
  /** Settled records whose resume lease is being taken for their waiting asker: one attempt at a time. */
  const leasingForAsker = new Set<string>();
  let reconcileTimer: NodeJS.Timeout | undefined;
  let reconciling: Promise<void> | undefined;
  let reconcileAgain = false;
  // With other nodes, news may arrive late or twice: remember what was settled so it is not brought back.
  const pending = new PendingTable(rememberSettled);
  /** The in-process askers of blocking questions, by rpcId. A pending question without one is answered to `onResume`. */
  const waiters = new Map<string, Waiter>();
  /** Saves in flight, by rpcId: an asker-side settlement waits for its question's save. */
  const saves = new Map<string, Promise<{ ok: true } | { ok: false; error: unknown }>>();
  /** Store writes in flight, for close() to wait on. */
  const background = new Set<Promise<unknown>>();
  const connections = new ConnectionIndex();
  /** Stored records this host could not use: skipped, reported once, listed by `quarantined()`. */
  const quarantine = new Quarantine();
  const onUnreadable = (record: UnreadableRecord) => setAside(record.rpcId, record.sessionId, record.error.message);
  /** Upgrade sockets whose `authenticate` has not answered yet: close() must not wait for a lookup that may never end. */
  const authenticating = new Set<Duplex>();
  const limits = { maxBufferedBytes: config.maxBufferedBytes, maxBadFrames: config.maxBadFrames, badFrameWindowMs: config.badFrameWindowMs };
  const rejectionBudget = new RejectionBudget(config.maxLoggedRejections, config.badFrameWindowMs);
  const auth = { token: config.token, authenticate: config.authenticate, allowAnonymous: config.allowAnonymous, origins: config.origins };
  let connectionCount = 0;
  let closed = false;
  /** Aborted when close() starts: ends the waits of work that would otherwise retry until the store answers. */
  const closeSignal = new AbortController();
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

  const handleRequest = createHttpHandler({
    path: config.path,
    auth,
    store,
    logger,
    maxBodyBytes: config.maxPayload,
    enabled: config.httpApi,
    isClosed: () => closed,
    onUnreadable,
    respond: (input, principal) => judge(input, principal, (sessionId) => safeCanSee(principal, sessionId, logger), { channel: 'http', connectionId: 'http' }),
  });
  const ownServer = config.server === undefined;
  const server: Server =
    config.server ??
    createServer((req, res) => {
      if (!handleRequest(req, res)) res.writeHead(404, { Connection: 'close' }).end();
    });

  // Subscribed before the store is read, so that nothing asked or settled elsewhere in between is missed.
  if (bus !== undefined) {
    try {
      await bus.subscribe({ message: onBusMessage, resync: () => void reconcile() });
    } catch (error) {
      failStart(error);
      throw new WebSocketHostError('STORE_FAILED', `The question bus could not be reached, so the host did not start: ${String(error)}`, { cause: error });
    }
  }

  // The questions a previous host left pending come back with their rpcIds, before anyone can connect.
  let awaitingResume: QuestionRecord[];
  try {
    const restored = await store.listPending('all', { onUnreadable });
    // Before the asks that arrived while we were loading (negative seqs), and not twice: one of those may already be saved.
    restored.forEach((record, index) => {
      if (pending.get(record.rpcId) === undefined) pending.add(new PendingQuestion(record, index - restored.length, { saved: true }));
    });
    awaitingResume = await store.listAwaitingResume({ onUnreadable });
    for (const message of startQueue.splice(0)) track(applyBusMessage(message));
    startQueue = undefined;
  } catch (error) {
    failStart(error);
    throw new WebSocketHostError('STORE_FAILED', `The question store could not be read, so the host did not start: ${String(error)}`, { cause: error });
  }

  server.on('upgrade', onUpgrade);
  if (ownServer) {
    server.on('error', (error) => logger.error('HTTP server error', { error: String(error) }));
    try {
      await listen(server, config.port, config.host);
    } catch (error) {
      server.off('upgrade', onUpgrade);
      failStart(error);
      throw error;
    }
  }
  // Read the address now when there is one: a closed server has none left to report.
  if (server.listening) address();
  const stopHeartbeat = startHeartbeat(connections, config.heartbeatMs, logger);
  logger.info('askseam host ready', { path: config.path, attached: !ownServer, restored: pending.size, awaitingResume: awaitingResume.length });
  // Answers that arrived while no host was running (or whose handler failed last time).
  track(resumeOrphans(awaitingResume));
  if (bus !== undefined) {
    reconcileTimer = setInterval(() => void reconcile(), config.reconcileMs);
    reconcileTimer.unref();
    if (reconcileAgain) void reconcile();
  }

  return {
    get url() {
      return address().url;
    },
    get port() {
      return address().port;
    },
    store,
    pending: () =>
      pending.all().map(({ rpcId, sessionId, questions, askedAt }) => ({ rpcId, sessionId, questions: structuredClone(questions), askedAt })),
    connections: () => [...connections].map((connection) => ({ connectionId: connection.id, principalId: connection.principalId, ...connection.backlog() })),
    askDetached,
    handleRequest,
    quarantined: () => quarantine.list(),
    close: () => (closing ??= closeHost()),
  };

  /** A start that failed after the provider was registered: leave the seam free and nobody waiting. */
  function failStart(error: unknown): void {
    closed = true;
    unregister();
    if (bus !== undefined) track(closeBus());
    // An ask may have arrived while the host was starting; nobody will ever see it now.
    for (const entry of pending.claimAll()) {
      waiters.get(entry.rpcId)?.reject(new UserQuestionError('ASK_ABORTED', 'The WebSocket host failed to start, so nobody can answer the question.', { cause: error }));
      waiters.delete(entry.rpcId);
    }
  }

  // ── asking ──────────────────────────────────────────────────────────────────────

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
    // The seam's sealed batch is checked and frozen: shared, not copied (one copy per pending question).
    const questions = isSealedQuestionBatch(request.questions) ? request.questions : parseOwnCopy(request.questions);

    return new Promise<AskUserQuestionAnswer>((resolve, reject) => {
      const rpcId = randomUUID();
      if (signal === undefined) {
        // No signal to unhook: the promise's own functions are the waiter (less heap per pending question).
        waiters.set(rpcId, { resolve, reject });
      } else {
        const onAbort = () => abortBlocking(rpcId, signal.reason);
        waiters.set(rpcId, {
          resolve: (answer) => {
            signal.removeEventListener('abort', onAbort);
            resolve(answer);
          },
          reject: (error) => {
            signal.removeEventListener('abort', onAbort);
            reject(error);
          },
        });
        signal.addEventListener('abort', onAbort, { once: true });
      }
      // The seam passes urgency through unchecked; a level we do not know is read as medium.
      const urgency = request.urgency === undefined ? undefined : askUserQuestionUrgencySchema.catch('medium').parse(request.urgency);
      const record: QuestionRecord = {
        rpcId,
        sessionId: agent.id,
        askedBy: agent.id,
        askedAt: new Date().toISOString(),
        questions,
        mode: 'blocking',
        ...(urgency === undefined ? {} : { urgency }),
        // Another node that settles it must know where the asker waits.
        ...(bus === undefined ? {} : { askedOn: bus.nodeId }),
      };
      // Frozen, with the seam's sealed questions: the in-memory store keeps this very object.
      Object.freeze(record);
      void enqueue(record).then((saved) => {
        if (saved.ok) return;
        const waiter = waiters.get(rpcId);
        waiters.delete(rpcId);
        waiter?.reject(new UserQuestionError('ASK_ABORTED', `The question could not be saved, so nobody was asked: ${String(saved.error)}`, { cause: saved.error }));
      });
    });
  }

  async function askDetached(request: DetachedAskRequest): Promise<{ rpcId: string }> {
    const checked = checkDetachedAsk(request);
    if (closed) throw new UserQuestionError('ASK_ABORTED', 'The WebSocket host is closed, so nobody can answer the question.');
    const record: QuestionRecord = { rpcId: randomUUID(), askedAt: new Date().toISOString(), mode: 'detached', ...checked };
    const saved = await enqueue(record);
    if (!saved.ok) throw new WebSocketHostError('STORE_FAILED', `The detached question could not be saved, so nobody was asked: ${String(saved.error)}`, { cause: saved.error });
    return { rpcId: record.rpcId };
  }

  /**
   * Make a question pending: listed at once (in ask order), saved, and only then logged, delivered
   * and notified. Resolves when the store has it (or has refused it, and the question is gone).
   */
  function enqueue(record: QuestionRecord): Promise<{ ok: true } | { ok: false; error: unknown }> {
    const entry = new PendingQuestion(record, pending.nextSeq(), { saved: false });
    pending.add(entry);
    emit({ type: 'asked', rpcId: record.rpcId, sessionId: record.sessionId, questions: record.questions, askedAt: record.askedAt });
    logger.info('question asked', { rpcId: record.rpcId, sessionId: record.sessionId, mode: record.mode, count: record.questions.length });
    // `async` turns a store that throws synchronously into a rejection like any other.
    const done = (async () => store.save(record))().then(
      () => {
        entry.saved = true;
        const { rpcId, sessionId, askedBy, mode, questions, urgency } = record;
        eventLog.append({ type: 'human_input_requested', rpcId, sessionId, data: { askedBy, mode, questions, ...(urgency === undefined ? {} : { urgency }) } });
        // Settled (aborted) or withdrawn by close while it was being saved: nobody is to see it now.
        if (pending.get(rpcId) === entry) {
          // Serialised once for everyone who may see the session.
          const text = JSON.stringify(requestedFrame(entry));
          for (const connection of connections.audience(sessionId)) deliver(connection, entry, text, { replay: false });
          publish({ type: 'asked', record });
        }
        if (!closed || !ownsStore) callNotifier(config.notify, record, logger);
        return { ok: true as const };
      },
      (error: unknown) => {
        logger.error('could not save a question; it was not asked', { rpcId: record.rpcId, error: String(error) });
        pending.claim(record.rpcId);
        return { ok: false as const, error };
      },
    );
    saves.set(record.rpcId, done);
    track(done.finally(() => saves.delete(record.rpcId)));
    return done;
  }

  /** The blocking asker gave up (its signal, or the seam's timeout through it): withdraw the question everywhere. */
  function abortBlocking(rpcId: string, reason: unknown): void {
    const entry = pending.claim(rpcId);
    if (entry === undefined) {
      // An answer is being claimed right now: the asker still gives up, and if that answer wins it
      // finds no waiter and goes to onResume instead of to an ask that has already ended.
      const waiter = waiters.get(rpcId);
      waiters.delete(rpcId);
      waiter?.reject(new UserQuestionError('ASK_ABORTED', 'The question was aborted while waiting for an answer.', { cause: reason }));
      return;
    }
    const waiter = waiters.get(rpcId);
    waiters.delete(rpcId);
    broadcastResolved(entry, 'cancelled');
    emit({ type: 'aborted', rpcId, sessionId: entry.sessionId, by: 'signal' });
    logger.info('question aborted by its asker', { rpcId, sessionId: entry.sessionId });
    waiter?.reject(new UserQuestionError('ASK_ABORTED', 'The question was aborted while waiting for an answer.', { cause: reason }));
    // The seam aborts with its own ASK_TIMEOUT error as the reason when its deadline passes.
    const timedOut = hasUserQuestionErrorCode(reason, 'ASK_TIMEOUT');
    track(settleInStore(entry, timedOut ? 'timed_out' : 'aborted', () =>
      eventLog.append(timedOut ? { type: 'timed_out', rpcId, sessionId: entry.sessionId, data: {} } : { type: 'aborted', rpcId, sessionId: entry.sessionId, data: { by: 'signal' } }),
    ));
  }

  /** Record an asker-side settlement once the question's save has finished (a claim must not overtake its save). */
  async function settleInStore(entry: PendingQuestion, outcome: 'aborted' | 'timed_out', logIt: () => void): Promise<void> {
    await saves.get(entry.rpcId);
    if (!entry.saved) return;
    try {
      const settled = await store.claim(entry.rpcId, outcome);
      logIt();
      // Undefined: a person's answer on another node won; that node tells everyone.
      if (settled !== undefined) publish({ type: 'settled', record: settled });
    } catch (error) {
      logger.error('could not record a withdrawn question in the store; it may be replayed after a restart', { rpcId: entry.rpcId, error: String(error) });
    }
  }

  // ── connections ─────────────────────────────────────────────────────────────────

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (pathOf(req) !== config.path) {
      // Another path on an attached server belongs to another listener: leave its socket alone.
      // When we are the only upgrade listener nobody else will ever answer it, so it is ours to refuse.
      if (!ownServer && server.listenerCount('upgrade') > 1) return;
      // Node takes its own 'error' listener off an upgraded socket: without ours, a peer's reset
      // (while the refusal is written, or just read) is an unhandled error that ends the process.
      socket.on('error', (error) => logger.debug('socket error on a refused upgrade', { error: String(error) }));
      refuseUpgrade(socket, 404);
      return;
    }
    void acceptUpgrade(req, socket, head);
  }

  async function acceptUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // Until ws takes the socket over, a reset during a slow `authenticate` must not be an unhandled error.
    const onSocketError = (error: Error) => logger.debug('socket error during upgrade', { error: String(error) });
    socket.on('error', onSocketError);
    authenticating.add(socket);
    try {
      if (closed) return refuseUpgrade(socket, 503);
      const decision = await authorizeUpgrade(req, auth);
      if (closed) return refuseUpgrade(socket, 503);
      if (!decision.ok) {
        const remoteAddress = req.socket.remoteAddress;
        emit({ type: 'auth-failed', status: decision.status, reason: decision.reason, ...(remoteAddress === undefined ? {} : { remoteAddress }) });
        logger.info('upgrade refused', { status: decision.status, reason: decision.reason, remoteAddress });
        return refuseUpgrade(socket, decision.status);
      }
      if (socket.destroyed) return;
      // Checked here, after the last await: handleUpgrade accepts synchronously, so no other upgrade slips in between.
      const full = connectionCapRefusal(decision.principal);
      if (full !== undefined) {
        logger.warn('upgrade refused: too many connections', { status: full.status, reason: full.reason, principalId: decision.principal.id });
        return refuseUpgrade(socket, full.status);
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        socket.off('error', onSocketError);
        accept(ws, socket, decision.principal);
      });
    } catch (error) {
      logger.error('upgrade failed', { error: String(error) });
      socket.destroy();
    } finally {
      authenticating.delete(socket);
    }
  }

  /**
   * Why one more connection may not be accepted, or undefined when it may. Connections still
   * closing count: their unread frames are still in memory.
   */
  function connectionCapRefusal(principal: Principal): { status: 429 | 503; reason: string } | undefined {
    if (connections.size >= config.maxConnections) return { status: 503, reason: `the host has maxConnections (${config.maxConnections}) open` };
    // The host's own token and anonymous principals are everyone who holds the token (or reaches
    // the port), not one user: only maxConnections bounds them.
    if (!seesEverything(principal) && connections.countOf(principal.id) >= config.maxConnectionsPerPrincipal) {
      return { status: 429, reason: `the principal has maxConnectionsPerPrincipal (${config.maxConnectionsPerPrincipal}) open` };
    }
    return undefined;
  }

  function accept(ws: WebSocket, transport: Duplex, principal: Principal): void {
    const connection = new HostConnection(`c${++connectionCount}`, principal, ws, transport, limits, logger);
    ws.on('error', (error) => logger.debug('socket error', { connectionId: connection.id, error: String(error) }));
    if (closed) {
      connection.close(closeCodes.goingAway, 'host closing');
      return;
    }
    connections.add(connection);
    ws.on('pong', (payload) => connection.onPong(payload));
    // One frame at a time per connection, in arrival order: a respond is judged against the store
    // asynchronously, and its receipt must still come before the reply to any later frame.
    ws.on('message', (data, isBinary) => {
      connection.heardSinceEcho = true;
      connection.serially(() => onMessage(connection, data, isBinary));
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
    // `sessions` is only a hint: unless the principal promises it is complete, every pending
    // question is a candidate and canSee decides, so a session left off the list is not hidden.
    const scope = connection.scope;
    const candidates = scope === undefined ? pending.all() : pending.ofSessions(scope);
    // A question still being saved is delivered live once it is saved, not here.
    const replay = candidates.filter((entry) => entry.saved && connection.canSee(entry.sessionId));
    // The hello and as much of the replay as maxBufferedBytes allows leave in one write; the rest
    // follows as the peer reads (a client that never reads must not pin the whole replay).
    connection.batch(() => {
      connection.send(
        {
          type: 'hello',
          protocol: PROTOCOL_VERSION,
          ...(sessions === undefined ? {} : { sessions }),
          pending: replay.map((entry) => entry.rpcId),
        },
        { checkBuffer: false },
      );
      connection.replay(
        replay.map((entry) => ({ text: () => JSON.stringify(requestedFrame(entry)), onSent: () => recordDelivery(connection, entry, { replay: true }) })),
      );
    });
  }

  function requestedFrame(entry: PendingQuestion): QuestionRequestedFrame {
    return {
      type: 'question/requested',
      rpcId: entry.rpcId,
      sessionId: entry.sessionId,
      questions: entry.questions,
      askedAt: entry.askedAt,
      ...(entry.record.urgency === undefined ? {} : { urgency: entry.record.urgency }),
    };
  }

  /** Send one question frame (`text`, its serialised `question/requested`) to one connection, and record that it went. */
  function deliver(connection: HostConnection, entry: PendingQuestion, text: string, { replay }: { replay: boolean }): void {
    if (connection.sendText(text, { checkBuffer: !replay })) recordDelivery(connection, entry, { replay });
  }

  function recordDelivery(connection: HostConnection, entry: PendingQuestion, { replay }: { replay: boolean }): void {
    emit({ type: 'delivered', rpcId: entry.rpcId, sessionId: entry.sessionId, connectionId: connection.id, replay });
    eventLog.append({ type: 'delivered', rpcId: entry.rpcId, sessionId: entry.sessionId, data: { channel: 'websocket', connectionId: connection.id, replay } });
  }

  async function onMessage(connection: HostConnection, data: RawData, isBinary: boolean): Promise<void> {
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
    else if (frame.type === 'question/respond') {
      const outcome = await judge(frame, connection.principal, (sessionId) => connection.canSee(sessionId), {
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

  // ── answering (WebSocket and HTTP alike) ────────────────────────────────────────

  /**
   * Judge one response with the ordered checks of respond.ts, send its receipt through `reply`,
   * then tell everyone and hand a settled record to whoever waits for it.
   */
  function judge(input: RespondInput, principal: Principal, canSee: (sessionId: string) => boolean, via: ResponseVia): Promise<RespondOutcome> {
    // close() waits for a judgement in flight: its claim may still settle a question.
    const work = judgeNow(input, principal, canSee, via);
    track(work.then(noop, noop));
    return work;
  }

  async function judgeNow(input: RespondInput, principal: Principal, canSee: (sessionId: string) => boolean, via: ResponseVia): Promise<RespondOutcome> {
    const outcome = await respond(input, canSee, { pending, store });
    // The receipt and the question/resolved that follows it reach the responder in one write.
    (via.batch ?? runNow)(() => {
      via.reply?.(outcome.receipt);
      if (outcome.kind === 'answered' || outcome.kind === 'cancelled') broadcastResolved(outcome.record, outcome.kind);
    });
    const { channel, connectionId } = via;
    const principalId = principal.id;
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
          track(confirmLater(outcome, principalId, via));
        }
        // The rpcId is the sender's, unchecked: a real one is 36 characters, a crafted one may be a megabyte.
        const shownRpcId = clipText(rpcId, 200);
        emit({ type: 'response-rejected', rpcId: shownRpcId, connectionId, principalId, reason, channel, ...(detail === undefined ? {} : { detail }) });
        logger.info('response rejected', { rpcId: shownRpcId, connectionId, reason, detail });
        // Lost the store's claim to another process: our clients saw the entry go and must hear how it ended.
        if (reason === 'not-pending' && outcome.entry?.saved === true && pending.get(rpcId) === undefined) track(tellOutcome(outcome.entry));
        // A late answer to a settled question belongs in its session's log too: look the session up.
        const sessionId = outcome.entry?.saved ? outcome.entry.sessionId : reason === 'not-pending' ? await settledSessionOf(rpcId) : undefined;
        if (sessionId !== undefined && mayLogRejection(principalId)) {
          eventLog.append({ type: 'response_rejected', rpcId, sessionId, data: { reason, principalId, channel, ...(detail === undefined ? {} : { detail }) } });
        }
        return outcome;
      }
      case 'cancelled':
      case 'answered':
        announceSettled(outcome, principalId, via);
        return outcome;
    }
  }

  /** A response the store recorded: tell the other nodes, the hooks and the log, and hand the record to whoever waits for it. */
  function announceSettled(
    settled: { kind: 'answered'; record: QuestionRecord; answer: AskUserQuestionAnswer } | { kind: 'cancelled'; record: QuestionRecord; message?: string },
    principalId: string,
    via: ResponseVia,
  ): void {
    const { channel, connectionId } = via;
    const { record } = settled;
    const rpcId = record.rpcId;
    if (settled.kind === 'cancelled') {
      const { message } = settled;
      publish({ type: 'settled', record, ...(message === undefined ? {} : { message }) });
      emit({ type: 'cancelled', rpcId, sessionId: record.sessionId, connectionId, principalId, channel });
      logger.info('question dismissed by the user', { rpcId, sessionId: record.sessionId });
      eventLog.append({ type: 'cancelled', rpcId, sessionId: record.sessionId, data: { principalId, channel, ...(message === undefined ? {} : { message }) } });
      handOver(record, message);
      return;
    }
    publish({ type: 'settled', record });
    emit({ type: 'answered', rpcId, sessionId: record.sessionId, connectionId, principalId, answer: settled.answer, channel });
    logger.info('question answered', { rpcId, sessionId: record.sessionId });
    eventLog.append({ type: 'response_from_human', rpcId, sessionId: record.sessionId, data: { answer: settled.answer, principalId, channel } });
    handOver(record);
  }

  /**
   * A response whose claim the store may or may not have run (its reply was lost and it could not
   * be read back): keep reading the record until the store answers, then act on what it holds.
   * Until then the question is neither pending here nor settled; if the host closes first, the
   * next host on the store finds it pending (replayed) or settled (handed to onResume).
   */
  async function confirmLater(outcome: Extract<RespondOutcome, { kind: 'unconfirmed' }>, principalId: string, via: ResponseVia): Promise<void> {
    const { entry } = outcome;
    const after = await readBack(store, entry.rpcId, confirmDelaysMs(), closeSignal.signal);
    if (!after.known || closed) {
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
      if (record?.outcome !== undefined) adoptSettled(record, undefined, entry);
      return;
    }
    broadcastResolved(entry, outcome.outcome);
    if (outcome.outcome === 'answered' && outcome.answer !== undefined) announceSettled({ kind: 'answered', record: record!, answer: outcome.answer }, principalId, via);
    else announceSettled({ kind: 'cancelled', record: record!, ...(outcome.message === undefined ? {} : { message: outcome.message }) }, principalId, via);
  }

  /** Whether one more rejection of this principal goes to the event log this window (`maxLoggedRejections`). */
  function mayLogRejection(principalId: string): boolean {
    const { log, firstDropped } = rejectionBudget.take(principalId);
    if (firstDropped) {
      logger.warn('a principal sent more rejected responses than maxLoggedRejections; the rest this window are not written to the event log', {
        principalId,
        maxLoggedRejections: config.maxLoggedRejections,
        windowMs: config.badFrameWindowMs,
      });
    }
    return log;
  }

  /**
   * Another process settled a question this node had just taken out of its table: tell this
   * node's clients how it ended (as the store has it) and hand the answer to its asker if it waits here.
   */
  async function tellOutcome(entry: PendingQuestion): Promise<void> {
    try {
      const record = await store.get(entry.rpcId);
      if (record?.outcome !== undefined) adoptSettled(record, undefined, entry);
    } catch (error) {
      logger.error('could not read how another process settled a question', { rpcId: entry.rpcId, error: String(error) });
    }
  }

  /** The session of a question the store still knows (settled), or undefined. */
  async function settledSessionOf(rpcId: string): Promise<string | undefined> {
    try {
      return (await store.get(rpcId))?.sessionId;
    } catch (error) {
      logger.error('could not read a question from the store', { rpcId, error: String(error) });
      return undefined;
    }
  }

  /**
   * A settled record goes to its blocking asker when one waits in this process, else to the node
   * where it waits (which takes it from the `settled` message), else to `onResume`.
   */
  function handOver(record: QuestionRecord, message?: string): void {
    const waiter = waiters.get(record.rpcId);
    if (waiter === undefined) {
      track(resumeOrphans([record]));
      return;
    }
    if (takeResumeLease === undefined) {
      giveToAsker(record, waiter, message);
      return;
    }
    // Another node that took this one for gone may be handing the record to its onResume: the resume
    // lease decides which of the two delivers it, so the answer reaches exactly one of them.
    if (leasingForAsker.has(record.rpcId)) return;
    leasingForAsker.add(record.rpcId);
    track(leaseForAsker(takeResumeLease, record, message).finally(() => leasingForAsker.delete(record.rpcId)));
  }

  async function leaseForAsker(takeLease: (rpcId: string) => Promise<boolean>, record: QuestionRecord, message: string | undefined): Promise<void> {
    let mine: boolean;
    try {
      mine = await takeLease(record.rpcId);
    } catch (error) {
      // The record stays awaiting its resume, so the next reconcile finds it and tries again.
      logger.error('could not take the resume lease to give an answer to its asker; the next reconcile tries again', { rpcId: record.rpcId, error: String(error) });
      return;
    }
    const waiter = waiters.get(record.rpcId);
    if (!mine) {
      if (waiter === undefined) return;
      waiters.delete(record.rpcId);
      waiter.reject(
        new UserQuestionError(
          'ASK_ABORTED',
          'The question was answered, but another node took this one for gone (it could not reach Redis) and handed the answer to its onResume; the answer is there, under the same rpcId.',
        ),
      );
      return;
    }
    // The asker gave up (or the host closed) while the lease was being taken: the answer goes to onResume, under the lease we hold.
    if (waiter === undefined) resumer.resume(record, { leased: true });
    else giveToAsker(record, waiter, message);
  }

  function giveToAsker(record: QuestionRecord, waiter: Waiter, message: string | undefined): void {
    waiters.delete(record.rpcId);
    handedToAsker.add(record.rpcId);
    // A copy nobody else holds: the store's record, the event log and the asker must not share one object.
    if (record.outcome === 'answered' && record.answer !== undefined) waiter.resolve(copyAnswer(record.answer));
    else {
      const said = message === undefined ? '' : ` They said: ${message}`;
      waiter.reject(new UserQuestionError('ASK_CANCELLED', `The user dismissed the questions without answering.${said}`));
    }
    // The asker has it: neither a restart nor another node may hand it to onResume as well (retried until it lands).
    track(marks.mark(record.rpcId));
  }

  /**
   * A settled record read from the store (or a bus message) whose answer does not fit its
   * questions is never handed over: it is quarantined, and an asker waiting for it here ends
   * `ASK_ABORTED` rather than with an answer nobody was offered. True when refused.
   */
  function refuseStoredAnswer(record: QuestionRecord): boolean {
    const problem = storedAnswerProblem(record);
    if (problem === undefined) return false;
    setAside(record.rpcId, record.sessionId, problem);
    const waiter = waiters.get(record.rpcId);
    waiters.delete(record.rpcId);
    waiter?.reject(new UserQuestionError('ASK_ABORTED', `The store holds an answer to the question that does not fit it, so it was set aside: ${problem}`));
    return true;
  }

  /** Quarantine a stored record: skipped from now on; logged, reported to onEvent and to its session's event log the first time. */
  function setAside(rpcId: string, sessionId: string | undefined, reason: string): void {
    const entry = quarantine.add(rpcId, sessionId, reason);
    if (entry === undefined) return;
    logger.warn('a stored question cannot be used; it was quarantined (left in the store as it is, and skipped)', { rpcId, sessionId, reason: entry.reason });
    emit({ type: 'quarantined', rpcId, ...(sessionId === undefined ? {} : { sessionId }), reason: entry.reason });
    if (sessionId !== undefined) eventLog.append({ type: 'record_quarantined', rpcId, sessionId, data: { reason: entry.reason } });
  }

  function broadcastResolved(entry: { rpcId: string; sessionId: string }, outcome: 'answered' | 'cancelled'): void {
    const frame: QuestionResolvedFrame = { type: 'question/resolved', rpcId: entry.rpcId, sessionId: entry.sessionId, outcome };
    const text = JSON.stringify(frame);
    for (const connection of connections.audience(entry.sessionId)) connection.sendText(text, { checkBuffer: true });
  }

  // ── other nodes (with a bus; docs/scaling.md) ──────────────────────────────────

  /** Tell the other nodes, without holding anything up: a lost message is repaired by their next reconcile. */
  function publish(message: OutgoingBusMessage): void {
    if (bus === undefined) return;
    track(
      bus.publish({ ...message, from: bus.nodeId }).then(undefined, (error: unknown) =>
        logger.error('could not tell the other nodes; they catch up at their next reconcile', { type: message.type, rpcId: message.record.rpcId, error: String(error) }),
      ),
    );
  }

  function onBusMessage(message: QuestionBusMessage): void {
    if (startQueue !== undefined && !closed) startQueue.push(message);
    else track(applyBusMessage(message));
  }

  /**
   * A bus message is a hint, not the truth: anyone who can reach Redis can publish one. Act on the
   * record as the store holds it, never on the message's copy (docs/scaling.md).
   */
  async function applyBusMessage(message: QuestionBusMessage): Promise<void> {
    // While closing, only news of our own askers' answers matters (below).
    if (closed && message.type === 'asked') return;
    const record = await recordBehind(message);
    if (record === undefined) return;
    if (closed) {
      // Still on the bus while closing, so the others think our askers live: take their answers to onResume.
      if (record.askedOn === bus?.nodeId && record.outcome !== undefined && humanOutcomes.includes(record.outcome)) await resumeOrphans([record]);
      return;
    }
    if (message.type === 'asked') adoptPending(record);
    // The dismissal's words travel on the bus only: taken when the store confirms the dismissal.
    else adoptSettled(record, record.outcome === 'cancelled' ? message.message : undefined);
  }

  /** The store's record behind a bus message, or undefined when the store does not bear the message out. */
  async function recordBehind(message: QuestionBusMessage): Promise<QuestionRecord | undefined> {
    const { type, from } = message;
    const rpcId = message.record.rpcId;
    let record: QuestionRecord | undefined;
    try {
      record = await store.get(rpcId);
    } catch (error) {
      logger.error('could not read the question a bus message is about; the next reconcile catches up', { type, rpcId, from, error: String(error) });
      return undefined;
    }
    // A node saves before it publishes `asked` and claims before it publishes `settled`, so anything else was not sent by a node.
    if (record === undefined || (type === 'settled' && record.outcome === undefined)) {
      logger.warn('ignored a bus message the store does not bear out (not published by a host node?)', { type, rpcId, from, stored: record === undefined ? 'unknown' : 'pending' });
      return undefined;
    }
    // An `asked` whose question was settled meanwhile is old news: adoptPending skips a settled record.
    return record;
  }

  /** A question asked on another node: pending here too, shown to this node's sockets of its session. */
  function adoptPending(record: QuestionRecord): void {
    if (record.outcome !== undefined || pending.get(record.rpcId) !== undefined || pending.wasSettled(record.rpcId)) return;
    const entry = new PendingQuestion(record, pending.nextSeq(), { saved: true });
    pending.add(entry);
    const text = JSON.stringify(requestedFrame(entry));
    for (const connection of connections.audience(record.sessionId)) deliver(connection, entry, text, { replay: false });
  }

  /**
   * A question settled by another process: gone here (`entry`, when this node still listed it, is
   * told to its clients), and its answer handed to the asker if it waits in this process.
   */
  function adoptSettled(record: QuestionRecord, message?: string, entry = pending.claim(record.rpcId)): void {
    pending.noteSettledElsewhere(record.rpcId);
    if (entry !== undefined) broadcastResolved(entry, record.outcome === 'answered' ? 'answered' : 'cancelled');
    if (record.outcome === undefined || !humanOutcomes.includes(record.outcome)) return;
    if (refuseStoredAnswer(record)) return;
    if (waiters.has(record.rpcId)) handOver(record, message);
    // Our asker gave up while the person answered elsewhere and won: the answer still goes somewhere.
    else if (bus !== undefined && record.askedOn === bus.nodeId) track(resumeOrphans([record]));
  }

  /**
   * Hand settled records to the resume handler, except those whose asker waits here or on another
   * live node (that node takes them). The lease in the resumer keeps two nodes from both doing it.
   */
  async function resumeOrphans(records: QuestionRecord[]): Promise<void> {
    for (const record of records) {
      if (handedToAsker.has(record.rpcId)) continue;
      if (refuseStoredAnswer(record)) continue;
      // Settled elsewhere and its news lost (or our own claim lost the race): our asker still waits for it.
      if (waiters.has(record.rpcId)) {
        handOver(record);
        continue;
      }
      const askedOn = record.askedOn;
      if (bus !== undefined && askedOn !== undefined && askedOn !== bus.nodeId) {
        try {
          if (await bus.isNodeAlive(askedOn)) continue;
        } catch (error) {
          logger.error('could not tell whether an asker\'s node is alive; the next reconcile tries again', { rpcId: record.rpcId, error: String(error) });
          continue;
        }
      }
      resumer.resume(record);
    }
  }

  /**
   * Re-read the store and repair whatever the bus lost: questions asked elsewhere come in (and are
   * shown), questions settled elsewhere go (and reach their asker here), and settled records whose
   * asker's node is gone go to the resume handler. Runs every `reconcileMs` and when the bus is back.
   */
  function reconcile(): Promise<void> {
    if (closed) return Promise.resolve();
    if (startQueue !== undefined) {
      // The start's own read of the store may predate whatever was lost: reconcile once it is done.
      reconcileAgain = true;
      return Promise.resolve();
    }
    if (reconciling !== undefined) {
      // The running pass may have read the store before whatever prompted this call: run once more after it.
      reconcileAgain = true;
      return reconciling;
    }
    reconciling = (async () => {
      do {
        reconcileAgain = false;
        await runReconcile();
      } while (reconcileAgain && !closed);
    })().finally(() => (reconciling = undefined));
    return reconciling;
  }

  async function runReconcile(): Promise<void> {
    let stillPending: QuestionRecord[];
    let awaiting: QuestionRecord[];
    try {
      stillPending = await store.listPending('all', { onUnreadable });
      awaiting = await store.listAwaitingResume({ onUnreadable });
    } catch (error) {
      logger.error('could not read the store to reconcile; trying again later', { error: String(error) });
      return;
    }
    if (closed) return;
    const pendingIds = new Set(stillPending.map((record) => record.rpcId));
    for (const entry of pending.all()) {
      // Our own question still being saved is not in the store yet, and is not gone.
      if (!entry.saved || pendingIds.has(entry.rpcId)) continue;
      let record: QuestionRecord | undefined;
      try {
        record = await store.get(entry.rpcId);
      } catch (error) {
        logger.error('could not read a question from the store', { rpcId: entry.rpcId, error: String(error) });
        continue;
      }
      // Saved after our read of the pending list: still pending after all.
      if (record?.outcome === undefined || closed) continue;
      if (pending.get(entry.rpcId) === entry) adoptSettled(record);
    }
    if (closed) return;
    for (const record of stillPending) adoptPending(record);
    await resumeOrphans(awaiting);
  }

  async function closeBus(): Promise<void> {
    try {
      await bus?.close();
    } catch (error) {
      logger.error('could not close the question bus', { error: String(error) });
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
    // A mark still failing gets one last try: close() must not wait for a store that may never come back.
    marks.stop();
    closeSignal.abort();
    unregister();
    stopHeartbeat();
    clearInterval(reconcileTimer);
    server.off('upgrade', onUpgrade);
    for (const entry of pending.claimAll()) {
      const waiter = waiters.get(entry.rpcId);
      waiters.delete(entry.rpcId);
      if (ownsStore) {
        // Our own store dies with us: withdraw the question everywhere.
        broadcastResolved(entry, 'cancelled');
        emit({ type: 'aborted', rpcId: entry.rpcId, sessionId: entry.sessionId, by: 'host-close' });
        waiter?.reject(new UserQuestionError('ASK_ABORTED', 'The WebSocket host closed while the question was waiting for an answer.'));
        track(settleInStore(entry, 'aborted', () => eventLog.append({ type: 'aborted', rpcId: entry.rpcId, sessionId: entry.sessionId, data: { by: 'host-close' } })));
      } else if (waiter !== undefined) {
        // A store that outlives us keeps the question pending: the next host replays it, and its answer goes to onResume.
        emit({ type: 'aborted', rpcId: entry.rpcId, sessionId: entry.sessionId, by: 'host-close' });
        waiter.reject(
          new UserQuestionError(
            'ASK_ABORTED',
            'The WebSocket host closed while the question was waiting for an answer; it stays pending in the store, and its answer will go to onResume of the next host on that store.',
          ),
        );
      }
    }
    // Askers whose question was out of the table (an answer being claimed) end too.
    for (const [rpcId, waiter] of waiters) {
      waiters.delete(rpcId);
      waiter.reject(new UserQuestionError('ASK_ABORTED', 'The WebSocket host closed while the answer to the question was being recorded.'));
    }
    await Promise.all([closeConnections(), refuseAuthenticating()]);
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    if (ownServer) {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
    }
    // Whatever was already on its way to the store gets there before the app closes the store.
    while (background.size > 0) await Promise.all(background);
    await reconciling;
    await resumer.drain();
    await eventLog.drain();
    // Last: the other nodes see this one gone only once nothing of ours is still on its way.
    if (bus !== undefined) await closeBus();
    logger.info('askseam host closed');
  }

  /** Keep `work` until it settles, so that close() can wait for it. It must not reject. */
  function track(work: Promise<unknown>): void {
    background.add(work);
    void work.finally(() => background.delete(work));
  }

  /**
   * Answer 503 to every upgrade still waiting for `authenticate` and hang up: its answer, when it
   * comes, finds the host closed. A peer that does not take the 503 within closeTimeoutMs is cut.
   */
  async function refuseAuthenticating(): Promise<void> {
    const all = [...authenticating];
    if (all.length === 0) return;
    logger.info('refusing upgrades still being authenticated', { count: all.length });
    const finished = Promise.all(all.map((socket) => (socket.destroyed ? undefined : new Promise((resolve) => socket.once('close', resolve)))));
    for (const socket of all) refuseUpgrade(socket, 503);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), config.closeTimeoutMs);
    });
    if ((await Promise.race([finished, timedOut])) === 'timeout') {
      for (const socket of all) socket.destroy();
      await finished;
    }
    clearTimeout(timer);
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

const parseQuestions = compiledSafeParse(askUserQuestionsSchema);

/** A checked copy of questions that did not come from the seam's check; throws INVALID_QUESTIONS. */
function parseOwnCopy(questions: unknown): AskUserQuestionItem[] {
  const parsed = parseQuestions(questions);
  if (!parsed.success) throw new UserQuestionError('INVALID_QUESTIONS', `The questions do not match the question schema: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  return parsed.data;
}

function noop(): void {}

/** At most `max` UTF-16 units of `text`, never half a surrogate pair, with … when cut. */
function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

function runNow(work: () => void): void {
  work();
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
