// The browser section's world: one HTTP server on 127.0.0.1:0 serving a page with the visible probe
// and the element's built browser bundle, the real WebSocket host on that server (and its
// `fetchHandler()` under /askseam/ for the SSE transport), the seam with one root agent, and a bare
// `ws` server on its own port that sends the plain baseline's frames.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { createWebSocketHost, toNodeListener } from '@askseam/host-ws';
import { UserQuestions } from '@askseam/user-questions';
import { WebSocketServer } from 'ws';
import { agentRegistry } from './askseam.mjs';
import { visibleProbeScript } from './visible-probe.mjs';

// What the page does for the bench, outside the measured span: answer the question on screen
// through the element's own client, and run the plain baseline (a trivial handler that puts the
// frame's text in one <div>).
const benchScript = `
const element = () => document.querySelector('askseam-questions');
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));
const plainText = (frame) => frame.questions
  .flatMap((question) => [question.header, question.question, ...(question.options ?? []).flatMap((option) => [option.label, option.description])])
  .filter(Boolean)
  .join('\\n');
window.__bench = {
  async clientOpen() {
    while (element()?.client?.status !== 'open') await new Promise((resolve) => setTimeout(resolve, 5));
  },
  /** An empty requestAnimationFrame loop: Chromium's frame clock never idles (see visible-questions.mjs). */
  keepFramesComing() {
    const tick = () => requestAnimationFrame(tick);
    tick();
  },
  /** Answer the one pending question, then wait until the element has let it go. */
  async answerShown(answer) {
    const client = element().client;
    const [pending] = client.pending.values();
    if (pending === undefined) throw new Error('answerShown: nothing is pending on the page');
    await client.answer(pending.rpcId, answer);
    while (client.pending.size > 0) await pause();
    await pause();
  },
  plainConnect(url) {
    const socket = new WebSocket(url);
    socket.addEventListener('message', (event) => {
      const line = document.createElement('div');
      line.textContent = plainText(JSON.parse(event.data));
      document.getElementById('plain').append(line);
    });
    return new Promise((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error('the plain baseline socket failed')), { once: true });
    });
  },
  plainClear() {
    document.getElementById('plain').replaceChildren();
  },
};
`;

const page = ({ url, token }) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>askseam bench: requested → visible</title>
<style>
  body { margin: 0; padding: 32px; background: #eef1f6; font-family: system-ui, sans-serif; }
  main { max-width: 640px; margin: 0 auto; }
  #plain { white-space: pre-line; }
</style>
<script>${visibleProbeScript}</script>
<script type="module" src="/askseam-questions.js"></script>
<script type="module" src="/bench.js"></script>
</head>
<body><main><askseam-questions url="${url}" token="${token}" lang="en"></askseam-questions><div id="plain"></div></main></body>
</html>`;

// A cross-origin isolated page reads performance.now() to 5 µs instead of 100 µs.
const isolated = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

/**
 * Start the stage serving `bundle`, the element's browser bundle (the bench serves the one
 * `pnpm build` wrote; the probe's test bundles it from source).
 * @param {{ bundle: string }} options
 */
export async function startBrowserStage({ bundle }) {
  const { agents, registry } = agentRegistry(['agent-browser']);
  const agent = agents.get('agent-browser');
  const userQuestions = new UserQuestions({ agents: registry });
  const token = 'bench-browser-token';

  let sseListener;
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname.startsWith('/askseam/')) sseListener(req, res);
    else if (pathname === '/') {
      const transport = new URL(req.url ?? '/', 'http://localhost').searchParams.get('transport') ?? 'ws';
      const url = `${transport === 'sse' ? 'http' : 'ws'}://127.0.0.1:${port}/askseam`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...isolated }).end(page({ url, token }));
    } else if (pathname === '/askseam-questions.js') res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    else if (pathname === '/bench.js') res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(benchScript);
    else res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  const host = await createWebSocketHost({ userQuestions, server, token });
  sseListener = toNodeListener(host.fetchHandler());

  const plain = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(plain, 'listening');
  const plainSockets = new Set();
  plain.on('connection', (socket) => {
    plainSockets.add(socket);
    socket.on('close', () => plainSockets.delete(socket));
  });

  return {
    origin: `http://127.0.0.1:${port}`,
    plainUrl: `ws://127.0.0.1:${plain.address().port}`,
    /** Ask through the seam; resolves with the answer. */
    ask: (questions) => userQuestions.ask({ questions, agent }),
    /** Send one text frame to every plain baseline socket. */
    sendPlain(text) {
      for (const socket of plainSockets) socket.send(text);
    },
    async close() {
      for (const socket of plainSockets) socket.terminate();
      await new Promise((resolve) => plain.close(resolve));
      await host.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
