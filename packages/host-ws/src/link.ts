import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WebSocketHostError } from './errors.js';

/** What a one-question link grants: see and answer question `rpcId` of session `sessionId`, until `exp` (ms since the epoch). */
export interface LinkClaims {
  rpcId: string;
  sessionId: string;
  exp: number;
}

export type LinkVerdict = { ok: true; claims: LinkClaims } | { ok: false; reason: string };

/** The shortest secret accepted: an HMAC-SHA256 key shorter than its output is easier to guess than the MAC. */
export const MIN_LINK_SECRET_BYTES = 32;

/** A link lives a day unless `linkFor` says otherwise: long enough for an email read the next morning. */
export const DEFAULT_LINK_EXPIRES_IN_MS = 24 * 60 * 60 * 1000;

/**
 * Signs and checks one-question capabilities: `base64url(JSON payload).base64url(HMAC-SHA256)`.
 * Anyone holding the secret can mint a link to any question, so it is the host's alone (or shared
 * by the nodes of one cluster, which must all verify each other's links).
 */
export class LinkSigner {
  readonly #key: Buffer;
  readonly #now: () => number;

  /** `secret` absent: a random key for this process only, so its links stop working when it exits. */
  constructor(secret: string | Uint8Array | undefined, now: () => number = Date.now) {
    this.#key = secret === undefined ? randomBytes(MIN_LINK_SECRET_BYTES) : Buffer.from(typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret);
    this.#now = now;
  }

  /** A capability for this question, valid for `expiresInMs` from now. */
  sign(rpcId: string, sessionId: string, expiresInMs: number): string {
    const payload = Buffer.from(JSON.stringify({ rpcId, sessionId, exp: this.#now() + expiresInMs }), 'utf8').toString('base64url');
    return `${payload}.${this.#mac(payload).toString('base64url')}`;
  }

  /** The claims of a capability this host signed and that has not expired; otherwise why not (for the log, never the caller). */
  verify(capability: string): LinkVerdict {
    // Bounded before any work: the capability comes from anyone's URL.
    if (capability.length > 2048) return { ok: false, reason: 'the link is too long to be one of ours' };
    const dot = capability.indexOf('.');
    if (dot <= 0 || dot !== capability.lastIndexOf('.')) return { ok: false, reason: 'the link is not payload.signature' };
    const payload = capability.slice(0, dot);
    const signature = capability.slice(dot + 1);
    // Node's decoder skips what is not base64url (spaces, '=' and what follows it, '+/', a second
    // copy past the 32 bytes) and the unused low bits of the last character, so many strings decode
    // to one signature. Only its one canonical spelling is a signature: decode, re-encode, compare.
    if (!canonicalSignature.test(signature)) return { ok: false, reason: 'the link signature does not match' };
    const presented = Buffer.from(signature, 'base64url');
    if (presented.toString('base64url') !== signature) return { ok: false, reason: 'the link signature does not match' };
    const expected = this.#mac(payload);
    // Constant time, and the lengths compared first only reveal what everyone knows (a SHA-256 is 32 bytes).
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { ok: false, reason: 'the link signature does not match' };
    const claims = parseClaims(Buffer.from(payload, 'base64url').toString('utf8'));
    if (claims === undefined) return { ok: false, reason: 'the link payload is unreadable' };
    if (this.#now() >= claims.exp) return { ok: false, reason: 'the link has expired' };
    return { ok: true, claims };
  }

  #mac(payload: string): Buffer {
    return createHmac('sha256', this.#key).update(payload, 'utf8').digest();
  }
}

/** An HMAC-SHA256 in unpadded base64url: 32 bytes are 43 characters of the URL-safe alphabet. */
const canonicalSignature = /^[A-Za-z0-9_-]{43}$/;

/** The page URL a person opens: `baseUrl` with the capability as `?link=` (its other query parameters kept). */
export function linkUrl(baseUrl: string, capability: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set('link', capability);
  return url.href;
}

function parseClaims(text: string): LinkClaims | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { rpcId, sessionId, exp } = value as Record<string, unknown>;
  if (typeof rpcId !== 'string' || typeof sessionId !== 'string' || typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
  return { rpcId, sessionId, exp };
}

/** Options of `host.linkFor`. */
export interface LinkForOptions {
  /** How long the link works, in milliseconds (it also stops once the question is settled). Default one day. */
  expiresIn?: number;
}

/**
 * The host's side of links: mint one for a pending question (`linkFor`), or for the question
 * `notify` is about to announce (`forNotify`, which never throws: a notification goes out anyway).
 */
export class QuestionLinks {
  constructor(
    readonly signer: LinkSigner,
    private readonly baseUrl: string | undefined,
    private readonly sessionOfPending: (rpcId: string) => string | undefined,
  ) {}

  linkFor(rpcId: string, options: LinkForOptions = {}): string {
    if (this.baseUrl === undefined) {
      throw new WebSocketHostError('NO_LINK_BASE_URL', 'host.linkFor needs the page a link opens: pass `linkBaseUrl` (e.g. "https://app.example/answer") to createWebSocketHost.');
    }
    const expiresIn = options.expiresIn ?? DEFAULT_LINK_EXPIRES_IN_MS;
    if (!Number.isSafeInteger(expiresIn) || expiresIn <= 0) {
      throw new WebSocketHostError('INVALID_REQUEST', `host.linkFor: expiresIn must be a whole number of milliseconds above 0, not ${String(expiresIn)}.`);
    }
    const sessionId = typeof rpcId === 'string' ? this.sessionOfPending(rpcId) : undefined;
    if (sessionId === undefined) {
      throw new WebSocketHostError('NOT_PENDING', `host.linkFor: question ${String(rpcId)} is not pending on this host (unknown, or already settled: host.pending() does not list it); a link could only say so.`);
    }
    return linkUrl(this.baseUrl, this.signer.sign(rpcId, sessionId, expiresIn));
  }

  /** The link `notify` gets: undefined without `linkBaseUrl`. */
  forNotify(record: { rpcId: string; sessionId: string }): string | undefined {
    if (this.baseUrl === undefined) return undefined;
    return linkUrl(this.baseUrl, this.signer.sign(record.rpcId, record.sessionId, DEFAULT_LINK_EXPIRES_IN_MS));
  }
}
