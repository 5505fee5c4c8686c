import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The realm `/mcp` names in its `WWW-Authenticate` challenge. */
export const mcpAuthRealm = 'askseam-mcp';

export interface McpGateOptions {
  /** `Host` values the endpoint answers to: `127.0.0.1:<port>`, `localhost:<port>`. */
  allowedHosts: readonly string[];
  /** `Origin` values a browser page may send: the page's own. */
  allowedOrigins: readonly string[];
  /** The Bearer token. */
  token: string;
}

export interface McpRefusal {
  status: 401 | 403;
  message: string;
  headers: Record<string, string>;
}

/**
 * Whether a request may reach `/mcp`, in order: the host name (DNS rebinding), the Origin (the
 * Streamable HTTP spec: a server MUST validate it and answer 403 when it is present and not
 * allowed), then the token. Origin comes before the token, so a foreign web page holding a
 * leaked token still gets nowhere. An absent Origin is a non-browser client and passes; `null`
 * (a sandboxed frame, a file: page, a redirect) names no page we know and is refused.
 */
export function mcpRequestRefusal(req: IncomingMessage, options: McpGateOptions): McpRefusal | undefined {
  const host = req.headers.host;
  if (host === undefined || !options.allowedHosts.includes(host)) {
    return { status: 403, message: `Host ${JSON.stringify(host ?? '')} is not served here: use ${options.allowedHosts.join(' or ')}.`, headers: {} };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !options.allowedOrigins.includes(origin)) {
    return { status: 403, message: `Origin ${JSON.stringify(origin)} may not call this endpoint; only a client outside the browser or askseam's own page may.`, headers: {} };
  }
  const given = bearerOf(req);
  if (given === undefined) {
    // No resource_metadata: this is not an OAuth protected resource, and a client that finds one
    // (the MCP Inspector) would start an OAuth flow that cannot succeed.
    return { status: 401, message: 'Missing token: send Authorization: Bearer <the token askseam-mcp printed>.', headers: { 'www-authenticate': `Bearer realm="${mcpAuthRealm}"` } };
  }
  if (!sameToken(given, options.token)) {
    return {
      status: 401,
      message: 'Wrong token: send Authorization: Bearer <the token askseam-mcp printed>.',
      headers: { 'www-authenticate': `Bearer realm="${mcpAuthRealm}", error="invalid_token"` },
    };
  }
  return undefined;
}

function bearerOf(req: IncomingMessage): string | undefined {
  return /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
