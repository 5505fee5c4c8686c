// Idle raw `ws` clients in a child process, so that the measuring process's heap holds only the
// server side of each connection. The parent forks this file with a base URL and a count; the
// child opens one client per session (`?session=<id>`), in batches of 100, and reports `ready`
// once every one is open (and, with --hello, has read its first frame: for askseam, the hello
// that follows authentication). It closes them all on `close` and exits.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const self = fileURLToPath(import.meta.url);

/** Start `count` idle clients of `baseUrl` in a child; resolves once they are all connected. */
export async function openIdleClients(baseUrl, count, { hello, sessionIdOf }) {
  const urls = Array.from({ length: count }, (_, index) => `${baseUrl}?session=${encodeURIComponent(sessionIdOf(index))}`);
  const child = fork(self, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.send({ urls, hello });
  const [message] = await once(child, 'message');
  if (!message.ready) throw new Error(`idle clients failed: ${message.error}`);
  return {
    async close() {
      const exited = once(child, 'exit');
      child.send({ close: true });
      await exited;
    },
  };
}

async function runChild() {
  const sockets = [];
  process.on('message', async (message) => {
    if (message.close) {
      for (const socket of sockets) socket.terminate();
      process.exit(0);
    }
    try {
      for (let first = 0; first < message.urls.length; first += 100) {
        const batch = message.urls.slice(first, first + 100).map((url) => {
          const socket = new WebSocket(url, { perMessageDeflate: false });
          sockets.push(socket);
          return new Promise((resolve, reject) => {
            socket.once('error', reject);
            if (message.hello) socket.once('message', resolve);
            else socket.once('open', resolve);
          });
        });
        await Promise.all(batch);
      }
      process.send({ ready: true });
    } catch (error) {
      process.send({ ready: false, error: String(error) });
    }
  });
}

if (process.argv[1] === self && process.send) void runChild();
