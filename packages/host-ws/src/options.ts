import type { IncomingMessage, Server } from 'node:http';
import type { UserQuestions } from '@askseam/user-questions';
import { z } from 'zod';
import { WebSocketHostError } from './errors.js';
import type { HostEvent } from './events.js';
import type { HostLogger } from './logger.js';
import type { Principal } from './principal.js';

export interface WebSocketHostOptions {
  /** The seam; the host registers itself as its provider (a second provider → `DUPLICATE_PROVIDER`). */
  userQuestions: UserQuestions;
  /** Port of the host's own listener; `0` (the default) picks a free one. Ignored with `server`. */
  port?: number;
  /** Interface of the host's own listener. Default `'127.0.0.1'`. Ignored with `server`. */
  host?: string;
  /** Attach to this existing server instead of listening: upgrades on `path` are handled, every other request is left alone. */
  server?: Server;
  /** Where the WebSocket lives. Default `'/askseam'`. */
  path?: string;
  /** Shared-token mode: a client presents `?token=…` (or `Authorization: Bearer …`) and sees every session. */
  token?: string;
  /** Decide who a connection is. `undefined` or a throw → HTTP 401. Consulted after a non-matching `token`. */
  authenticate?: (req: IncomingMessage) => Principal | undefined | Promise<Principal | undefined>;
  /** Accept every connection as one principal that sees every session. Must be set explicitly when neither `token` nor `authenticate` is. */
  allowAnonymous?: boolean;
  /** Origins allowed to connect (e.g. `'http://127.0.0.1:5173'`); a request with another Origin → HTTP 403. Absent = any. */
  origins?: string[];
  /** Largest frame a client may send, in bytes. Default 1 MiB; bigger → close 1009. */
  maxPayload?: number;
  /** Protocol ping interval; a socket that has not ponged by the next tick is terminated. Default 30 000. */
  heartbeatMs?: number;
  /** Bytes a client may leave unread before a new frame to it closes it with 1008. Default 4 MiB. */
  maxBufferedBytes?: number;
  /** Unreadable frames a connection may send before it is closed with 1008. Default 10. */
  maxBadFrames?: number;
  /** How long `close()` waits for sockets to finish the closing handshake before terminating them. Default 1000 ms. */
  closeTimeoutMs?: number;
  /** Where the host writes what it does. Silent by default; `console` works. */
  logger?: HostLogger;
  /** Called synchronously for every `HostEvent`. A throw is logged and ignored. */
  onEvent?: (event: HostEvent) => void;
}

const MiB = 1024 * 1024;

const plainOptionsSchema = z.object({
  port: z.number().int().min(0).max(65_535).default(0),
  host: z.string().min(1).default('127.0.0.1'),
  path: z.string().startsWith('/', 'path must start with "/"').default('/askseam'),
  token: z.string().min(1, 'token must not be empty').optional(),
  allowAnonymous: z.boolean().default(false),
  origins: z.array(z.string().min(1)).optional(),
  maxPayload: z.number().int().positive().default(MiB),
  heartbeatMs: z.number().int().positive().default(30_000),
  maxBufferedBytes: z.number().int().positive().default(4 * MiB),
  maxBadFrames: z.number().int().positive().default(10),
  closeTimeoutMs: z.number().int().nonnegative().default(1000),
});

export type ResolvedOptions = z.infer<typeof plainOptionsSchema> &
  Pick<WebSocketHostOptions, 'userQuestions' | 'server' | 'authenticate' | 'logger' | 'onEvent'>;

/** Check the options once, at the boundary, and fill in the defaults. Throws `WebSocketHostError`. */
export function resolveOptions(options: WebSocketHostOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new WebSocketHostError('INVALID_OPTIONS', 'createWebSocketHost needs an options object with at least { userQuestions }.');
  }
  const { userQuestions, server, authenticate, logger, onEvent } = options;
  if (typeof userQuestions?.registerProvider !== 'function') {
    throw new WebSocketHostError('INVALID_OPTIONS', 'options.userQuestions must be a UserQuestions instance (the seam the host serves).');
  }
  if (authenticate !== undefined && typeof authenticate !== 'function') {
    throw new WebSocketHostError('INVALID_OPTIONS', 'options.authenticate must be a function (req) => Principal | undefined.');
  }
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    throw new WebSocketHostError('INVALID_OPTIONS', 'options.onEvent must be a function.');
  }
  const parsed = plainOptionsSchema.safeParse({
    port: options.port,
    host: options.host,
    path: options.path,
    token: options.token,
    allowAnonymous: options.allowAnonymous,
    origins: options.origins,
    maxPayload: options.maxPayload,
    heartbeatMs: options.heartbeatMs,
    maxBufferedBytes: options.maxBufferedBytes,
    maxBadFrames: options.maxBadFrames,
    closeTimeoutMs: options.closeTimeoutMs,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new WebSocketHostError('INVALID_OPTIONS', `Invalid option ${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}.`);
  }
  const plain = parsed.data;
  // Failing closed: a host that would let anyone on the network answer as any agent must be a choice.
  if (plain.token === undefined && authenticate === undefined && !plain.allowAnonymous) {
    throw new WebSocketHostError(
      'NO_AUTHENTICATION',
      'createWebSocketHost needs a way to authenticate clients: pass `token` (shared-token mode) or `authenticate(req)`. ' +
        'To accept every connection without credentials (only on a trusted machine), pass `allowAnonymous: true`.',
    );
  }
  return { ...plain, userQuestions, server, authenticate, logger, onEvent };
}
