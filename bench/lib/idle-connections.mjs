// Heap per idle authenticated connection: askseam's host against a bare `ws` server that runs the
// same `authenticate` and keeps the same principal per socket. The clients live in a child process
// (idle-clients.mjs), so the heap measured here is the server side of each connection only.
import { once } from 'node:events';
import http from 'node:http';
import { WebSocketServer } from 'ws';
import { openIdleClients } from './idle-clients.mjs';
import { authenticate, sessionId, startSessionHost } from './sessions.mjs';
import { settle, waitUntil } from './stats.mjs';

/** The bare baseline: an HTTP server, `ws` in noServer mode, the bench's authenticate, a message and an error listener per socket. */
export async function startBareServer() {
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1024 * 1024, clientTracking: false });
  // What an application keeps per socket: the socket and whose it is.
  const open = new Map();
  server.on('upgrade', (req, socket, head) => {
    const principal = authenticate(req);
    if (principal === undefined) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      open.set(ws, principal);
      ws.on('error', () => {});
      ws.on('message', () => {});
      ws.on('close', () => open.delete(ws));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `ws://127.0.0.1:${server.address().port}/`,
    hello: false,
    count: () => open.size,
    async close() {
      for (const ws of open.keys()) ws.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function startAskseamServer(sessions) {
  const stack = await startSessionHost(sessions, { countPending: false });
  return {
    url: stack.host.url,
    // Authenticated and greeted: the client waits for the hello before it counts as connected.
    hello: true,
    count: () => stack.host.connections().length,
    close: () => stack.host.close(),
  };
}

/**
 * Heap growth per connection (bytes, after full GCs) when `count` idle clients connect, for one
 * server kind. A warm-up batch connects and leaves first, so that compiled code and caches are
 * not counted as connections.
 */
export async function heapPerIdleConnection(kind, count, heapAfterGc) {
  const server = kind === 'bare' ? await startBareServer() : await startAskseamServer(count);
  try {
    const connect = async (n) => {
      const clients = await openIdleClients(server.url, n, { hello: server.hello, sessionIdOf: sessionId });
      await waitUntil(() => server.count() === n, { what: `${n} ${kind} connections to be accepted` });
      return clients;
    };
    const warm = await connect(Math.min(50, count));
    await warm.close();
    await waitUntil(() => server.count() === 0, { what: `the ${kind} warm-up connections to close` });
    await settle(20);
    const before = await heapAfterGc();
    const clients = await connect(count);
    const after = await heapAfterGc();
    await clients.close();
    await waitUntil(() => server.count() === 0, { what: `the ${kind} connections to close` });
    return (after - before) / count;
  } finally {
    await server.close();
  }
}
