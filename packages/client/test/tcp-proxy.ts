// A plain TCP relay between the client and the real host, so a test can cut a live connection (or
// keep the client out for a while) without touching either end: the way a flaky network would.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Rewrite a URL of the target so it goes through the proxy. */
  via(url: string): string;
  /** Destroy every relayed connection, both sides, without a WebSocket close handshake. */
  cut(): void;
  /** While blocked, new connections are accepted and dropped at once. */
  block(): void;
  unblock(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let blocked = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };

  const server = createServer((inbound) => {
    track(inbound);
    if (blocked) {
      inbound.destroy();
      return;
    }
    const outbound = connect(targetPort, targetHost);
    track(outbound);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    via(url) {
      const rewritten = new URL(url);
      rewritten.port = String(port);
      return rewritten.href;
    },
    cut() {
      for (const socket of sockets) socket.destroy();
    },
    block() {
      blocked = true;
    },
    unblock() {
      blocked = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
