// The baseline: a bare `ws` server and client passing frames of given sizes, nothing else.
import { once } from 'node:events';
import WebSocket, { WebSocketServer } from 'ws';
import { padding } from './fixtures.mjs';
import { now } from './stats.mjs';

/**
 * One server socket and `clients` client sockets. Each client answers every frame it receives
 * at once with a reply of `replyBytes`. `exchange(socketIndex)` sends one request of
 * `requestBytes` on that connection and resolves when its reply is back. With `afterReply`
 * (a list of sizes), the server first sends those frames back, as our host sends a receipt and a
 * question/resolved frame before the ask settles; the client ignores them.
 */
export async function startBarePair({ requestBytes, replyBytes, clients = 1, afterReply = [] }) {
  // Same settings as the host's server: no compression, explicit payload limit.
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: 1024 * 1024, clientTracking: false });
  await once(server, 'listening');
  const url = `ws://127.0.0.1:${server.address().port}/`;
  const request = padding(requestBytes);
  const reply = padding(replyBytes);
  const followUps = afterReply.map((bytes) => padding(bytes));

  const serverSockets = [];
  const waiting = []; // per server socket: FIFO of resolvers for replies in flight
  server.on('connection', (socket) => {
    const index = serverSockets.length;
    serverSockets.push(socket);
    waiting.push([]);
    socket.on('error', () => {});
    socket.on('message', () => {
      for (const followUp of followUps) socket.send(followUp);
      waiting[index].shift()?.();
    });
  });

  const clientSockets = [];
  // Open in batches: a thousand simultaneous handshakes overflow the listen backlog on small machines.
  for (let first = 0; first < clients; first += 100) {
    const batch = [];
    for (let i = first; i < Math.min(clients, first + 100); i++) {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      socket.on('error', () => {});
      // Only requests are answered: follow-ups are the only frames of another size.
      socket.on('message', (data) => {
        if (data.length === requestBytes) socket.send(reply);
      });
      clientSockets.push(socket);
      batch.push(once(socket, 'open'));
    }
    await Promise.all(batch);
  }
  while (serverSockets.length < clients) await new Promise((resolve) => setTimeout(resolve, 1));

  function exchange(index = 0) {
    return new Promise((resolve) => {
      waiting[index].push(resolve);
      serverSockets[index].send(request);
    });
  }

  return {
    exchange,
    sockets: clients,
    async latencies(count) {
      const samples = [];
      for (let i = 0; i < count; i++) {
        const start = now();
        await exchange(0);
        samples.push(now() - start);
      }
      return samples;
    },
    async close() {
      for (const socket of clientSockets) socket.terminate();
      for (const socket of serverSockets) socket.terminate();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
