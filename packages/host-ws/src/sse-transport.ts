import { randomBytes } from 'node:crypto';
import { parseClientFrame } from '@askseam/protocol';
import { BadResponseCounter } from './bad-responses.js';
import { capRefusal, type ConnectionCaps } from './connection-caps.js';
import type { HostLogger } from './logger.js';
import { nodeClientAddress } from './node-listener.js';
import { safeCanSee, type Principal } from './principal.js';
import type { ResolvedFetchHandlerOptions } from './sse-options.js';
import { SseSubscriber } from './sse-subscriber.js';
import type { Transport, TransportCore } from './transport.js';
import { authorizeRequest, originRefusal, type UpgradeAuth } from './upgrade.js';

/** A Web-standard request handler: Node (via `toNodeListener`), Hono, Next.js route handlers, workers. */
export type FetchHandler = (request: Request) => Promise<Response>;

export interface SseTransportOptions extends ConnectionCaps {
  handler: ResolvedFetchHandlerOptions;
  /** The host's token, anonymous and Origin rules; `authenticate` is the handler's own (a Web Request). */
  auth: Omit<UpgradeAuth, 'authenticate'>;
  maxPayload: number;
  heartbeatMs: number;
  maxBufferedBytes: number;
  maxBadFrames: number;
  badFrameWindowMs: number;
  logger: HostLogger;
}

/**
 * The HTTP + Server-Sent Events transport (docs/protocol.md, "HTTP + Server-Sent Events"):
 * `GET <path>/events` is a stream of the socket's frames, `POST <path>/respond` one response and its
 * receipt. Like the socket server it sees the host only through `TransportCore`: its streams are
 * `Subscriber`s of the same delivery, its responses go to the same judge.
 */
export class SseTransport implements Transport {
  /** Every subscriber, attached or waiting for its client to come back, by the stream id of its event ids. */
  readonly #streams = new Map<string, SseSubscriber>();
  /** When each waiting subscriber is let go. */
  readonly #expiry = new Map<SseSubscriber, NodeJS.Timeout>();
  /** Bad POSTs per sender within `badFrameWindowMs` (the socket closes a connection for as many). */
  readonly #badPosts: BadResponseCounter;
  #heartbeat: NodeJS.Timeout | undefined;
  #count = 0;
  readonly handle: FetchHandler = (request) => this.#handle(request);

  constructor(
    private readonly core: TransportCore,
    private readonly options: SseTransportOptions,
  ) {
    this.#badPosts = new BadResponseCounter(options.maxBadFrames, options.badFrameWindowMs);
  }

  start(): void {
    // A comment at least every heartbeatMs / 2: proxies keep the response open, and a client that
    // hears nothing for heartbeatMs knows the stream is dead.
    this.#heartbeat = setInterval(() => {
      for (const subscriber of this.#streams.values()) subscriber.ping();
      // Also when no POST comes: the senders of a passed window are not kept for the process's life.
      this.#badPosts.sweep();
    }, Math.max(1, Math.floor(this.options.heartbeatMs / 2)));
  }

  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    for (const subscriber of [...this.#streams.values()]) subscriber.drop('host closing');
  }

  async #handle(request: Request): Promise<Response> {
    const { path } = this.options.handler;
    const url = new URL(request.url);
    try {
      if (url.pathname === `${path}/events`) {
        if (request.method === 'OPTIONS') return this.#preflight(request);
        if (request.method !== 'GET') return errorResponse(405, 'method-not-allowed', 'Use GET here.', { Allow: 'GET' });
        return await this.#events(request, url);
      }
      if (url.pathname === `${path}/respond`) {
        if (request.method === 'OPTIONS') return this.#preflight(request);
        if (request.method !== 'POST') return errorResponse(405, 'method-not-allowed', 'Use POST here.', { Allow: 'POST' });
        return await this.#respond(request);
      }
      return errorResponse(404, 'not-found', `No route ${request.method} ${url.pathname}; the event stream is GET ${path}/events and responses go to POST ${path}/respond.`);
    } catch (error) {
      this.options.logger.error('an event-stream request failed', { method: request.method, path: url.pathname, error: String(error) });
      return errorResponse(500, 'internal', 'The host failed while handling the request; see its log.');
    }
  }

  /** Auth as on the socket: Origin first, then the token, the handler's authenticate, anonymous. */
  async #authorize(request: Request): Promise<{ ok: true; principal: Principal } | { ok: false; response: Response }> {
    const { authenticate } = this.options.handler;
    const decision = await authorizeRequest(
      {
        url: request.url,
        origin: request.headers.get('origin') ?? undefined,
        host: hostOf(request),
        authorization: request.headers.get('authorization') ?? undefined,
        authenticate: authenticate === undefined ? undefined : () => authenticate(request),
      },
      this.options.auth,
    );
    if (decision.ok) return decision;
    this.core.reporter.report({ kind: 'auth-failed', status: decision.status, reason: decision.reason }, { log: false });
    if (decision.status === 401) {
      return { ok: false, response: errorResponse(401, 'unauthorized', 'Present the token as ?token= or "Authorization: Bearer <token>", or the credentials your app checks.', { 'WWW-Authenticate': 'Bearer' }) };
    }
    return { ok: false, response: errorResponse(403, 'forbidden', 'This Origin may not use the host; list it in `origins`.') };
  }

  async #events(request: Request, url: URL): Promise<Response> {
    const { lifecycle, delivery, reporter } = this.core;
    if (lifecycle.ended) return errorResponse(503, 'closed', 'The host is closing.');
    const auth = await this.#authorize(request);
    if (!auth.ok) return auth.response;
    if (lifecycle.ended) return errorResponse(503, 'closed', 'The host is closing.');
    const { principal } = auth;
    const cors = this.#corsHeaders(request);
    const headers = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no', ...cors };

    // A reconnect that the host can still serve from where it left off: the same subscriber, no hello, no replay.
    const resumed = this.#resumable(request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId'), principal);
    if (resumed !== undefined) {
      const { subscriber, seq } = resumed;
      let ok = false;
      const body = this.#body(subscriber, (controller) => {
        ok = subscriber.resume(seq, controller);
      });
      if (ok) {
        this.#cancelExpiry(subscriber);
        return new Response(body, { status: 200, headers });
      }
    }

    const full = capRefusal(delivery.audience, principal, this.options);
    if (full !== undefined) {
      this.options.logger.warn('event stream refused: too many connections', { status: full.status, reason: full.reason, principalId: principal.id });
      return errorResponse(full.status, full.status === 429 ? 'too-many-connections' : 'host-full', `Refused: ${full.reason}.`);
    }
    const subscriber = new SseSubscriber(`s${++this.#count}`, randomBytes(12).toString('base64url'), principal, this.options.maxBufferedBytes, this.options.logger, (gone, reason) =>
      this.#forget(gone, reason),
    );
    this.#streams.set(subscriber.streamId, subscriber);
    reporter.report({ kind: 'connected', connectionId: subscriber.id, principalId: principal.id, transport: 'sse' }, { log: false });
    const body = this.#body(subscriber, (controller) => subscriber.attach(controller));
    delivery.arrive(subscriber);
    return new Response(body, { status: 200, headers });
  }

  /** The response body of one stream; when the client goes away, the subscriber waits resumeWindowMs for it. */
  #body(subscriber: SseSubscriber, attach: (controller: ReadableStreamDefaultController<Uint8Array>) => void): ReadableStream<Uint8Array> {
    let own: ReadableStreamDefaultController<Uint8Array> | undefined;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          own = controller;
          attach(controller);
        },
        pull: () => subscriber.pull(),
        cancel: () => {
          if (own === undefined) return;
          subscriber.detach(own);
          if (!subscriber.attached) this.#startExpiry(subscriber);
        },
      },
      // The queue of unread bytes is the subscriber's buffer: it writes while there is room.
      { highWaterMark: this.options.maxBufferedBytes, size: (chunk) => chunk.byteLength },
    );
  }

  /** The subscriber and seq named by a Last-Event-ID this principal may resume, if the host still has them. */
  #resumable(lastEventId: string | null, principal: Principal): { subscriber: SseSubscriber; seq: number } | undefined {
    if (lastEventId === null) return undefined;
    const match = /^([A-Za-z0-9_-]{16})-(\d{1,15})$/.exec(lastEventId);
    if (match === null) return undefined;
    const subscriber = this.#streams.get(match[1]!);
    // Another principal's stream id is no way into its frames: start fresh instead.
    if (subscriber === undefined || subscriber.principalId !== principal.id) return undefined;
    return { subscriber, seq: Number(match[2]) };
  }

  #startExpiry(subscriber: SseSubscriber): void {
    this.#cancelExpiry(subscriber);
    const timer = setTimeout(() => subscriber.drop('gone'), this.options.handler.resumeWindowMs);
    timer.unref();
    this.#expiry.set(subscriber, timer);
  }

  #cancelExpiry(subscriber: SseSubscriber): void {
    clearTimeout(this.#expiry.get(subscriber));
    this.#expiry.delete(subscriber);
  }

  #forget(subscriber: SseSubscriber, reason: string): void {
    this.#cancelExpiry(subscriber);
    this.#streams.delete(subscriber.streamId);
    this.core.delivery.leave(subscriber);
    this.core.reporter.report({ kind: 'disconnected', connectionId: subscriber.id, principalId: subscriber.principalId, code: 1001, reason, transport: 'sse' }, { log: false });
  }

  async #respond(request: Request): Promise<Response> {
    const { lifecycle, judge } = this.core;
    const cors = this.#corsHeaders(request);
    if (lifecycle.ended) return errorResponse(503, 'closed', 'The host is closing.', cors);
    const auth = await this.#authorize(request);
    if (!auth.ok) return auth.response;
    const { principal } = auth;
    const sender = this.#sender(request, principal);
    if (this.#badPosts.isOver(sender)) {
      return errorResponse(429, 'too-many-bad-frames', `More than maxBadFrames (${this.options.maxBadFrames}) unreadable or rejected responses within ${this.options.badFrameWindowMs} ms; wait and send a correct one.`, cors);
    }
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      return errorResponse(415, 'unsupported-media-type', 'Send the question/respond frame as JSON with "Content-Type: application/json".', cors);
    }
    const body = await readLimited(request, this.options.maxPayload);
    if (body === 'too-large') return errorResponse(413, 'too-large', `The body is larger than maxPayload (${this.options.maxPayload} bytes).`, { Connection: 'close', ...cors });
    const parsed = parseClientFrame(body);
    if (!parsed.ok || parsed.value.type !== 'question/respond') {
      this.#badPosts.count(sender);
      const error = parsed.ok ? { code: 'invalid-frame' as const, message: `POST ${this.options.handler.path}/respond takes one question/respond frame, not "${parsed.value.type}".` } : parsed.error;
      return jsonResponse(400, { type: 'error', code: error.code, message: error.message }, cors);
    }
    const outcome = await judge.judge(parsed.value, principal, (sessionId) => safeCanSee(principal, sessionId, this.options.logger), { channel: 'http', connectionId: 'sse' });
    // As on the socket: a response it cannot see, or one that does not fit, counts against the sender; a lost race (not-pending) does not.
    if (outcome.kind === 'rejected' && outcome.reason !== 'not-pending') this.#badPosts.count(sender);
    return jsonResponse(200, outcome.receipt, cors);
  }

  /**
   * Whom the bad-response limit counts: the principal from one client address, the nearest HTTP
   * has to the socket's one connection (a POST names no stream, and a client without keep-alive
   * uses a new connection each time). The principal alone when no address is known.
   */
  #sender(request: Request, principal: Principal): string {
    let address: string | undefined;
    try {
      address = this.options.handler.clientAddress?.(request) ?? nodeClientAddress(request);
    } catch (error) {
      this.options.logger.warn('fetchHandler clientAddress threw; counting bad responses by principal', { error: String(error) });
    }
    return typeof address === 'string' && address !== '' ? `${principal.id}\u0000${address}` : principal.id;
  }

  /** A page on an allowed other origin may read the responses (EventSource and fetch are CORS requests). */
  #corsHeaders(request: Request): Record<string, string> {
    const origin = request.headers.get('origin');
    if (origin === null || this.options.auth.origins === undefined) return {};
    return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
  }

  /** The CORS preflight of a cross-origin POST (or of an EventSource polyfill that sends headers): Origin rules only. */
  #preflight(request: Request): Response {
    const refusal = originRefusal(request.headers.get('origin') ?? undefined, hostOf(request), this.options.auth.origins);
    if (refusal !== undefined) return errorResponse(403, 'forbidden', 'This Origin may not use the host; list it in `origins`.');
    return new Response(null, {
      status: 204,
      headers: {
        ...this.#corsHeaders(request),
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'authorization, content-type, last-event-id',
        'Access-Control-Max-Age': '600',
      },
    });
  }
}

/** The Host the request was sent to: a Request built by a runtime may carry no Host header, but its URL names it. */
function hostOf(request: Request): string {
  return request.headers.get('host') ?? new URL(request.url).host;
}

/** The body's bytes, or 'too-large' past `limit` (read no further). */
async function readLimited(request: Request, limit: number): Promise<Uint8Array | 'too-large'> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return 'too-large';
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return 'too-large';
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers } });
}

/** Every refusal has the shape of the socket's `error` frame, with an HTTP-level code. */
function errorResponse(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(status, { type: 'error', code, message }, headers);
}
