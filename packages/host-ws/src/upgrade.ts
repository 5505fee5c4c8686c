import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LinkSigner } from './link.js';
import { everySessionPrincipal, linkPrincipal, operatorTokenPrincipal, type Principal } from './principal.js';

export interface UpgradeAuth {
  token: string | undefined;
  authenticate: ((req: IncomingMessage) => Principal | undefined | Promise<Principal | undefined>) | undefined;
  allowAnonymous: boolean;
  /** Allowed page origins; `'*'` among them allows any. Absent: only the host's own origin (see `originRefusal`). */
  origins: string[] | undefined;
  /** The operator console's shared token (`operatorToken`): a match is an operator who sees every session. */
  operatorToken?: string | undefined;
  /** Checks one-question links (`?link=`); absent: a presented link is refused. */
  links?: LinkSigner | undefined;
}

export type UpgradeDecision = { ok: true; principal: Principal } | { ok: false; status: 401 | 403; reason: string };

/**
 * What the auth rules read of a request, whatever carries it (a Node upgrade or HTTP request, a
 * Web `Request`): its target (for `?token=`), three headers, and the app's `authenticate` bound to it.
 */
export interface AuthRequestView {
  /** The request target or full URL; only its query is read. */
  url: string;
  origin: string | undefined;
  host: string | undefined;
  authorization: string | undefined;
  /** The app's hook, called with the request in its own shape; undefined when there is none. */
  authenticate: (() => Principal | undefined | Promise<Principal | undefined>) | undefined;
}

/**
 * Decide whether an upgrade request may become a connection, and as whom. The Origin comes
 * first: a page from a foreign site is turned away before it learns anything about credentials
 * (without `origins`, only the host's own origin is a page that may connect).
 * Then a one-question link, when one is presented: it alone decides (a bad link is a 401 whatever
 * else the request carries, so a page never silently sees more than its link's question).
 * Then a matching shared token (every session), then `authenticate`, then `allowAnonymous`.
 */
export function authorizeUpgrade(req: IncomingMessage, auth: UpgradeAuth): Promise<UpgradeDecision> {
  const { authenticate } = auth;
  return authorizeRequest(
    {
      url: req.url ?? '/',
      origin: req.headers.origin,
      host: req.headers.host,
      authorization: req.headers.authorization,
      authenticate: authenticate === undefined ? undefined : () => authenticate(req),
    },
    auth,
  );
}

/** The rules of `authorizeUpgrade` for any transport's request (the Server-Sent Events handler reads a Web `Request`). */
export async function authorizeRequest(request: AuthRequestView, auth: Omit<UpgradeAuth, 'authenticate'>): Promise<UpgradeDecision> {
  const refusal = originRefusal(request.origin, request.host, auth.origins);
  if (refusal !== undefined) return { ok: false, status: 403, reason: refusal };
  const link = presentedLink(request);
  if (link !== undefined) {
    if (auth.links === undefined) return { ok: false, status: 401, reason: 'this host does not take one-question links' };
    const verdict = auth.links.verify(link);
    if (!verdict.ok) return { ok: false, status: 401, reason: verdict.reason };
    return { ok: true, principal: linkPrincipal(verdict.claims.rpcId, verdict.claims.sessionId) };
  }
  // Before the users' token: an operator's token is one more credential, never a widening of `token`.
  if (auth.operatorToken !== undefined) {
    const presented = presentedToken(request);
    if (presented !== undefined && tokensEqual(presented, auth.operatorToken)) return { ok: true, principal: operatorTokenPrincipal() };
    if (auth.token === undefined && request.authenticate === undefined && !auth.allowAnonymous) {
      return { ok: false, status: 401, reason: presented === undefined ? 'no token was presented' : 'the token does not match' };
    }
  }
  if (auth.token !== undefined) {
    const presented = presentedToken(request);
    if (presented !== undefined && tokensEqual(presented, auth.token)) return { ok: true, principal: everySessionPrincipal('token') };
    if (request.authenticate === undefined) {
      return { ok: false, status: 401, reason: presented === undefined ? 'no token was presented' : 'the token does not match' };
    }
  }
  if (request.authenticate !== undefined) {
    let principal: Principal | undefined;
    try {
      principal = await request.authenticate();
    } catch (error) {
      return { ok: false, status: 401, reason: `authenticate threw: ${String(error)}` };
    }
    if (!isPrincipal(principal)) return { ok: false, status: 401, reason: 'authenticate returned no principal' };
    return { ok: true, principal };
  }
  if (auth.allowAnonymous) return { ok: true, principal: everySessionPrincipal('anonymous') };
  return { ok: false, status: 401, reason: 'no authentication is configured' };
}

const statusText = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 503: 'Service Unavailable' } as const;

/** Answer an upgrade with a bare HTTP error and drop the socket: no WebSocket is ever made. */
export function refuseUpgrade(socket: Duplex, status: keyof typeof statusText): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const response = `HTTP/1.1 ${status} ${statusText[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
  // End (flush the status line) and then destroy, whatever the peer does with its half of the socket.
  socket.end(response, () => socket.destroy());
}

/** The token on the URL (`?token=`, the only way a browser can send one) or an `Authorization: Bearer` header. */
function presentedToken(request: AuthRequestView): string | undefined {
  const fromQuery = new URL(request.url, 'http://upgrade.invalid').searchParams.get('token');
  if (fromQuery !== null) return fromQuery;
  const header = request.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The one-question link on the URL (`?link=`), as a page opened from a notification passes it on. */
function presentedLink(request: AuthRequestView): string | undefined {
  return new URL(request.url, 'http://upgrade.invalid').searchParams.get('link') ?? undefined;
}

/** Constant-time comparison; hashing first hides the token's length as well as its bytes. */
function tokensEqual(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Why the request's Origin may not connect, or undefined when it may. Browsers always send Origin
 * on a WebSocket upgrade (and on cross-site fetches), so a request without one is not from a page
 * and passes. With an allow-list, the Origin must be on it (`'*'` allows any). Without one, only
 * the host's own origin passes: a page whose Origin names the very host:port the request was sent
 * to (its Host header). Anything else is another site, which must not ride the user's cookies
 * into a cookie-based `authenticate` (cross-site WebSocket hijacking).
 */
export function originRefusal(origin: string | undefined, host: string | undefined, origins: string[] | undefined): string | undefined {
  if (origin === undefined) return undefined;
  const shown = origin.length > 200 ? `${origin.slice(0, 200)}…` : origin;
  if (origins === undefined) {
    if (isOwnOrigin(origin, host)) return undefined;
    return `Origin "${shown}" is not the host's own origin (Host: ${String(host).slice(0, 200)}); list the page's origin in \`origins\``;
  }
  if (origins.includes('*') || origins.some((allowed) => sameOrigin(allowed, origin))) return undefined;
  return `Origin "${shown}" is not in the allow-list`;
}

/** The Origin's host:port is the Host the request was sent to (default ports read by the Origin's scheme). */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || host === '') return false;
  let page: URL;
  try {
    page = new URL(origin.trim());
  } catch {
    return false; // "null" (a sandboxed or file: page) and anything unreadable
  }
  if (page.protocol !== 'http:' && page.protocol !== 'https:') return false;
  try {
    return new URL(`${page.protocol}//${host}`).host === page.host;
  } catch {
    return false;
  }
}

function sameOrigin(allowed: string, origin: string): boolean {
  return normaliseOrigin(allowed) === normaliseOrigin(origin);
}

/**
 * Trimmed, without trailing slashes, lower case. A loop rather than `/\/+$/`: that regex
 * backtracks quadratically on a long run of slashes that does not end the string, and the Origin
 * is read before any credential, so anyone could stall the event loop with one header.
 */
function normaliseOrigin(value: string): string {
  const trimmed = value.trim();
  let end = trimmed.length;
  while (end > 0 && trimmed.charCodeAt(end - 1) === 0x2f) end--;
  return trimmed.slice(0, end).toLowerCase();
}

function isPrincipal(value: unknown): value is Principal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Principal).id === 'string' &&
    typeof (value as Principal).canSee === 'function'
  );
}
