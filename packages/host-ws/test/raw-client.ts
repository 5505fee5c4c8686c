// A deliberately tiny protocol client for tests: raw `ws` socket, every server frame recorded,
// and waits for specific frames. It knows nothing about reconnects or drafts on purpose.
import { parseServerFrame, type ReceiptFrame, type ServerFrame } from '@askseam/protocol';
import { WebSocket, type ClientOptions } from 'ws';

type FrameOf<T extends ServerFrame['type']> = Extract<ServerFrame, { type: T }>;

export interface CloseInfo {
  code: number;
  reason: string;
}

const WAIT_MS = 5_000;

export class RawClient {
  /** Every frame received, in order. */
  readonly frames: ServerFrame[] = [];
  /** Resolves when the socket closes, with the code the client saw. */
  readonly closed: Promise<CloseInfo>;
  readonly #taken = new Set<ServerFrame>();
  readonly #waiters = new Set<() => void>();
  #nextId = 0;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      const parsed = parseServerFrame(isBinary ? (data as Buffer) : data.toString());
      if (!parsed.ok) throw new Error(`the host sent an unreadable frame: ${parsed.error.message}`);
      this.frames.push(parsed.value);
      for (const wake of this.#waiters) wake();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Open a socket and wait until it is accepted. Rejects with the HTTP status when the upgrade is refused. */
  static connect(url: string, options: ClientOptions = {}): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, options);
      const client = new RawClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_req, res) => {
        reject(new RefusedError(res.statusCode ?? 0));
        socket.terminate();
      });
      socket.once('error', (error) => reject(error));
    });
  }

  /** The HTTP status of a refused upgrade. Fails the test when the upgrade is accepted. */
  static async refusal(url: string, options: ClientOptions = {}): Promise<number> {
    try {
      const client = await RawClient.connect(url, options);
      client.socket.terminate();
    } catch (error) {
      if (error instanceof RefusedError) return error.status;
      throw error;
    }
    throw new Error(`expected ${url} to be refused, but the upgrade was accepted`);
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Send a `question/respond` frame and wait for the receipt that echoes its id. */
  async respond(rpcId: string, result: unknown): Promise<ReceiptFrame> {
    const id = `r${++this.#nextId}`;
    this.send({ type: 'question/respond', id, rpcId, result });
    return this.next('receipt', (receipt) => receipt.id === id);
  }

  /** Answer with `{ ok: true, value: { sessionId, answer } }`. */
  answer(rpcId: string, sessionId: string, answer: unknown): Promise<ReceiptFrame> {
    return this.respond(rpcId, { ok: true, value: { sessionId, answer } });
  }

  /** The first frame of `type` (matching `where`) not returned by an earlier `next`; waits for it if needed. */
  next<T extends ServerFrame['type']>(type: T, where: (frame: FrameOf<T>) => boolean = () => true, waitMs = WAIT_MS): Promise<FrameOf<T>> {
    const find = () =>
      this.frames.find((frame): frame is FrameOf<T> => frame.type === type && !this.#taken.has(frame) && where(frame as FrameOf<T>));
    return new Promise((resolve, reject) => {
      const check = () => {
        const frame = find();
        if (frame === undefined) return false;
        this.#taken.add(frame);
        done();
        resolve(frame);
        return true;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no "${type}" frame within ${waitMs} ms; received: ${JSON.stringify(this.frames.map((f) => f.type))}`));
      }, waitMs);
      const wake = () => void check();
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
      };
      this.#waiters.add(wake);
      check();
    });
  }

  /**
   * Ping the host and wait for its pong: frames on one socket arrive in order, so everything the
   * host sent this connection before it read the ping has arrived (to prove a frame was NOT sent).
   */
  async caughtUp(): Promise<void> {
    this.send({ type: 'ping' });
    await this.next('pong');
  }

  /** All frames of `type` received so far. */
  all<T extends ServerFrame['type']>(type: T): FrameOf<T>[] {
    return this.frames.filter((frame): frame is FrameOf<T> => frame.type === type);
  }

  /** Close and wait for the close to finish. */
  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.close();
    const timer = setTimeout(() => this.socket.terminate(), 1_000);
    await this.closed;
    clearTimeout(timer);
  }
}

export class RefusedError extends Error {
  constructor(readonly status: number) {
    super(`the upgrade was refused with HTTP ${status}`);
  }
}
