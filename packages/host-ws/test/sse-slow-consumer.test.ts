// An event stream whose client never reads, over a real Node http server and a raw TCP client
// that stops reading once the headers are in: the host must let it go, subscriber and socket.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toNodeListener, type FetchHandler } from '../src/index.js';
import { cleanup, colourQuestion, startHost, TOKEN, type TestHost } from './fixture.js';
import { until } from './hardening/wire.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
  await cleanup();
});

/** A question of ~250 KB: far more than the kernel buffers of a loopback connection hold, in a few dozen. */
const big = { ...colourQuestion, detail: 'x'.repeat(250 * 1024) };

/** The handler in a real Node http server, with the server side of every TCP connection it accepted. */
async function serve(handler: FetchHandler): Promise<{ port: number; serverSockets: Socket[] }> {
  const serverSockets: Socket[] = [];
  const server: Server = createServer(toNodeListener(handler));
  server.on('connection', (socket) => serverSockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { port: (server.address() as AddressInfo).port, serverSockets };
}

/** Open `GET /askseam/events` on a raw socket and stop reading as soon as the response headers arrive. */
async function openAndStopReading(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  opened.push(async () => void socket.destroy());
  socket.write(`GET /askseam/events?token=${TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  const head = await new Promise<string>((resolve, reject) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1')));
    socket.once('error', reject);
  });
  socket.pause();
  expect(head.startsWith('HTTP/1.1 200')).toBe(true);
  return socket;
}

function streamDisconnects(t: TestHost) {
  return t.events.filter((event) => event.type === 'disconnected' && event.connectionId.startsWith('s'));
}

describe('an event stream whose client never reads', () => {
  it('is let go by the heartbeat when it has not taken what it was sent: the subscriber is dropped and the TCP connection closed', async () => {
    const t = await startHost({ maxBufferedBytes: 256 * 1024, heartbeatMs: 500 });
    for (let asked = 0; asked < 40; asked++) void t.ask('agent-a', [big]).settled;
    // All saved (only saved questions are replayed).
    while ((await t.host.store.listPending('all')).length < 40) await new Promise((resolve) => setTimeout(resolve, 5));
    const { port, serverSockets } = await serve(t.host.fetchHandler());

    // The replay fills the kernel buffers, then waits on the host; no new frame ever comes.
    await openAndStopReading(port);
    await until(() => streamDisconnects(t).length === 1, () => `stream disconnects: ${JSON.stringify(streamDisconnects(t))}`);
    expect(streamDisconnects(t)[0]).toMatchObject({ reason: 'not reading' });
    await until(() => serverSockets.length === 1 && serverSockets[0]!.destroyed, () => `server sockets: ${serverSockets.map((s) => s.destroyed).join(',')}`);
    expect(t.host.pending()).toHaveLength(40);
  });

  it('is let go when its backlog passes maxBufferedBytes as live frames arrive: the subscriber is dropped and the TCP connection closed', async () => {
    // A heartbeat far away: only the backlog rule can end this stream within the test.
    const t = await startHost({ maxBufferedBytes: 256 * 1024, heartbeatMs: 600_000 });
    const { port, serverSockets } = await serve(t.host.fetchHandler());
    await openAndStopReading(port);
    for (let asked = 0; asked < 400 && streamDisconnects(t).length === 0; asked++) {
      void t.ask('agent-a', [big]).settled;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(streamDisconnects(t)).toMatchObject([{ reason: 'slow consumer' }]);
    await until(() => serverSockets.length === 1 && serverSockets[0]!.destroyed, () => `server sockets: ${serverSockets.map((s) => s.destroyed).join(',')}`);
  });
});
