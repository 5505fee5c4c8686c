// A small protocol peer for the client's tests: a real `ws` server on 127.0.0.1:0 whose every
// frame is written by the test. It stands in for the host while the test decides, step by step,
// what the host says (hello, replays, receipts), so each client behaviour can be provoked exactly.
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { Inbox } from './inbox.js';

export interface ScriptedHostOptions {
  /** When set, an upgrade without `?token=<token>` is refused with HTTP 401. */
  token?: string;
}

export interface ScriptedHost {
  /** ws://127.0.0.1:<port>/askseam */
  readonly url: string;
  /** Every upgrade request the server saw (accepted or refused), in order. */
  readonly requests: URL[];
  /** The next accepted connection (already-accepted ones first). */
  nextConnection(): Promise<ScriptedConnection>;
  /** How many connections were accepted so far. */
  readonly connectionCount: number;
  close(): Promise<void>;
}

export interface ScriptedConnection {
  readonly url: URL;
  readonly socket: WebSocket;
  /** Send a frame (any JSON value, so tests can send bad frames too). */
  send(frame: unknown): void;
  /** Send raw text. */
  sendRaw(text: string): void;
  /** The next frame the client sent, parsed as JSON. */
  nextFrame(): Promise<Record<string, unknown>>;
  /** The next frame of this type, skipping others (heartbeat pings, for instance). */
  nextFrameOfType(type: string): Promise<Record<string, unknown>>;
  /** Every frame received so far. */
  readonly frames: Record<string, unknown>[];
  /** Resolves when the socket has closed. */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Cut the TCP connection without a close handshake. */
  terminate(): void;
}

export async function startScriptedHost(options: ScriptedHostOptions = {}): Promise<ScriptedHost> {
  const requests: URL[] = [];
  const connections = new Inbox<ScriptedConnection>();
  const sockets = new Set<WebSocket>();
  let connectionCount = 0;

  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    path: '/askseam',
    verifyClient: ({ req }: { req: IncomingMessage }, done: (ok: boolean, status?: number) => void) => {
      const url = new URL(req.url ?? '/', 'ws://127.0.0.1');
      requests.push(url);
      if (options.token !== undefined && url.searchParams.get('token') !== options.token) done(false, 401);
      else done(true);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;

  server.on('connection', (socket, req) => {
    connectionCount++;
    sockets.add(socket);
    socket.on('error', () => {}); // a client that vanishes must not crash the test process
    const frames: Record<string, unknown>[] = [];
    const inbox = new Inbox<Record<string, unknown>>();
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      socket.once('close', (code, reason) => {
        sockets.delete(socket);
        resolve({ code, reason: reason.toString() });
      });
    });
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      frames.push(frame);
      inbox.push(frame);
    });
    const connection: ScriptedConnection = {
      url: new URL(req.url ?? '/', 'ws://127.0.0.1'),
      socket,
      send: (frame) => socket.send(JSON.stringify(frame)),
      sendRaw: (text) => socket.send(text),
      nextFrame: () => inbox.next(),
      async nextFrameOfType(type) {
        for (;;) {
          const frame = await inbox.next();
          if (frame.type === type) return frame;
        }
      },
      frames,
      closed,
      terminate: () => socket.terminate(),
    };
    connections.push(connection);
  });

  return {
    url: `ws://127.0.0.1:${port}/askseam`,
    requests,
    nextConnection: () => connections.next(),
    get connectionCount() {
      return connectionCount;
    },
    async close() {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
