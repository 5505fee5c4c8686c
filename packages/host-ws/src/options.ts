import type { IncomingMessage, Server } from 'node:http';
import { DEFAULT_HOST_HEARTBEAT_MS } from '@askseam/protocol';
import type { QuestionBus, QuestionRecord, QuestionStore } from '@askseam/store';
import type { AskseamTelemetry, TelemetryMeterProvider as MeterProvider, TelemetryTracerProvider as TracerProvider, UserQuestions } from '@askseam/user-questions';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { WebSocketHostError } from './errors.js';
import type { HostEvent } from './events.js';
import { MIN_LINK_SECRET_BYTES } from './link.js';
import type { HostLogger } from './logger.js';
import type { NotifyContext } from './notify.js';
import type { Principal } from './principal.js';
import type { Route } from './route.js';

// Each option is documented once, on its group's interface below; its default and its check are
// in `optionTable`, grouped the same way. The README's options table follows these groups
// (options.test.ts checks that it lists every option once, with this default).

/** Where the host listens. */
export interface HostListenOptions {
  /** Port of the host's own listener; `0` (the default) picks a free one. Ignored with `server`. */
  port?: number;
  /** Interface of the host's own listener. Default `'127.0.0.1'`. Ignored with `server`. */
  host?: string;
  /** Attach to this existing server instead of listening: upgrades on `path` are handled, every other request is left alone. */
  server?: Server;
  /** Where the WebSocket lives. Default `'/askseam'`. */
  path?: string;
}

/** Who may connect, and from which pages. */
export interface HostAuthOptions {
  /** Shared-token mode: a client presents `?token=…` (or `Authorization: Bearer …`) and sees every session. */
  token?: string;
  /** Decide who a connection is. `undefined` or a throw → HTTP 401. Consulted after a non-matching `token`. */
  authenticate?: (req: IncomingMessage) => Principal | undefined | Promise<Principal | undefined>;
  /** Accept every connection as one principal that sees every session. Must be set explicitly when neither `token` nor `authenticate` is. */
  allowAnonymous?: boolean;
  /**
   * Origins allowed to connect (e.g. `'http://127.0.0.1:5173'`); a request with another Origin → HTTP 403; `['*']` allows any.
   * Absent: only the host's own origin (a page whose Origin host:port is the request's Host). Requests without Origin always pass.
   */
  origins?: string[];
  /**
   * The key one-question links are signed with (HMAC-SHA256): a string or bytes, at least 32 bytes.
   * Absent: a random key made when the host starts, so links die with the process. Every node of a
   * cluster, and every restart that should honour old links, needs the same secret.
   */
  linkSecret?: string | Uint8Array;
  /**
   * The absolute http(s) URL of the app's page that shows one question (the host does not serve
   * pages): `host.linkFor()` returns it with `?link=…` added, and `notify` gets that link. Absent:
   * `linkFor` throws `NO_LINK_BASE_URL` and `notify` gets no link.
   */
  linkBaseUrl?: string;
  /**
   * Who may answer each question, and when each tier of answerers is reached (docs/routing.md):
   * `(questions, context) => Tier[] | undefined`. A routed question is shown to, and answerable by,
   * the answerers of its reached tiers only (anyone else gets a `forbidden` receipt). Absent, or
   * `undefined` for a question: anyone who can see its session, as before.
   */
  route?: Route;
}

/** The operator console (docs/console.md). */
export interface HostConsoleOptions {
  /**
   * A second shared token, for operators: presented like `token` (`?token=`, `Authorization:
   * Bearer`), it opens the console and its API and sees every session. The users' `token` never
   * opens the console; with `authenticate`, return a principal with `operator: true` instead.
   */
  operatorToken?: string;
  /**
   * The console's browser bundle on disk (`consoleBundleUrl()` from `@askseam/web/server`): served
   * at `<path>/console/askseam-console.js` for the page at `<path>/console`. Absent: the page
   * answers 404 (the console's API still works for an app that serves `<askseam-console>` itself).
   */
  consoleScript?: string | URL;
}

/** How much one client, or all of them, may cost the host. */
export interface HostLimitOptions {
  /** Largest frame a client may send, in bytes. Default 1 MiB; bigger → close 1009. */
  maxPayload?: number;
  /**
   * Protocol ping interval. A socket that has not echoed the ping by the next tick is let go: closed
   * with 1008 `not reading` when it sent anything meanwhile (unsolicited pongs, frames), terminated
   * when it went silent. Default 30 000.
   */
  heartbeatMs?: number;
  /**
   * Bytes a client may leave unread before a new frame to it closes it with 1008; a replay on
   * connect is sent only as fast as the client reads, this much at a time. Default 4 MiB.
   */
  maxBufferedBytes?: number;
  /** Unreadable frames and rejected responses within `badFrameWindowMs` that close a connection with 1008. Default 10. */
  maxBadFrames?: number;
  /** The sliding window `maxBadFrames` counts in; older unreadable frames are forgotten. Default 60 000. */
  badFrameWindowMs?: number;
  /** Open WebSocket connections the host accepts in all; one more upgrade is refused with HTTP 503. Default 1000. */
  maxConnections?: number;
  /** Open WebSocket connections one principal (by `id`; every token client is one principal) may hold; one more is refused with HTTP 429. Default 100. */
  maxConnectionsPerPrincipal?: number;
  /**
   * Rejected responses one principal may write to the event log per `badFrameWindowMs` (WebSocket
   * and HTTP together); further ones that window are still refused, reported to `onEvent` and
   * counted in the logger, but not stored. Bounds how fast one principal can grow the log. Default 30.
   */
  maxLoggedRejections?: number;
  /** How long `close()` waits for sockets to finish the closing handshake (or to take the 503 of an upgrade still being authenticated) before cutting them. Default 1000 ms. */
  closeTimeoutMs?: number;
}

/** What outlives the process, and who hears of a question besides the clients. */
export interface HostDurabilityOptions {
  /**
   * Where questions, settlements and the event log are kept. Default: a `MemoryQuestionStore` the
   * host owns (gone with the process; `close()` aborts what is pending). A store you pass outlives
   * the host: `close()` leaves its pending questions pending, and the next host on it replays them.
   */
  store?: QuestionStore;
  /**
   * Receives each settled question (`answered` or `cancelled`) whose asker is not waiting in this
   * process: every detached ask, and blocking asks whose process died. Once per record; a record
   * whose handler threw, or whose process died before it finished, is handed over again by the
   * next host that starts on the store.
   */
  onResume?: (record: QuestionRecord) => void | Promise<void>;
  /**
   * Called (not awaited) once a question is saved and delivered, to tell a human elsewhere (Slack,
   * email). With `linkBaseUrl`, `context.link` is a one-question link to put in the message
   * (valid for a day). Throws and rejections are logged.
   */
  notify?: (record: QuestionRecord, context: NotifyContext) => void | Promise<void>;
  /** Serve the HTTP API under `path` (list, get, answer, cancel, events). Default true. */
  httpApi?: boolean;
}

/** Several hosts sharing one store (docs/scaling.md). */
export interface HostClusterOptions {
  /**
   * Run as one node of several sharing `store` (required with it): questions asked on any node are
   * shown and answerable on every node, and an answer reaches its asker wherever it waits. The host
   * subscribes on start and closes the bus on `close()` (a bus serves one host). See docs/scaling.md.
   */
  bus?: QuestionBus;
  /**
   * With `bus`: how often this node re-reads the store to repair what the bus may have lost
   * (questions asked or settled while a message went missing, answers whose asker's node died).
   * Default 10 000.
   */
  reconcileMs?: number;
  /**
   * With `bus`: how long one node holds a settled record for its resume handler before another
   * node may try again (when the first died or its handler is stuck). Default 60 000.
   */
  resumeLeaseMs?: number;
  /**
   * With `bus`: which pending questions this node keeps in memory. `'everything'` (the default):
   * every pending question of the cluster, and every bus message. `'share'`: only those of the
   * sessions its connections, streams and channels may see and of the askers waiting in it, read
   * from the store when a session's first subscriber arrives and forgotten when its last leaves;
   * the bus sends it only those sessions' news. Needs a bus with `follow` (`RedisQuestionBus`,
   * `MemoryQuestionBusHub`; see docs/scaling.md). A subscriber that may see any session, or a `route`, makes the node hold
   * everything again.
   */
  holds?: 'everything' | 'share';
}

/** What the host tells you about itself. */
export interface HostObserverOptions {
  /** Where the host writes what it does. Silent by default; `console` works. */
  logger?: HostLogger;
  /** Called synchronously for every `HostEvent`, with a deep copy of its own (redacting it in place changes nothing else). A throw is logged and ignored. */
  onEvent?: (event: HostEvent) => void;
  /**
   * OpenTelemetry providers (docs/telemetry.md): the host adds to each ask's span, records an
   * answer span for another node's question, and keeps the askseam.* metrics. Pass the same
   * object as to `new UserQuestions({ telemetry })`. Without it nothing is recorded.
   */
  telemetry?: AskseamTelemetry;
}

/** Everything `createWebSocketHost` takes: the seam, and the options of each group, flat. */
export interface WebSocketHostOptions extends HostListenOptions, HostAuthOptions, HostConsoleOptions, HostLimitOptions, HostDurabilityOptions, HostClusterOptions, HostObserverOptions {
  /** The seam; the host registers itself as its provider (a second provider → `DUPLICATE_PROVIDER`). */
  userQuestions: UserQuestions;
}

const MiB = 1024 * 1024;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const aFunction = (what: string) => z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', `must be ${what}`).optional();

const storeMethods = ['save', 'claim', 'get', 'listPending', 'listAwaitingResume', 'markResumed', 'appendEvent', 'readEvents'] as const;
const busMethods = ['subscribe', 'publish', 'isNodeAlive', 'acquireLease', 'close'] as const;

/**
 * The one table of options: for each, its default and its check, in the groups of the interfaces
 * above. Options without a default are optional; a check's message completes "options.<name> …".
 */
export const optionTable = {
  listen: {
    port: z.number().int().min(0).max(65_535).default(0),
    host: z.string().min(1).default('127.0.0.1'),
    // Taken as given (Node's own server, or one that behaves like it): no check.
    server: z.custom<Server>().optional(),
    path: z.string().startsWith('/', 'path must start with "/"').default('/askseam'),
  },
  auth: {
    token: z.string().min(1, 'token must not be empty').optional(),
    authenticate: aFunction('a function (req) => Principal | undefined'),
    allowAnonymous: z.boolean().default(false),
    origins: z.array(z.string().min(1)).optional(),
    linkSecret: z
      .custom<string | Uint8Array>((value) => typeof value === 'string' || value instanceof Uint8Array, 'must be a string or a Uint8Array')
      .refine((value) => Buffer.byteLength(typeof value === 'string' ? Buffer.from(value, 'utf8') : value) >= MIN_LINK_SECRET_BYTES, {
        message: `must be at least ${MIN_LINK_SECRET_BYTES} bytes (e.g. crypto.randomBytes(32))`,
      })
      .optional(),
    linkBaseUrl: z
      .string()
      .refine(isHttpUrl, 'must be an absolute http:// or https:// URL (the page that shows one question)')
      .optional(),
    route: aFunction('a function (questions, context) => Tier[] | undefined'),
  },
  console: {
    operatorToken: z.string().min(1, 'operatorToken must not be empty').optional(),
    consoleScript: z.union([z.string().min(1), z.instanceof(URL)]).optional(),
  },
  limits: {
    maxPayload: z.number().int().positive().default(MiB),
    heartbeatMs: z.number().int().positive().default(DEFAULT_HOST_HEARTBEAT_MS),
    maxBufferedBytes: z.number().int().positive().default(4 * MiB),
    maxBadFrames: z.number().int().positive().default(10),
    badFrameWindowMs: z.number().int().positive().default(60_000),
    maxConnections: z.number().int().positive().default(1000),
    maxConnectionsPerPrincipal: z.number().int().positive().default(100),
    maxLoggedRejections: z.number().int().nonnegative().default(30),
    closeTimeoutMs: z.number().int().nonnegative().default(1000),
  },
  durability: {
    store: z.custom<QuestionStore>(isQuestionStore, `must implement QuestionStore (${storeMethods.join(', ')}); see @askseam/store`).optional(),
    onResume: aFunction('a function'),
    notify: aFunction('a function'),
    httpApi: z.boolean().default(true),
  },
  cluster: {
    bus: z.custom<QuestionBus>(isQuestionBus, `must implement QuestionBus (nodeId, ${busMethods.join(', ')}); see @askseam/store`).optional(),
    reconcileMs: z.number().int().positive().default(10_000),
    resumeLeaseMs: z.number().int().positive().default(60_000),
    holds: z.enum(['everything', 'share']).default('everything'),
  },
  observers: {
    // Taken as given: every call goes through safeLogger, so a logger that throws cannot hurt.
    logger: z.custom<HostLogger>().optional(),
    onEvent: aFunction('a function'),
    telemetry: z
      .strictObject({
        tracerProvider: z.custom<TracerProvider>((value) => typeof (value as { getTracer?: unknown } | null)?.getTracer === 'function', 'must be an OpenTelemetry TracerProvider').optional(),
        meterProvider: z.custom<MeterProvider>((value) => typeof (value as { getMeter?: unknown } | null)?.getMeter === 'function', 'must be an OpenTelemetry MeterProvider').optional(),
        recordContent: z.boolean().optional(),
      })
      .optional(),
  },
};

const optionsSchema = z.object({
  ...optionTable.listen,
  ...optionTable.auth,
  ...optionTable.console,
  ...optionTable.limits,
  ...optionTable.durability,
  ...optionTable.cluster,
  ...optionTable.observers,
});

/** The options with their defaults filled in; the hooks and objects are the caller's own, typed as the interfaces say. */
export type ResolvedOptions = Omit<z.infer<typeof optionsSchema>, FunctionOrObjectOption> &
  Pick<WebSocketHostOptions, 'userQuestions' | FunctionOrObjectOption>;

type FunctionOrObjectOption = 'server' | 'authenticate' | 'logger' | 'onEvent' | 'store' | 'onResume' | 'notify' | 'bus' | 'linkSecret' | 'route';

/** Check the options once, at the boundary, and fill in the defaults. Throws `WebSocketHostError`. */
export function resolveOptions(options: WebSocketHostOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new WebSocketHostError('INVALID_OPTIONS', 'createWebSocketHost needs an options object with at least { userQuestions }.');
  }
  const { userQuestions } = options;
  if (typeof userQuestions?.registerProvider !== 'function') {
    throw new WebSocketHostError('INVALID_OPTIONS', 'options.userQuestions must be a UserQuestions instance (the seam the host serves).');
  }
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.map(String).join('.') ?? '';
    // A custom check's message reads on from the option's name; a built-in one stands alone.
    const message = issue?.code === 'custom' ? `options.${name} ${issue.message}.` : `Invalid option ${name}: ${issue?.message ?? 'invalid'}.`;
    throw new WebSocketHostError('INVALID_OPTIONS', message);
  }
  const resolved = parsed.data as ResolvedOptions;
  // Nodes only agree on who answered first through one shared store; a private store per node would split them.
  if (resolved.bus !== undefined && resolved.store === undefined) {
    throw new WebSocketHostError('INVALID_OPTIONS', 'options.bus needs options.store: every node on a bus must share one store (e.g. RedisQuestionStore).');
  }
  // A node that holds only its share hears only its sessions' news, which only a bus that follows sessions can send.
  if (resolved.holds === 'share' && (typeof resolved.bus?.follow !== 'function' || typeof resolved.bus.unfollow !== 'function')) {
    throw new WebSocketHostError('INVALID_OPTIONS', "options.holds 'share' needs options.bus with follow() and unfollow() (news by session; see docs/scaling.md); this bus has none, so keep holds 'everything'.");
  }
  // Failing closed: a host that would let anyone on the network answer as any agent must be a choice.
  if (resolved.operatorToken !== undefined && resolved.operatorToken === resolved.token) {
    throw new WebSocketHostError('INVALID_OPTIONS', 'options.operatorToken must differ from options.token: the users\' token must never open the operator console.');
  }
  if (resolved.token === undefined && resolved.authenticate === undefined && resolved.operatorToken === undefined && !resolved.allowAnonymous) {
    throw new WebSocketHostError(
      'NO_AUTHENTICATION',
      'createWebSocketHost needs a way to authenticate clients: pass `token` (shared-token mode) or `authenticate(req)`. ' +
        'To accept every connection without credentials (only on a trusted machine), pass `allowAnonymous: true`.',
    );
  }
  return { ...resolved, userQuestions };
}

function isQuestionStore(value: unknown): value is QuestionStore {
  return typeof value === 'object' && value !== null && storeMethods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');
}

function isQuestionBus(value: unknown): value is QuestionBus {
  if (typeof value !== 'object' || value === null) return false;
  const bus = value as Record<string, unknown>;
  return typeof bus.nodeId === 'string' && bus.nodeId.length > 0 && busMethods.every((method) => typeof bus[method] === 'function');
}
