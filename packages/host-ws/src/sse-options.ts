import * as z from 'zod';
import { WebSocketHostError } from './errors.js';
import type { Principal } from './principal.js';

/** What `host.fetchHandler()` takes: where the handler lives and how it reads a Web `Request`. */
export interface FetchHandlerOptions {
  /** The mount path: `GET <path>/events`, `POST <path>/respond`. Default: the host's `path` (`'/askseam'`). */
  path?: string;
  /**
   * Decide who a Web `Request` is (cookies, headers); `undefined` or a throw → 401. Consulted after a
   * non-matching `token`, as the host's own `authenticate(req)` is on a Node request (which this
   * handler never sees). Without it, the host's `token` and `allowAnonymous` decide.
   */
  authenticate?: (request: Request) => Principal | undefined | Promise<Principal | undefined>;
  /**
   * How long an event stream whose client went away is kept, so that a reconnect with
   * `Last-Event-ID` resumes it (frames sent meanwhile included) rather than starting fresh. Default 30 000.
   */
  resumeWindowMs?: number;
  /**
   * Who sent a request, as your platform knows it (e.g. the client IP your proxy puts in a header
   * you trust), for the bad-response limit of `POST <path>/respond`: it counts per principal and
   * client address, so one holder of a shared token who sends garbage does not lock out the rest.
   * Default: the TCP peer's address when served by `toNodeListener`, else none (the principal alone).
   */
  clientAddress?: (request: Request) => string | undefined;
}

const schema = z.object({
  path: z.string().startsWith('/', 'path must start with "/"').optional(),
  authenticate: z.custom<FetchHandlerOptions['authenticate']>((value) => value === undefined || typeof value === 'function', 'must be a function (request) => Principal | undefined').optional(),
  resumeWindowMs: z.number().int().positive().default(30_000),
  clientAddress: z.custom<FetchHandlerOptions['clientAddress']>((value) => value === undefined || typeof value === 'function', 'must be a function (request) => string | undefined').optional(),
});

export interface ResolvedFetchHandlerOptions {
  path: string;
  authenticate: FetchHandlerOptions['authenticate'];
  resumeWindowMs: number;
  clientAddress: FetchHandlerOptions['clientAddress'];
}

/** Check `host.fetchHandler()`'s options and fill in the defaults. Throws `WebSocketHostError`. */
export function resolveFetchHandlerOptions(
  options: FetchHandlerOptions | undefined,
  host: { path: string; token?: string | undefined; allowAnonymous: boolean },
): ResolvedFetchHandlerOptions {
  const parsed = schema.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.map(String).join('.') ?? '';
    throw new WebSocketHostError('INVALID_OPTIONS', `Invalid fetchHandler option ${name}: ${issue?.message ?? 'invalid'}.`);
  }
  const { path, authenticate, resumeWindowMs, clientAddress } = parsed.data;
  // The host's authenticate reads a Node request; without a token, anonymous or a Web one, nobody could ever get in.
  if (host.token === undefined && !host.allowAnonymous && authenticate === undefined) {
    throw new WebSocketHostError(
      'NO_AUTHENTICATION',
      "host.fetchHandler needs its own `authenticate(request)` (a Web Request): the host's `authenticate(req)` reads Node requests, and the host has no `token` or `allowAnonymous` the handler could use instead.",
    );
  }
  // '/' mounts at the root: the routes are '/events' and '/respond'.
  return { path: (path ?? host.path).replace(/\/+$/, ''), authenticate, resumeWindowMs, clientAddress };
}
