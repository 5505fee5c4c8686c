import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { everySessionPrincipal, type Principal } from './principal.js';

export interface UpgradeAuth {
  token: string | undefined;
  authenticate: ((req: IncomingMessage) => Principal | undefined | Promise<Principal | undefined>) | undefined;
  allowAnonymous: boolean;
  origins: string[] | undefined;
}

export type UpgradeDecision = { ok: true; principal: Principal } | { ok: false; status: 401 | 403; reason: string };

/**
 * Decide whether an upgrade request may become a connection, and as whom. The Origin comes
 * first: a page from a foreign site is turned away before it learns anything about credentials.
 * Then a matching shared token (every session), then `authenticate`, then `allowAnonymous`.
 */
export async function authorizeUpgrade(req: IncomingMessage, auth: UpgradeAuth): Promise<UpgradeDecision> {
  const origin = req.headers.origin;
  // Browsers always send Origin on a WebSocket upgrade; a request without one is not from a page.
  if (auth.origins !== undefined && origin !== undefined && !auth.origins.some((allowed) => sameOrigin(allowed, origin))) {
    return { ok: false, status: 403, reason: `Origin "${origin}" is not in the allow-list` };
  }
  if (auth.token !== undefined) {
    const presented = presentedToken(req);
    if (presented !== undefined && tokensEqual(presented, auth.token)) return { ok: true, principal: everySessionPrincipal('token') };
    if (auth.authenticate === undefined) {
      return { ok: false, status: 401, reason: presented === undefined ? 'no token was presented' : 'the token does not match' };
    }
  }
  if (auth.authenticate !== undefined) {
    let principal: Principal | undefined;
    try {
      principal = await auth.authenticate(req);
    } catch (error) {
      return { ok: false, status: 401, reason: `authenticate threw: ${String(error)}` };
    }
    if (!isPrincipal(principal)) return { ok: false, status: 401, reason: 'authenticate returned no principal' };
    return { ok: true, principal };
  }
  if (auth.allowAnonymous) return { ok: true, principal: everySessionPrincipal('anonymous') };
  return { ok: false, status: 401, reason: 'no authentication is configured' };
}

const statusText = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' } as const;

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
function presentedToken(req: IncomingMessage): string | undefined {
  const fromQuery = new URL(req.url ?? '/', 'http://upgrade.invalid').searchParams.get('token');
  if (fromQuery !== null) return fromQuery;
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Constant-time comparison; hashing first hides the token's length as well as its bytes. */
function tokensEqual(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
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
