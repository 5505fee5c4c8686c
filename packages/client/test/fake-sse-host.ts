// TEST DOUBLE of the HTTP + Server-Sent Events wire (/work/briefs/sse-wire.md, docs/protocol.md),
// written while the real handler was being built in parallel. It is NOT the host: a small Node
// http server on 127.0.0.1:0 that speaks that wire, so the client's SSE channel (and the
// <askseam-questions> element over SSE) can be tested now. Everything about the wire lives in this
// one file, so swapping it for the real handler means replacing `startFakeSseHost` alone.
//
// What it does, as the wire says:
// - GET <base>/events: token from `?token=` or `Authorization: Bearer`, else 401; `200`,
//   `text/event-stream`, `cache-control: no-store`; every frame is `id: <n>` + `data: <json>`
//   (no event name); a fresh stream starts with hello (listing the pending rpcIds) and the replay
//   of every pending question; `: ping` comments every `heartbeatMs / 2`.
//   Resume: it keeps no history, so every Last-Event-ID counts as expired and gets a fresh stream
//   (one of the two outcomes the wire allows).
// - POST <base>/respond: same auth; body over `maxPayload` → 413; unreadable → 400 with
//   `{ type: 'error', code, message }`; otherwise 200 and the receipt, checks in the socket's
//   order (not-pending, then bad-response: result shape, session, answer fit). An accepted answer
//   or cancel settles the question and sends `question/resolved` to every stream.
// Not modelled: Origin checks, connection caps and rate limits, sessions a token may not see
// (every stream sees every session, so `forbidden` is never the fake's own verdict).
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROTOCOL_VERSION, parseClientFrame, respondResultSchema, type QuestionRequestedFrame, type ReceiptFrame } from '@askseam/protocol';
import { checkReceivedAnswer, type AskUserQuestionItem } from '@askseam/user-questions';

export interface FakeSseHostOptions {
  /** The token every request must carry (`?token=` or Bearer); requests without it get 401. */
  token: string;
  /** Mount path; default `/askseam`. */
  base?: string;
  /** The heartbeat comments go out every `heartbeatMs / 2`; default 30_000 (the socket host's default). */
  heartbeatMs?: number;
  /** POST bodies larger than this get 413; default 64 KiB. */
  maxPayload?: number;
  /** Requests outside `<base>/` (a test page, a bundle) go here; default 404. */
  fallback?: RequestListener;
}

/** One `GET <base>/events` the fake accepted. */
export interface FakeStream {
  readonly url: URL;
  readonly lastEventId: string | undefined;
}

/** One `POST <base>/respond` the fake read and judged. */
export interface FakeRespond {
  readonly frame: { id?: string; rpcId: string; result: unknown };
  readonly receipt: ReceiptFrame;
}

export interface FakeSseHost {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `http://127.0.0.1:<port><base>`: the URL a client is given. */
  readonly url: string;
  /** The accepted token; assign to rotate it (requests with the old one then get 401). */
  token: string;
  /** Every request to `<base>/…` (accepted or refused), in order. */
  readonly requests: URL[];
  /** How many event streams are open now. */
  readonly openStreams: number;
  /** The next accepted event stream (already-accepted ones first). */
  nextStream(): Promise<FakeStream>;
  /** The next judged respond POST (already-judged ones first). */
  nextRespond(): Promise<FakeRespond>;
  /** Ask: the question becomes pending and `question/requested` goes to every open stream. */
  ask(rpcId: string, questions: AskUserQuestionItem[], sessionId?: string): void;
  /** Settle a question as another client would: `question/resolved` goes to every open stream. */
  settle(rpcId: string, outcome: 'answered' | 'cancelled'): void;
  /**
   * The next respond that would be accepted gets `bad-response` with this detail instead and the
   * question stays pending, as when the host's copy of a question disagrees with the client's.
   */
  refuseNextAnswer(detail: string): void;
  /** The rpcIds pending now. */
  readonly pending: readonly string[];
  /** End every open event stream from the server side, as a proxy or a restart would. */
  dropStreams(): void;
  close(): Promise<void>;
}

/** A queue a test can await items from, in arrival order. */
class Inbox<T> {
  readonly #items: T[] = [];
  readonly #waiters: ((item: T) => void)[] = [];

  push(item: T): void {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(item);
    else this.#items.push(item);
  }

  next(): Promise<T> {
    const item = this.#items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

export async function startFakeSseHost(options: FakeSseHostOptions): Promise<FakeSseHost> {
  const base = (options.base ?? '/askseam').replace(/\/+$/, '');
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const maxPayload = options.maxPayload ?? 64 * 1024;
  let token = options.token;
  let eventId = 0;
  const requests: URL[] = [];
  const streams = new Set<ServerResponse>();
  const acceptedStreams = new Inbox<FakeStream>();
  const responds = new Inbox<FakeRespond>();
  const pending = new Map<string, QuestionRequestedFrame>();
  let refusal: string | undefined;

  const write = (stream: ServerResponse, frame: object): void => {
    stream.write(`id: ${++eventId}\ndata: ${JSON.stringify(frame)}\n\n`);
  };
  const broadcast = (frame: object): void => {
    for (const stream of streams) write(stream, frame);
  };
  const authorized = (request: IncomingMessage, url: URL): boolean => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    return (url.searchParams.get('token') ?? bearer) === token;
  };

  function openStream(request: IncomingMessage, response: ServerResponse, url: URL): void {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    const lastEventId = request.headers['last-event-id']?.toString() ?? url.searchParams.get('lastEventId') ?? undefined;
    // No history is kept, so any Last-Event-ID is "expired": a fresh stream, hello and the replay.
    write(response, { type: 'hello', protocol: PROTOCOL_VERSION, pending: [...pending.keys()] });
    for (const frame of pending.values()) write(response, frame);
    streams.add(response);
    const heartbeat = setInterval(() => response.write(': ping\n\n'), heartbeatMs / 2);
    response.on('close', () => {
      clearInterval(heartbeat);
      streams.delete(response);
    });
    acceptedStreams.push({ url, lastEventId });
  }

  async function respond(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxPayload) {
        response.writeHead(413).end();
        return;
      }
      chunks.push(chunk);
    }
    const parsed = parseClientFrame(Buffer.concat(chunks).toString('utf8'));
    if (!parsed.ok || parsed.value.type !== 'question/respond') {
      const error = parsed.ok
        ? { type: 'error', code: 'invalid-frame', message: `POST ${base}/respond takes a question/respond frame, not ${parsed.value.type}.` }
        : { type: 'error', code: parsed.error.code, message: parsed.error.message };
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(error));
      return;
    }
    const frame = parsed.value;
    const receipt = judge(frame);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(receipt));
    responds.push({ frame, receipt });
  }

  /** The socket host's respond checks, in its order, minus `forbidden` (every stream sees every session). */
  function judge(frame: { id?: string; rpcId: string; result: unknown }): ReceiptFrame {
    const reject = (reason: 'not-pending' | 'bad-response', detail?: string): ReceiptFrame => ({
      type: 'receipt',
      ...(frame.id === undefined ? {} : { id: frame.id }),
      rpcId: frame.rpcId,
      accepted: false,
      reason,
      ...(detail === undefined ? {} : { detail }),
    });
    const question = pending.get(frame.rpcId);
    if (question === undefined) return reject('not-pending');
    const result = respondResultSchema.safeParse(frame.result);
    if (!result.success) return reject('bad-response', 'The result must be { ok: true, value: { sessionId, answer } } or { ok: false, error: { code: "cancelled" } }.');
    let outcome: 'answered' | 'cancelled';
    if (result.data.ok) {
      if (result.data.value.sessionId !== question.sessionId) return reject('bad-response', `Question ${frame.rpcId} belongs to session ${question.sessionId}.`);
      const checked = checkReceivedAnswer(question.questions, result.data.value.answer);
      if (!checked.ok) return reject('bad-response', checked.mismatch.message);
      outcome = 'answered';
    } else {
      if (result.data.error.code !== 'cancelled') return reject('bad-response', 'Only the code "cancelled" settles a question.');
      outcome = 'cancelled';
    }
    if (refusal !== undefined) {
      const detail = refusal;
      refusal = undefined;
      return reject('bad-response', detail);
    }
    settle(frame.rpcId, outcome);
    return { type: 'receipt', ...(frame.id === undefined ? {} : { id: frame.id }), rpcId: frame.rpcId, accepted: true };
  }

  function settle(rpcId: string, outcome: 'answered' | 'cancelled'): void {
    const question = pending.get(rpcId);
    if (question === undefined) return;
    pending.delete(rpcId);
    broadcast({ type: 'question/resolved', rpcId, sessionId: question.sessionId, outcome });
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (!url.pathname.startsWith(`${base}/`)) {
      if (options.fallback) options.fallback(request, response);
      else response.writeHead(404).end();
      return;
    }
    requests.push(url);
    const endpoint = url.pathname.slice(base.length);
    const known = (endpoint === '/events' && request.method === 'GET') || (endpoint === '/respond' && request.method === 'POST');
    if (!known) {
      response.writeHead(404).end();
      return;
    }
    if (!authorized(request, url)) {
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    if (endpoint === '/events') openStream(request, response, url);
    else void respond(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    url: `${origin}${base}`,
    get token() {
      return token;
    },
    set token(value: string) {
      token = value;
    },
    requests,
    get openStreams() {
      return streams.size;
    },
    nextStream: () => acceptedStreams.next(),
    nextRespond: () => responds.next(),
    ask(rpcId, questions, sessionId = 'agent-1') {
      const frame: QuestionRequestedFrame = { type: 'question/requested', rpcId, sessionId, questions, askedAt: new Date().toISOString() };
      pending.set(rpcId, frame);
      broadcast(frame);
    },
    settle,
    refuseNextAnswer(detail) {
      refusal = detail;
    },
    get pending() {
      return [...pending.keys()];
    },
    dropStreams() {
      for (const stream of streams) stream.destroy();
    },
    async close() {
      for (const stream of streams) stream.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
