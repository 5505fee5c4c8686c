import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebSocketHost, toNodeListener, type WebSocketHost } from '@askseam/host-ws';
import type { QuestionStore } from '@askseam/store';
import { defaultBundlePath, defaultConsoleBundlePath } from './bundle.js';
import { DEFAULT_PORT, type DemoAgentConfig, type DemoLang, type DemoTransport } from './config.js';
import { openDemoPostgresStore, openDemoStore, printResumed } from './durable-store.js';
import { demoRequestHandler } from './http.js';
import { runOpenAIAgent } from './openai-agent.js';
import { describeOutcome, type AgentOutcome } from './outcome.js';
import { pagePaths } from './page.js';
import { printToConsole, type PrintLine } from './print.js';
import { createDemoRuntime, type DemoRuntime } from './runtime.js';
import { runScriptedAgent } from './scripted-agent.js';
import { createDemoTools } from './tools.js';

/** The demo only ever binds to loopback: it hands out answers as the one local user. */
const LOOPBACK = '127.0.0.1';

export interface StartDemoOptions {
  /** `0` = any free port. Absent: try 4317, and fall back to a free port if it is taken. */
  port?: number;
  /** Default page language and the scripted agent's language. Default `'en'`. */
  lang?: DemoLang;
  /** Default: the scripted agent (no network). */
  agent?: DemoAgentConfig;
  /** Where the transcript goes. Default `console.log`. */
  print?: PrintLine;
  /** The web component bundle to serve. Default: the one `@askseam/web` builds. */
  bundlePath?: string;
  /** Per model request (OpenAI-compatible agent only). Default 120 s. */
  modelTimeoutMs?: number;
  /**
   * Keep pending questions in SQLite in this directory, so they survive a restart (answers to
   * questions asked before it are printed as `[resume]` lines). Default: in memory.
   */
  dataDir?: string;
  /** Keep questions in this PostgreSQL database instead (`postgres://…`, schema `askseam_demo`). Not with `dataDir`. */
  storeUrl?: string;
  /**
   * How the page reaches the host: `'ws'` (a WebSocket on `/askseam`, the default) or `'sse'`
   * (HTTP + Server-Sent Events: `GET /askseam/events`, `POST /askseam/respond`). The socket is
   * served either way, so a Node client may still use `socketUrl`.
   */
  transport?: DemoTransport;
}

export interface Demo {
  /** The page to open, with the token: `http://127.0.0.1:<port>/?token=…`. */
  readonly url: string;
  /** The WebSocket host, without the token: `ws://127.0.0.1:<port>/askseam`. */
  readonly socketUrl: string;
  /** The transport the page uses. */
  readonly transport: DemoTransport;
  /** The URL the page's element is given, without the token: `socketUrl`, or `http://127.0.0.1:<port>/askseam` with SSE. */
  readonly hostUrl: string;
  readonly token: string;
  /** The operator console, with its own token: `http://127.0.0.1:<port>/askseam/console?token=…` (docs/console.md). */
  readonly consoleUrl: string;
  readonly port: number;
  /** The agent's in-process world (registry, seam, plan mode), for embedding and tests. */
  readonly runtime: DemoRuntime;
  /** Settles when the agent stops; never rejects (a failure is the `failed` outcome). */
  readonly done: Promise<AgentOutcome>;
  /** Withdraw any waiting question, close the host and the server. Idempotent. */
  close(): Promise<void>;
}

/**
 * Serve the page and the WebSocket host from one server on 127.0.0.1, print the page URL, and
 * start the agent. The agent starts at once: questions asked before a browser connects are
 * replayed to it when it does.
 */
export async function startDemo(options: StartDemoOptions = {}): Promise<Demo> {
  const print = options.print ?? printToConsole;
  const lang = options.lang ?? 'en';
  const agentConfig = options.agent ?? { kind: 'scripted' };
  const transport = options.transport ?? 'ws';
  const token = randomBytes(24).toString('base64url');
  // The console's own secret: the page's token never opens it.
  const operatorToken = randomBytes(24).toString('base64url');

  const servePage = demoRequestHandler({ bundlePath: options.bundlePath ?? defaultBundlePath(), defaultLang: lang, transport });
  let host: WebSocketHost | undefined;
  let serveEvents: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  // The host's HTTP API (list/answer/cancel by rpcId, for curl or a bot) shares the page's server.
  // With SSE, the event stream and respond routes come first: the API claims every path under /askseam/.
  const server = createServer((req, res) => {
    if (serveEvents !== undefined && isSseRoute(req)) return serveEvents(req, res);
    if (host?.handleRequest(req, res)) return;
    servePage(req, res);
  });
  // Keep-alive sockets from the browser would otherwise hold `server.close()` open for seconds.
  server.keepAliveTimeout = 1_000;
  const port = await listen(server, options.port);
  const origin = `http://${LOOPBACK}:${port}`;

  const runtime = createDemoRuntime();
  let store: (QuestionStore & { close(): unknown }) | undefined;
  try {
    if (options.storeUrl !== undefined) store = await openDemoPostgresStore(options.storeUrl);
    else if (options.dataDir !== undefined) store = openDemoStore(options.dataDir);
    host = await createWebSocketHost({
      userQuestions: runtime.userQuestions,
      server,
      path: pagePaths.socket,
      token,
      operatorToken,
      consoleScript: defaultConsoleBundlePath(),
      // Only this page may connect from a browser; clients without an Origin (Node, curl) still need the token.
      origins: [origin, `http://localhost:${port}`],
      ...(store === undefined ? {} : { store, onResume: printResumed(print) }),
    });
  } catch (error) {
    await store?.close();
    await closeServer(server);
    throw error;
  }

  const openHost = host;
  if (transport === 'sse') serveEvents = toNodeListener(openHost.fetchHandler());
  const url = `${origin}/?token=${token}`;
  const socketUrl = `ws://${LOOPBACK}:${port}${pagePaths.socket}`;
  const hostUrl = transport === 'sse' ? `${origin}${pagePaths.socket}` : socketUrl;
  const consoleUrl = `${origin}${pagePaths.socket}/console?token=${operatorToken}`;
  printBanner(print, url, consoleUrl, agentConfig, transport);

  const stop = new AbortController();
  const tools = createDemoTools({ runtime, print, signal: stop.signal });
  const run = (): Promise<AgentOutcome> =>
    agentConfig.kind === 'openai'
      ? runOpenAIAgent({
          config: agentConfig,
          tools,
          runtime,
          print,
          lang,
          signal: stop.signal,
          ...(options.modelTimeoutMs === undefined ? {} : { requestTimeoutMs: options.modelTimeoutMs }),
        })
      : runScriptedAgent({ tools, runtime, print, lang });
  const done = run()
    .catch((error: unknown): AgentOutcome => (stop.signal.aborted ? { status: 'aborted' } : { status: 'failed', reason: messageOf(error) }))
    .then((outcome) => {
      print(`[done] ${describeOutcome(outcome)}`);
      return outcome;
    });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // With a store, close the host first: its questions stay pending on disk for the next run.
      // Aborting the agent first would withdraw them (the host records an aborted ask as settled).
      if (store !== undefined) await openHost.close();
      stop.abort(new Error('The demo is shutting down.'));
      await openHost.close();
      await store?.close();
      await closeServer(server);
      await done;
    })();
    return closing;
  };

  return { url, socketUrl, transport, hostUrl, token, consoleUrl, port, runtime, done, close };
}

/** The SSE transport's two routes (the wire in docs/protocol.md); everything else under /askseam/ is the HTTP API. */
function isSseRoute(req: IncomingMessage): boolean {
  const path = new URL(req.url ?? '/', 'http://demo.invalid').pathname;
  return path === `${pagePaths.socket}/events` || path === `${pagePaths.socket}/respond`;
}

function printBanner(print: PrintLine, url: string, consoleUrl: string, agent: DemoAgentConfig, transport: DemoTransport): void {
  const who =
    agent.kind === 'openai' ? `an OpenAI-compatible model (${agent.model} at ${agent.baseUrl})` : 'the scripted demo agent (no network, no API key)';
  print('');
  print(`askseam demo: ${who} will ask you questions.`);
  print('');
  print(`Open this URL in your browser to answer them (the page talks to the host over ${transport === 'sse' ? 'HTTP + Server-Sent Events' : 'a WebSocket'}):`);
  print('');
  print(`  ${url}`);
  print('');
  print('The operator console (what waits, withdraw, history, timelines, charts) is at:');
  print('');
  print(`  ${consoleUrl}`);
  print('');
  print('Every tool call and every tool result the model receives is printed below. Press Ctrl+C to stop.');
  print('');
}

/** Listen on `port`; with no port given, the friendly default first and any free port if it is taken. */
async function listen(server: Server, port: number | undefined): Promise<number> {
  try {
    await listenOnce(server, port ?? DEFAULT_PORT);
  } catch (error) {
    if (port !== undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await listenOnce(server, 0);
  }
  return (server.address() as AddressInfo).port;
}

function listenOnce(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, LOOPBACK);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    // Idle keep-alive connections would hold the close open; upgraded sockets are already gone.
    server.closeAllConnections();
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
