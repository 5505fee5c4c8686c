// The REAL HTTP + Server-Sent Events host for the client's and the element's SSE tests: a
// `createWebSocketHost` on 127.0.0.1:0 with a shared token, its `fetchHandler()` mounted with
// `toNodeListener` on a Node http server of the test's own. Nothing here speaks the wire itself:
// the stage only watches the handler's requests and responses (to let a test wait for them) and
// drives the host through its public API (`askDetached`, a POST from "another tab", `pending()`).
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebSocketHost, toNodeListener, type WebSocketHost } from '@askseam/host-ws';
import type { ReceiptFrame } from '@askseam/protocol';
import { UserQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { Inbox } from './inbox.js';

export interface SseStageOptions {
  /** The host's shared token (`?token=` or Bearer). */
  token: string;
  /** The host's `maxPayload`: larger POST bodies get 413. Default: the host's. */
  maxPayload?: number;
  /** Requests outside `<base>/` (a test page, a bundle) go here; default 404. */
  fallback?: RequestListener;
}

/** One `GET <base>/events` the host accepted (answered 200). */
export interface AcceptedStream {
  readonly url: URL;
}

/** One `POST <base>/respond` the host judged (answered 200 with a receipt). */
export interface JudgedRespond {
  readonly frame: { id?: string; rpcId: string; result: unknown };
  readonly receipt: ReceiptFrame;
}

export interface SseStage {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `http://127.0.0.1:<port>/askseam`: the URL a client is given. */
  readonly url: string;
  readonly host: WebSocketHost;
  readonly server: Server;
  /** Every request to `<base>/…` (accepted or refused), in order. */
  readonly requests: URL[];
  /** The next accepted event stream (already-accepted ones first). */
  nextStream(): Promise<AcceptedStream>;
  /** The next judged respond POST (already-judged ones first). */
  nextRespond(): Promise<JudgedRespond>;
  /** A detached ask on the host; resolves with the rpcId the host gave it. */
  ask(questions: AskUserQuestionItem[], sessionId?: string): Promise<string>;
  /** Settle a question as another tab would: a POST of its own with the host's token. */
  settle(rpcId: string, outcome: 'answered' | 'cancelled', answer?: unknown): Promise<void>;
  /**
   * A second credential the fetch handler's `authenticate` accepts (sees every session) until
   * `revoke(credential)`: how a test takes a client's access away while its stream stays open.
   */
  grant(credential: string): void;
  revoke(credential: string): void;
  /** The rpcIds pending on the host now. */
  readonly pending: readonly string[];
  /** From now on new event streams wait until the returned release is called (a slow network). */
  holdStreams(): () => void;
  /** Cut every open connection from the server side, as a proxy or a restart would. */
  dropStreams(): void;
  close(): Promise<void>;
}

const base = '/askseam';
const stagePostHeader = 'x-sse-stage';

export async function startSseStage(options: SseStageOptions): Promise<SseStage> {
  const host = await createWebSocketHost({
    userQuestions: new UserQuestions(),
    token: options.token,
    host: '127.0.0.1',
    port: 0,
    ...(options.maxPayload === undefined ? {} : { maxPayload: options.maxPayload }),
  });
  const granted = new Set<string>();
  const handler = host.fetchHandler({
    authenticate: (request) => {
      const presented = new URL(request.url).searchParams.get('token') ?? /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
      return presented !== undefined && granted.has(presented) ? { id: `granted:${presented}`, canSee: () => true } : undefined;
    },
  });
  const requests: URL[] = [];
  const streams = new Inbox<AcceptedStream>();
  const responds = new Inbox<JudgedRespond>();
  let streamGate: Promise<void> = Promise.resolve();

  // Watch the real handler's traffic without changing it: a copy of each POST body, a copy of each receipt.
  const watched = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    requests.push(url);
    if (url.pathname === `${base}/events`) await streamGate;
    const body = request.method === 'POST' ? request.clone().text() : undefined;
    const response = await handler(request);
    if (response.status === 200 && url.pathname === `${base}/events`) streams.push({ url });
    // The stage's own settling POSTs ("another tab") are not the client's: they are not queued.
    const ownPost = request.headers.has(stagePostHeader);
    if (response.status === 200 && url.pathname === `${base}/respond` && body !== undefined && !ownPost) {
      const [frame, receipt] = await Promise.all([body, response.clone().text()]);
      responds.push({ frame: JSON.parse(frame) as JudgedRespond['frame'], receipt: JSON.parse(receipt) as ReceiptFrame });
    }
    return response;
  };
  const listener = toNodeListener(watched);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path.startsWith(`${base}/`)) listener(request, response);
    else if (options.fallback) options.fallback(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    url: `${origin}${base}`,
    host,
    server,
    requests,
    nextStream: () => streams.next(),
    nextRespond: () => responds.next(),
    async ask(questions, sessionId = 'agent-1') {
      return (await host.askDetached({ questions, sessionId })).rpcId;
    },
    async settle(rpcId, outcome, answer) {
      const question = host.pending().find((pending) => pending.rpcId === rpcId);
      if (question === undefined) throw new Error(`settle: ${rpcId} is not pending on the host`);
      const result = outcome === 'cancelled' ? { ok: false, error: { code: 'cancelled' } } : { ok: true, value: { sessionId: question.sessionId, answer } };
      const response = await fetch(`${origin}${base}/respond?token=${encodeURIComponent(options.token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [stagePostHeader]: '1' },
        body: JSON.stringify({ type: 'question/respond', rpcId, result }),
      });
      const receipt = (await response.json()) as ReceiptFrame;
      if (!receipt.accepted) throw new Error(`settle: the host refused to settle ${rpcId} (${receipt.reason}: ${receipt.detail ?? ''})`);
    },
    grant: (credential) => granted.add(credential),
    revoke: (credential) => granted.delete(credential),
    get pending() {
      return host.pending().map((question) => question.rpcId);
    },
    holdStreams() {
      let release: () => void = () => undefined;
      streamGate = new Promise((resolve) => (release = resolve));
      return () => {
        streamGate = Promise.resolve();
        release();
      };
    },
    dropStreams() {
      server.closeAllConnections();
    },
    async close() {
      await host.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
