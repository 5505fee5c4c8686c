import { openChannel, type ChannelPort, type HostChannel, type HostChannelOptions } from './channel-port.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryQuestionStore, type QuestionRecord, type QuestionStore, type UnreadableRecord } from '@askseam/store';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import * as z from 'zod';
import { Asks } from './asks.js';
import { BusCluster, standalone, type Cluster } from './cluster.js';
import { Delivery } from './delivery.js';
import type { DetachedAskRequest } from './detached.js';
import { WebSocketHostError } from './errors.js';
import { adoptVotes } from './quorum.js';
import { HandOver, Waiters } from './hand-over.js';
import { createHttpHandler } from './http-api.js';
import { safeCanSee } from './principal.js';
import { Judge } from './judge.js';
import { LinkSigner, QuestionLinks, type LinkForOptions } from './link.js';
import { BackgroundWork, Lifecycle } from './lifecycle.js';
import { safeLogger } from './logger.js';
import { resolveOptions, type WebSocketHostOptions } from './options.js';
import { PendingQuestion, PendingTable } from './pending.js';
import { Quarantine, type QuarantinedQuestion } from './quarantine.js';
import { RejectionBudget } from './rejection-budget.js';
import { Reporter } from './reporter.js';
import { Resumer } from './resume.js';
import { runAgentAnswerers } from './agent-answering.js';
import { Routing } from './routing.js';
import { readAwaitingResume, sharedAwaitingResumeReader } from './awaiting-resume.js';
import { canFollow, Share } from './share.js';
import { ResumeMarks } from './resume-marks.js';
import { SocketServer, type HostConnectionInfo } from './socket-server.js';
import { resolveFetchHandlerOptions, type FetchHandlerOptions } from './sse-options.js';
import { SseTransport, type FetchHandler } from './sse-transport.js';
import { HostTelemetry } from './telemetry.js';

export type { HostConnectionInfo } from './socket-server.js';

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
  /** The questions waiting for an answer that this node holds, in ask order (copies): all of them, or with `holds: 'share'` its share (docs/scaling.md). */
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
   * A URL of the `linkBaseUrl` page carrying a signed capability (`?link=…`) that can see and
   * answer this one pending question only, until `expiresIn` ms (default a day) pass or the
   * question is settled. Works for every question `pending()` lists, also one whose save has not
   * landed yet (the link then waits for it). Throws `NO_LINK_BASE_URL` without `linkBaseUrl`,
   * `NOT_PENDING` for a question `pending()` does not list. See docs/protocol.md, "One-question links".
   */
  linkFor(rpcId: string, options?: LinkForOptions): string;
  /**
   * Serve a plain HTTP request if it is the host's (its `path` and below: the HTTP API) and return
   * true; return false, touching nothing, for any other request. The host's own listener uses it;
   * with `server`, call it first in your request handler: `if (host.handleRequest(req, res)) return;`.
   */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * The HTTP + Server-Sent Events transport of this host, as a Web-standard handler
   * `(request: Request) => Promise<Response>`: `GET <path>/events` streams the socket's frames,
   * `POST <path>/respond` judges one response and answers with its receipt (docs/protocol.md,
   * "HTTP + Server-Sent Events"). Same pending questions, auth rules, limits and respond checks as
   * the WebSocket. Mount it in Node (`toNodeListener`), Hono (`c => handler(c.req.raw)`) or a
   * Next.js route handler. Each call makes one more handler; close() ends their streams.
   */
  fetchHandler(options?: FetchHandlerOptions): FetchHandler;
  /**
   * Let an in-process channel (chat, e-mail, …) show this host's questions and answer them: it is
   * handed every pending question it may see and told when each ends (with who answered), and its
   * responses go through the same judging as a socket's, recorded with `answeredBy.via` = `via`
   * (docs/channels.md, "Writing a channel"). Throws `INVALID_OPTIONS` for a bad `via` or callback,
   * `CLOSED` after close().
   */
  openChannel(options: HostChannelOptions): HostChannel;
  /**
   * The stored questions this host set aside because it could not use them (a record it cannot
   * read, or a settled answer that does not fit its questions), in the order it met them. They stay
   * in the store as they are; repair or delete them there (docs/durability.md).
   */
  quarantined(): QuarantinedQuestion[];
  /**
   * Withdraw a pending question (an operator's call, or the console's "withdraw"): it is settled
   * `aborted` in the store, on every node, its asker's `ask()` rejects `ASK_ABORTED` (its `cause` a
   * `WebSocketHostError` `WITHDRAWN` naming the operator and reason), and its session's event log
   * gets an `aborted` event `{ by: 'operator', principalId, reason }`. `by` defaults to `'app'`.
   * Resolves false when it is not pending (unknown, settled, or an answer won the race); rejects
   * `STORE_FAILED` when the store could not record it (it stays pending). See docs/console.md.
   */
  withdraw(rpcId: string, options?: { reason?: string; by?: string }): Promise<boolean>;
  /**
   * Call `notify` again for a question still pending in the store (its first message went missing,
   * or the person was away). False when it is not pending; rejects `NO_NOTIFY` without `notify`.
   */
  resendNotification(rpcId: string): Promise<boolean>;
  /**
   * Stop serving: every pending ask rejects `ASK_ABORTED`, sockets close with 1001, the provider
   * is unregistered, the heartbeat stops, the upgrade listener is removed, and the host's own
   * listener (not an attached server) is closed. With the host's own in-memory store, pending
   * questions are withdrawn (`aborted`); in a store you passed they stay pending for the next host.
   * Waits for saves, event-log appends and resume handlers already started. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Serve `userQuestions` over WebSocket: register as its provider, push each question to the
 * connections that may see the asking agent's session, and settle the ask with the first answer
 * that fits. Resolves once the host has loaded its store's pending questions and is listening (or attached).
 *
 * This function only wires the parts together and runs the start and close sequences; each part
 * has its own file (docs/architecture.md, "The host (packages/host-ws)").
 */
export async function createWebSocketHost(options: WebSocketHostOptions): Promise<WebSocketHost> {
  const config = resolveOptions(options);
  const logger = safeLogger(config.logger);
  // A store we made is ours to settle on close; one we were given outlives us.
  const ownsStore = config.store === undefined;
  const store: QuestionStore = config.store ?? new MemoryQuestionStore();
  const reporter = new Reporter(config.onEvent, logger, store, HostTelemetry.create(config.telemetry));
  const lifecycle = new Lifecycle();
  const work = new BackgroundWork();
  /** Aborted when close() starts: ends the waits of work that would otherwise retry until the store answers. */
  const closeSignal = new AbortController();

  // The rest of the host asks the cluster, and never tests for a bus (docs/scaling.md).
  const cluster: Cluster =
    config.bus === undefined
      ? standalone
      : new BusCluster(config.bus, {
          store,
          lifecycle,
          work,
          logger,
          reconcileMs: config.reconcileMs,
          resumeLeaseMs: config.resumeLeaseMs,
          // Holding its share, a node reads only the parts of the awaiting records whose lease it takes,
          // for a little less than one reconcile period, so that its next reconcile can take it again.
          ...(config.holds === 'share'
            ? { readAwaitingResume: sharedAwaitingResumeReader(store, (part) => config.bus!.acquireLease(`awaiting:${part}`, Math.max(1, Math.floor(config.reconcileMs * 0.9)))) }
            : {}),
        });
  // With other nodes, news may arrive late or twice: remember what was settled so it is not brought back.
  const pending = new PendingTable(cluster.rememberSettled);
  const marks = new ResumeMarks(store, logger);
  const resumer = new Resumer(store, config.onResume, logger, marks, cluster.takeResumeLease);
  const waiters = new Waiters();
  const quarantine = new Quarantine();
  // handOver and onUnreadable are made below; the share only calls them once the host runs.
  const share =
    config.holds === 'share' && canFollow(config.bus)
      ? new Share({
          bus: config.bus,
          store,
          pending,
          asksHere: (rpcId) => waiters.has(rpcId),
          adoptPending: (record) => handOver.adoptPending(record),
          onUnreadable: (record) => onUnreadable(record),
          lifecycle,
          work,
          logger,
          // A route escalates on timers: a routed question must be held somewhere even while nobody is connected for it.
          everything: config.route !== undefined,
        })
      : undefined;
  // Links are made below; the routing's notify gets the same one-question link as the first notify.
  let linksForNotify: QuestionLinks | undefined;
  const routing = new Routing({ route: config.route, store, pending, cluster, reporter, logger, work, notify: config.notify, linkFor: (record) => linksForNotify?.forNotify(record) });
  const delivery = new Delivery(pending, reporter, routing.active ? routing : undefined, share);
  const handOver = new HandOver({ pending, waiters, delivery, cluster, resumer, marks, quarantine, reporter, work, logger });
  const onUnreadable = (record: UnreadableRecord) => handOver.setAside(record.rpcId, record.sessionId, record.error.message);
  // Anything pending() lists, saved yet or not: a caller that lists and then links must not be
  // refused for the save still on its way (a link used before it lands is told to wait).
  const links = new QuestionLinks(new LinkSigner(config.linkSecret), config.linkBaseUrl, (rpcId) => pending.get(rpcId)?.sessionId);
  linksForNotify = links;
  const asks = new Asks({
    store,
    ownsStore,
    pending,
    waiters,
    delivery,
    cluster,
    reporter,
    lifecycle,
    work,
    logger,
    handOver,
    notify: config.notify,
    linkFor: (record) => links.forNotify(record),
    ...(routing.active ? { routing } : {}),
    ...(share === undefined ? {} : { share }),
  });
  const judge = new Judge({
    store,
    pending,
    delivery,
    handOver,
    cluster,
    reporter,
    rejectionBudget: new RejectionBudget(config.maxLoggedRejections, config.badFrameWindowMs),
    lifecycle,
    work,
    logger,
    closing: closeSignal.signal,
    limits: { maxLoggedRejections: config.maxLoggedRejections, badFrameWindowMs: config.badFrameWindowMs },
    ...(routing.active ? { routing } : {}),
    ...(share === undefined ? {} : { share }),
  });
  routing.attach({
    reveal: (entry, before) => delivery.reveal(entry, before),
    runAgents: (entry, tier, agents, signal) => runAgentAnswerers({ judge, pending, logger }, entry, tier, agents, signal),
  });

  // First, so that a second provider fails fast (DUPLICATE_PROVIDER) before any port is opened.
  const unregister = config.userQuestions.registerProvider({ ask: (request) => asks.ask(request) });

  // One set of rules for every transport; only `authenticate` differs (a Node request here, the
  // fetch handler brings its own for a Web Request), so a rule added here reaches both.
  const requestAuth = { token: config.token, operatorToken: config.operatorToken, allowAnonymous: config.allowAnonymous, origins: config.origins, links: links.signer };
  const auth = { ...requestAuth, authenticate: config.authenticate };
  const handleRequest = createHttpHandler({
    path: config.path,
    auth,
    store,
    logger,
    maxBodyBytes: config.maxPayload,
    enabled: config.httpApi,
    isClosed: () => lifecycle.ended,
    onUnreadable,
    beingSaved: (rpcId) => pending.get(rpcId)?.saved === false,
    maySee: (rpcId, principal) => routing.maySee(rpcId, principal),
    console: {
      script: config.consoleScript,
      canNotify: config.notify !== undefined,
      withdraw: (rpcId, by) => asks.withdraw(rpcId, by),
      resendNotification: (rpcId) => asks.resendNotification(rpcId),
      quarantined: () => quarantine.list(),
      ...(routing.active ? { reachedTier: (rpcId: string) => routing.reachedTier(rpcId) } : {}),
    },
    respond: (input, principal) => judge.judge(input, principal, (sessionId) => safeCanSee(principal, sessionId, logger), { channel: 'http', connectionId: 'http' }),
  });
  const ownServer = config.server === undefined;
  const server: Server =
    config.server ??
    createServer((req, res) => {
      if (!handleRequest(req, res)) res.writeHead(404, { Connection: 'close' }).end();
    });
  const sockets = new SocketServer(
    { delivery, judge, reporter, lifecycle },
    {
      server,
      ownServer,
      path: config.path,
      auth,
      maxPayload: config.maxPayload,
      heartbeatMs: config.heartbeatMs,
      closeTimeoutMs: config.closeTimeoutMs,
      maxConnections: config.maxConnections,
      maxConnectionsPerPrincipal: config.maxConnectionsPerPrincipal,
      limits: { maxBufferedBytes: config.maxBufferedBytes, maxBadFrames: config.maxBadFrames, badFrameWindowMs: config.badFrameWindowMs },
      logger,
    },
  );

  /** A start that failed after the provider was registered: leave the seam free and nobody waiting. */
  const failStart = (error: unknown): void => {
    lifecycle.enter('closing');
    unregister();
    work.track(cluster.close());
    asks.failAll(error);
    lifecycle.enter('closed');
  };

  // Subscribed before the store is read, so that nothing asked or settled elsewhere in between is missed.
  try {
    await cluster.subscribe({
      pending,
      // Holding its share, a node takes in only questions of sessions it serves (an `asked` can cross an unfollow).
      adoptPending: (record) => {
        if (share === undefined || share.serves(record.sessionId)) handOver.adoptPending(record);
      },
      adoptSettled: (record, message) => handOver.adoptSettled(record, message),
      adoptVotes: (record) => adoptVotes(record, { pending, delivery }),
      forgetUnknown: (entry) => handOver.forgetUnknown(entry),
      resumeOrphans: (records) => handOver.resumeOrphans(records),
      onUnreadable,
      ...(share === undefined ? {} : { share }),
    });
    // Before the store is read: news of the sessions served from then on is not missed.
    await share?.start();
  } catch (error) {
    failStart(error);
    throw new WebSocketHostError('STORE_FAILED', `The question bus could not be reached, so the host did not start: ${String(error)}`, { cause: error });
  }

  // The questions a previous host left pending come back with their rpcIds, before anyone can connect.
  let awaitingResume: QuestionRecord[];
  try {
    // Holding its share, a node has nobody connected yet: each session's questions come with its first subscriber.
    const selection = share?.startSelection ?? 'all';
    const restored = selection === 'all' || [...selection].length > 0 ? await store.listPending(selection, { onUnreadable }) : [];
    // Before the asks that arrived while we were loading (negative seqs), and not twice: one of those may already be saved.
    restored.forEach((record, index) => {
      if (pending.get(record.rpcId) === undefined) pending.add(new PendingQuestion(record, index - restored.length, { saved: true }));
    });
    // Routed from the stored ask time: tiers that came due while no host ran are reached now.
    for (const entry of pending.all()) routing.track(entry);
    awaitingResume = await readAwaitingResume(store, { onUnreadable });
    cluster.loaded();
    lifecycle.enter('starting');
  } catch (error) {
    failStart(error);
    throw new WebSocketHostError('STORE_FAILED', `The question store could not be read, so the host did not start: ${String(error)}`, { cause: error });
  }

  sockets.listen();
  if (ownServer) {
    server.on('error', (error) => logger.error('HTTP server error', { error: String(error) }));
    try {
      await listen(server, config.port, config.host);
    } catch (error) {
      sockets.unlisten();
      failStart(error);
      throw error;
    }
  }
  let urlCache: { url: string; port: number } | undefined;
  const address = (): { url: string; port: number } => (urlCache ??= serverAddress(server, config.path));
  // Read the address now when there is one: a closed server has none left to report.
  if (server.listening) address();
  sockets.start();
  lifecycle.enter('running');
  logger.info('askseam host ready', { path: config.path, attached: !ownServer, restored: pending.size, awaitingResume: awaitingResume.length });
  // Answers that arrived while no host was running (or whose handler failed last time).
  work.track(handOver.resumeOrphans(awaitingResume));
  cluster.running();

  async function closeHost(): Promise<void> {
    lifecycle.enter('closing');
    // A mark still failing gets one last try: close() must not wait for a store that may never come back.
    marks.stop();
    closeSignal.abort();
    unregister();
    cluster.stop();
    routing.close();
    asks.withdrawAll();
    // After the withdrawals, which the channels are told of; then they hear nothing more.
    for (const channel of [...channels]) channel.close();
    await sockets.close();
    await Promise.all([...eventStreams].map((transport) => transport.close()));
    if (ownServer) {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
    }
    // Whatever was already on its way to the store gets there before the app closes the store.
    await work.drain();
    await cluster.drain();
    await resumer.drain();
    await reporter.drain();
    // Last: the other nodes see this one gone only once nothing of ours is still on its way.
    await cluster.close();
    // Questions still counted here (detached ones left in the app's store) are no longer this node's.
    reporter.telemetry?.closed();
    lifecycle.enter('closed');
    logger.info('askseam host closed');
  }

  /** The event-stream transports made by fetchHandler(); closed with the sockets. */
  const eventStreams = new Set<SseTransport>();
  const fetchHandler = (handlerOptions?: FetchHandlerOptions): FetchHandler => {
    const handler = resolveFetchHandlerOptions(handlerOptions, config);
    const transport = new SseTransport(
      { delivery, judge, reporter, lifecycle },
      {
        handler,
        auth: requestAuth,
        maxPayload: config.maxPayload,
        heartbeatMs: config.heartbeatMs,
        maxBufferedBytes: config.maxBufferedBytes,
        maxBadFrames: config.maxBadFrames,
        badFrameWindowMs: config.badFrameWindowMs,
        maxConnections: config.maxConnections,
        maxConnectionsPerPrincipal: config.maxConnectionsPerPrincipal,
        logger,
      },
    );
    // Made after close(): every request gets 503, and no heartbeat is left running.
    if (lifecycle.ended) return transport.handle;
    eventStreams.add(transport);
    transport.start();
    return transport.handle;
  };

  /** The in-process channels made by openChannel(); closed with the sockets. */
  const channels = new Set<ChannelPort>();
  let channelCount = 0;
  const openHostChannel = (channelOptions: HostChannelOptions): HostChannel => {
    const port = openChannel(`ch${++channelCount}`, channelOptions, { delivery, judge, reporter, lifecycle, pending, logger, ...(routing.active ? { routing } : {}) }, (closed) => {
      channels.delete(closed);
      delivery.leave(closed);
      reporter.report({ kind: 'disconnected', connectionId: closed.id, principalId: closed.principalId, code: 1000, reason: 'channel closed', transport: 'channel' }, { log: false });
    });
    channels.add(port);
    return port;
  };

  let closing: Promise<void> | undefined;
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
    connections: () => sockets.connections(),
    askDetached: (request) => asks.askDetached(request),
    linkFor: (rpcId, linkOptions) => links.linkFor(rpcId, linkOptions),
    handleRequest,
    fetchHandler,
    openChannel: openHostChannel,
    quarantined: () => quarantine.list(),
    withdraw: (rpcId, withdrawOptions) => {
      const checked = withdrawOptionsSchema.safeParse({ rpcId, ...withdrawOptions });
      if (!checked.success) return Promise.reject(new WebSocketHostError('INVALID_REQUEST', `host.withdraw(rpcId, { reason?, by? }): ${checked.error.issues[0]?.message ?? 'invalid'} (rpcId and by non-empty strings, reason at most 500 characters).`));
      if (lifecycle.ended) return Promise.resolve(false);
      const { reason, by = 'app' } = checked.data;
      return asks.withdraw(checked.data.rpcId, { principalId: by, ...(reason === undefined ? {} : { reason }) });
    },
    resendNotification: (rpcId) => asks.resendNotification(rpcId),
    close: () => (closing ??= closeHost()),
  };
}

const withdrawOptionsSchema = z.strictObject({ rpcId: z.string().min(1), reason: z.string().max(500).optional(), by: z.string().min(1).max(200).optional() });

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function serverAddress(server: Server, path: string): { url: string; port: number } {
  const info = server.address();
  if (info === null || typeof info === 'string') {
    throw new WebSocketHostError(
      'NOT_LISTENING',
      'The attached server is not listening on a TCP port yet; call server.listen() before reading host.url or host.port.',
    );
  }
  return { url: `ws://${clientHost(info)}:${info.port}${path}`, port: info.port };
}

/** A host a client can dial: a wildcard bind is reached over loopback, IPv6 goes in brackets. */
function clientHost(info: AddressInfo): string {
  if (info.address === '0.0.0.0') return '127.0.0.1';
  if (info.address === '::') return '[::1]';
  return info.family === 'IPv6' ? `[${info.address}]` : info.address;
}
