// Byte-level tools for the hardening tests: a WebSocket upgrade written by hand on a bare TCP
// socket, client frames encoded by hand (so a test can send half of one), a seeded random source,
// and a way to wait for a condition without guessing how long it takes.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** A bare TCP socket the test owns completely, and what the host answered to its upgrade request. */
export interface UpgradedSocket {
  socket: Socket;
  /** The HTTP status line and headers the host sent. */
  head: string;
  /** Bytes the host sent after its headers (the start of the first WebSocket frames). */
  rest: Buffer;
  /** Resolves when the socket is fully closed, whoever closed it. */
  closed: Promise<void>;
}

/** Open a TCP connection to the host of `url` (a `ws://` URL) and resolve once it is connected. */
export function tcpConnect(url: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    // A host that drops a misbehaving peer may reset the connection: that is an outcome, not a crash.
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => {});
    // Flowing, so that what the host sends (and its FIN) is read even when nobody listens for it;
    // a paused socket never learns that the other side hung up.
    socket.resume();
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** The upgrade request a WebSocket client sends, with room for extra header lines. */
export function upgradeRequest(url: string, extraHeaders: string[] = []): string {
  const { host, pathname, search } = new URL(url);
  return [
    `GET ${pathname}${search} HTTP/1.1`,
    `Host: ${host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
    ...extraHeaders,
    '',
    '',
  ].join('\r\n');
}

/** Send `request` (with anything pipelined behind it) and read the host's answer up to the end of its headers (or until it hangs up). */
export async function sendUpgrade(url: string, request: string | Buffer = upgradeRequest(url)): Promise<UpgradedSocket> {
  const { socket, closed } = await tcpConnect(url);
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const finish = (head: string, rest: Buffer) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve({ socket, head, rest, closed });
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end !== -1) finish(received.subarray(0, end).toString('latin1'), received.subarray(end + 4));
    };
    const onClose = () => finish(received.toString('latin1'), Buffer.alloc(0));
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.write(request);
  });
}

/** The status code of an HTTP head such as `HTTP/1.1 101 Switching Protocols`, or 0 when there is none. */
export function statusOf(head: string): number {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(head);
  return match ? Number(match[1]) : 0;
}

/** One masked client frame, as RFC 6455 says a client must send it. Opcode 1 is text, 2 binary. */
export function clientFrame(payload: string | Buffer, opcode = 1): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const mask = randomBytes(4);
  let header: Buffer;
  if (data.length < 126) {
    header = Buffer.from([0x80 | opcode, 0x80 | data.length]);
  } else if (data.length < 65_536) {
    header = Buffer.alloc(4);
    header[0] = 0x80 | opcode;
    header[1] = 0x80 | 126;
    header.writeUInt16BE(data.length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = 0x80 | opcode;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(data.length), 2);
  }
  const masked = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) masked[i] = data[i]! ^ mask[i % 4]!;
  return Buffer.concat([header, mask, masked]);
}

/** A small seeded generator (mulberry32), so a run that fails can be replayed with the same choices. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Wait until `condition()` holds, checking every few milliseconds. This is a hang guard, not a
 * timing check: it gives up only after 15 s, to fail with `describe()` (what was still missing)
 * rather than with the runner's bare timeout.
 */
export async function until(condition: () => boolean, describe: () => string = () => 'condition'): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Keep the reason visible if vitest times the test out while we wait.
    if (Date.now() - started > 15_000) throw new Error(`still waiting for: ${describe()}`);
  }
}

/** Let the event loop run `turns` times (sockets read, timers fire, close callbacks run). */
export async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}
