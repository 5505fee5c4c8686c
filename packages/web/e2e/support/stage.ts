import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createWebSocketHost, toNodeListener, type HostEvent, type WebSocketHost, type WebSocketHostOptions } from '@askseam/host-ws';
import { UserQuestions, type AgentRef, type AgentRegistry } from '@askseam/user-questions';

// The page every browser test loads. Its module script (plain browser JavaScript, kept out of the
// test files so no test transform touches it) mounts one <askseam-questions> on request.
const mountScript = `
import { connectQuestions } from '/askseam-questions.js';

window.mountAskseam = ({ url, token, lang, mode, reconnectDelayMs, reconnectMaxDelayMs }) => {
  // Removing the old element closes the client it made; a client given to it is closed here.
  for (const old of document.querySelectorAll('askseam-questions')) {
    if (!old.hasAttribute('url')) old.client?.close();
    old.remove();
  }
  const element = document.createElement('askseam-questions');
  if (lang !== null) element.setAttribute('lang', lang);
  if (mode === 'attributes') {
    element.setAttribute('url', url);
    element.setAttribute('token', token);
  } else if (/^https?:/.test(url)) {
    // The same control over the HTTP + SSE transport: answers go out as POSTs through this fetch,
    // which can hold them back or rewrite the next one.
    const control = { hold: false, held: [], rewriteNextAnswer: undefined };
    window.__sends = control;
    window.__releaseSends = () => { control.hold = false; for (const send of control.held.splice(0)) send(); };
    const controlledFetch = (input, init = {}) => {
      let body = init.body;
      if (typeof body === 'string' && body.includes('"question/respond"') && control.rewriteNextAnswer) {
        const frame = JSON.parse(body);
        control.rewriteNextAnswer(frame);
        control.rewriteNextAnswer = undefined;
        body = JSON.stringify(frame);
      }
      const send = () => fetch(input, { ...init, body });
      if (!control.hold) return send();
      return new Promise((resolve, reject) => control.held.push(() => send().then(resolve, reject)));
    };
    element.client = connectQuestions({ url, token, fetch: controlledFetch, reconnect: { initialDelayMs: reconnectDelayMs, maxDelayMs: reconnectMaxDelayMs } });
  } else {
    // A socket whose outgoing answers the test can hold back or rewrite, as a slow network or a
    // proxy between this client and the host would.
    const control = { hold: false, held: [], rewriteNextAnswer: undefined };
    window.__sends = control;
    window.__releaseSends = () => { control.hold = false; for (const send of control.held.splice(0)) send(); };
    class ControlledSocket extends WebSocket {
      send(data) {
        let text = data;
        if (typeof text === 'string' && text.includes('"question/respond"') && control.rewriteNextAnswer) {
          const frame = JSON.parse(text);
          control.rewriteNextAnswer(frame);
          control.rewriteNextAnswer = undefined;
          text = JSON.stringify(frame);
        }
        if (control.hold) control.held.push(() => super.send(text));
        else super.send(text);
      }
    }
    element.client = connectQuestions({ url, token, WebSocket: ControlledSocket, reconnect: { initialDelayMs: reconnectDelayMs, maxDelayMs: reconnectMaxDelayMs } });
  }
  document.querySelector('#app').append(element);
};
`;

const testPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>askseam e2e</title>
<style>
  body { margin: 0; padding: 32px; background: #eef1f6; font-family: system-ui, sans-serif; }
  #app { max-width: 640px; margin: 0 auto; }
</style>
<script type="module" src="/mount.js"></script>
</head>
<body><main id="app"></main></body>
</html>`;

/**
 * How the element reaches the host: 'ws' dials the WebSocket host at ws://…/askseam; 'sse' opens
 * the host's `fetchHandler()` (HTTP + Server-Sent Events, docs/protocol.md), mounted on the same
 * server, at http://…/askseam.
 */
export type Transport = 'ws' | 'sse';

/** Every transport the element speaks: suites that are not about one of them run over each. */
export const transports: readonly Transport[] = ['ws', 'sse'];

/**
 * One test's world: a real HTTP server on 127.0.0.1:0 serving the test page and the bundle, the
 * real WebSocket host attached to it with a token (and, for 'sse', its fetch handler mounted on
 * the same server, so the stream and the POSTs are same-origin), and the seam with one live root agent.
 */
export interface Stage {
  readonly transport: Transport;
  readonly origin: string;
  /** ws:// URL of the host, without the token. */
  readonly wsUrl: string;
  /** The URL the element is given for this stage's transport (ws:// or http://), without the token. */
  readonly url: string;
  readonly token: string;
  readonly host: WebSocketHost;
  readonly userQuestions: UserQuestions;
  readonly agent: AgentRef;
  readonly events: HostEvent[];
  /** Cut every open WebSocket from the server side (the TCP socket is destroyed, as when a network drops). */
  dropConnections(): void;
  /** While true, new WebSocket connections are cut as soon as they arrive. */
  refuseConnections(refuse: boolean): void;
  /** Resolves once `check` holds for the host events seen so far. */
  waitForEvents(check: (events: readonly HostEvent[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startStage(bundle: string, transport: Transport = 'ws', hostOptions: Partial<WebSocketHostOptions> = {}): Promise<Stage> {
  const agent: AgentRef = { id: 'agent-e2e' };
  const registry: AgentRegistry = { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] };
  const userQuestions = new UserQuestions({ agents: registry });
  const token = 'e2e-token';
  const sockets = new Set<Duplex>();
  let refusing = false;
  const events: HostEvent[] = [];
  const waiters: (() => void)[] = [];

  // Set once the host exists (the host needs the server first); only 'sse' stages have one.
  let sseListener: ReturnType<typeof toNodeListener> | undefined;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (sseListener !== undefined && path.startsWith('/askseam/')) {
      sseListener(req, res);
    } else if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(testPage);
    } else if (path === '/mount.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(mountScript);
    } else if (path === '/askseam-questions.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    } else if (path.startsWith('/barrier-')) {
      // Tests fetch this to know that every request the page started before it has been reported.
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  });
  // Before the host's listener: this one sees every upgrade first and may cut it.
  server.prependListener('upgrade', (_req, socket: Duplex) => {
    if (refusing) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const host = await createWebSocketHost({
    ...hostOptions,
    userQuestions,
    server,
    token,
    // The test page itself: a link opens it with ?link=… (link.test.ts).
    linkBaseUrl: `http://127.0.0.1:${port}/`,
    onEvent: (event) => {
      events.push(event);
      for (const wake of waiters.splice(0)) wake();
    },
  });

  if (transport === 'sse') sseListener = toNodeListener(host.fetchHandler());

  return {
    transport,
    origin: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/askseam`,
    url: `${transport === 'sse' ? 'http' : 'ws'}://127.0.0.1:${port}/askseam`,
    token,
    host,
    userQuestions,
    agent,
    events,
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    refuseConnections: (refuse) => {
      refusing = refuse;
    },
    waitForEvents: async (check) => {
      while (!check(events)) {
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: async () => {
      await host.close();
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
