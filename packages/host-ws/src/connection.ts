import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { closeCodes, type ServerFrame } from '@askseam/protocol';
import { WebSocket } from 'ws';
import type { HostLogger } from './logger.js';
import { exhaustiveSessions, listedSessions, safeCanSee, seesEverything, type Principal } from './principal.js';

// The close codes live in @askseam/protocol, one table for the host and the clients; re-exported
// here because this package has always exported them.
export { closeCodes };

export interface ConnectionLimits {
  maxBufferedBytes: number;
  /** Unreadable frames and rejected responses within `badFrameWindowMs` that close the connection. */
  maxBadFrames: number;
  badFrameWindowMs: number;
}

/** A frame held back until the peer has read enough of what it was sent before. */
interface HeldFrame {
  /** The frame's text, or how to make it (a replayed question is serialised only when it is its turn). */
  text: string | (() => string);
  /** A live frame queued behind a replay: its characters count against `maxBufferedBytes`. */
  live: boolean;
  onSent?: () => void;
}

/**
 * The held list of every connection that holds nothing: shared and frozen, so that an idle
 * connection keeps no list of its own, and a push onto it would throw rather than leak frames
 * between connections (a list of its own is made before the first frame is held).
 */
const noHeldFrames: HeldFrame[] = Object.freeze([]) as unknown as HeldFrame[];

/** One accepted socket: whose it is, whether it still reads what it is sent, how much garbage it has sent. */
export class HostConnection {
  /** Cleared on each heartbeat tick, set again by the pong that echoes that tick's ping. */
  isAlive = true;
  /**
   * The peer sent something (a pong that echoes nothing we sent, a frame) since it last echoed a
   * ping: if it now misses one, it is there but not reading what it is sent.
   */
  heardSinceEcho = false;
  /** The payload of the last ping; only a pong that echoes it proves the peer read up to it. */
  #pingPayload: Buffer | undefined;
  /** The principal is one of the host's own see-everything principals (token, anonymous): nobody to ask. */
  readonly seesEverything: boolean;
  /** `principal.id` as it was when the connection was accepted (what the per-principal cap counts). */
  readonly principalId: string;
  /**
   * The only sessions this connection can see, when its principal declared its list exhaustive
   * (read once, here); undefined when `canSee` must be asked about every session.
   */
  readonly scope: readonly string[] | undefined;
  // The next three are made on first use: most connections never send a bad frame or need a
  // replay held back, and an idle one sends nothing (heap per idle connection).
  /** When the recent unreadable frames arrived (ms), oldest first; never more than maxBadFrames. */
  #badFrameTimes: number[] | undefined;
  /** The last task handed to `serially`; undefined until the first frame. */
  #queue: Promise<void> | undefined;
  /** True while the TCP socket is corked until the end of this tick (see #holdWritesForThisTick). */
  #corkedForTick = false;
  /** What the peer had left unread when this tick's cork began: this tick's own frames are ours, not its. */
  #unreadAtCork = 0;
  /** Characters sent this tick while corked; past maxBufferedBytes they are let out to the kernel. */
  #sentThisTick = 0;
  /**
   * Frames waiting for the peer to read what it already has: the rest of a replay, and every frame
   * sent while a replay is still going out (so they keep their order). Oldest first, from #heldHead.
   */
  #held: HeldFrame[] = noHeldFrames;
  #heldHead = 0;
  /** Characters of the live frames in #held. */
  #heldLiveChars = 0;

  constructor(
    readonly id: string,
    readonly principal: Principal,
    readonly socket: WebSocket,
    /** The TCP socket under `socket`, corked to put several frames into one write. */
    readonly transport: Duplex,
    readonly limits: ConnectionLimits,
    readonly logger: HostLogger,
  ) {
    this.principalId = principal.id;
    this.seesEverything = seesEverything(principal);
    this.scope = this.seesEverything ? undefined : exhaustiveSessions(principal, logger);
  }

  canSee(sessionId: string): boolean {
    if (this.seesEverything) return true;
    return safeCanSee(this.principal, sessionId, this.logger);
  }

  /** The sessions the principal lists (for `hello`): a hint, not a limit. */
  sessions(): string[] | undefined {
    return listedSessions(this.principal, this.logger);
  }


  /**
   * Send one frame. `checkBuffer` closes a consumer that has not read more than
   * `maxBufferedBytes` of what it was sent before; it is off for the hello, the first frame of a
   * connection. While a replay is going out the frame waits behind it (see `replay`).
   * Returns false when the frame was not sent. Never throws: a dying socket must not crash the host.
   */
  send(frame: ServerFrame, options: { checkBuffer: boolean }): boolean {
    return this.sendText(JSON.stringify(frame), options);
  }

  /** `send` for a frame already serialised (one question sent to many connections is stringified once). */
  sendText(text: string, { checkBuffer }: { checkBuffer: boolean }): boolean {
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    // While corked, bufferedAmount also counts this tick's frames, which the peer has not had a
    // chance to read yet: judge the peer by what it left unread before them.
    const unread = (this.#corkedForTick ? this.#unreadAtCork : this.socket.bufferedAmount) + this.#heldLiveChars;
    if (checkBuffer && unread > this.limits.maxBufferedBytes) {
      this.logger.warn('closing a slow consumer', {
        connectionId: this.id,
        bufferedAmount: unread,
        maxBufferedBytes: this.limits.maxBufferedBytes,
      });
      this.close(closeCodes.policyViolation, 'slow consumer');
      return false;
    }
    if (this.#heldHead < this.#held.length) {
      // Behind a replay still going out: the peer must see the frames in the order they were sent.
      // Something is held, so this is the connection's own list, not the shared empty one.
      this.#held.push({ text, live: true });
      this.#heldLiveChars += text.length;
      return true;
    }
    return this.#write(text);
  }

  /**
   * Send a replay (after the hello) as fast as the peer reads it, never leaving more than
   * `maxBufferedBytes` unread on its socket (a single bigger frame still goes, alone): a client
   * that stops reading holds at most that much of the host's memory, not the whole replay, and
   * each frame is serialised only when it is its turn. `onSent` runs as its frame is handed to the socket.
   */
  replay(frames: readonly { text: () => string; onSent: () => void }[]): void {
    if (frames.length > 0 && this.#held === noHeldFrames) this.#held = [];
    for (const frame of frames) this.#held.push({ text: frame.text, live: false, onSent: frame.onSent });
    this.#sendHeld();
  }

  /** What the host holds for this connection now: bytes on the socket not yet taken by the kernel, and frames held back behind a replay. */
  backlog(): { bufferedBytes: number; heldFrames: number } {
    return { bufferedBytes: this.socket.bufferedAmount + this.#heldLiveChars, heldFrames: this.#held.length - this.#heldHead };
  }

  /** Send held frames while the peer keeps up; each write's callback calls this again once the kernel has taken it. */
  #sendHeld(): void {
    while (this.#heldHead < this.#held.length) {
      if (this.socket.readyState !== WebSocket.OPEN) {
        this.#dropHeld();
        return;
      }
      const frame = this.#held[this.#heldHead]!;
      // Serialised once, when it is its turn; kept serialised while it waits for the peer.
      if (typeof frame.text === 'function') frame.text = frame.text();
      const unread = this.socket.bufferedAmount;
      if (unread > 0 && unread + frame.text.length > this.limits.maxBufferedBytes) return;
      this.#held[this.#heldHead++] = undefined as unknown as HeldFrame;
      if (frame.live) this.#heldLiveChars -= frame.text.length;
      if (this.#write(frame.text)) frame.onSent?.();
    }
    this.#dropHeld();
  }

  #dropHeld(): void {
    this.#held = noHeldFrames;
    this.#heldHead = 0;
    this.#heldLiveChars = 0;
  }

  #write(text: string): boolean {
    this.#holdWritesForThisTick();
    try {
      this.socket.send(text, (error) => {
        if (error) {
          this.logger.debug('a frame could not be written', { connectionId: this.id, error: String(error) });
          this.#dropHeld();
        } else if (this.#heldHead < this.#held.length) this.#sendHeld();
      });
      this.#sentThisTick += text.length;
      if (this.#sentThisTick > this.limits.maxBufferedBytes) this.#letOutThisTick();
      return true;
    } catch (error) {
      this.logger.warn('sending a frame failed', { connectionId: this.id, error: String(error) });
      return false;
    }
  }

  /**
   * A protocol ping with a fresh random payload. Only a pong that echoes it sets `isAlive`: the
   * peer can only have read the ping after everything sent before it, so that pong also proves the
   * backlog drains. A pong with anything else (unsolicited, or stale) proves nothing.
   */
  ping(): void {
    this.isAlive = false;
    this.#pingPayload = randomBytes(8);
    this.socket.ping(this.#pingPayload);
  }

  onPong(payload: Buffer): void {
    if (this.#pingPayload !== undefined && payload.equals(this.#pingPayload)) {
      this.isAlive = true;
      this.heardSinceEcho = false;
      this.#pingPayload = undefined;
    } else this.heardSinceEcho = true;
  }

  /**
   * Run `work` with the TCP socket corked, so that the frames it sends (a receipt and the
   * question/resolved after it; a hello and its replay) leave in one write instead of one each.
   */
  batch<T>(work: () => T): T {
    const corkable = typeof this.transport.cork === 'function' && !this.transport.destroyed;
    if (corkable) this.transport.cork();
    try {
      return work();
    } finally {
      if (corkable) this.transport.uncork();
    }
  }

  /**
   * Cork the TCP socket until the current tick's work (its promise jobs included) is done, so
   * that every frame sent to this connection meanwhile (a burst of questions, the receipts of a
   * batch of answers read from one chunk) leaves in one write instead of one system call each.
   */
  #holdWritesForThisTick(): void {
    if (this.#corkedForTick || typeof this.transport.cork !== 'function' || this.transport.destroyed) return;
    this.#corkedForTick = true;
    this.#unreadAtCork = this.socket.bufferedAmount;
    this.#sentThisTick = 0;
    this.transport.cork();
    process.nextTick(() => {
      this.#corkedForTick = false;
      this.transport.uncork();
    });
  }

  /**
   * A tick that sends more than maxBufferedBytes does not hold it all back: what is corked goes to
   * the kernel now (unless a batch() still holds the socket), and the rest of the tick is corked again.
   */
  #letOutThisTick(): void {
    const transport = this.transport as Duplex & { writableCorked?: number };
    if (transport.destroyed || transport.writableCorked !== 1) return;
    transport.uncork();
    transport.cork();
    this.#unreadAtCork = this.socket.bufferedAmount;
    this.#sentThisTick = 0;
  }

  /**
   * Run `task` after every task queued before it on this connection has finished, so frames are
   * handled (and answered) in the order they arrived even when handling one waits on the store.
   * A task that throws closes the connection with 1011; the host goes on.
   */
  serially(task: () => void | Promise<void>): void {
    this.#queue = (this.#queue ?? Promise.resolve()).then(task).catch((error: unknown) => {
      this.logger.error('handling a frame failed; closing the connection', { connectionId: this.id, error: String(error) });
      this.close(closeCodes.internalError, 'internal error');
    });
  }

  /**
   * Count one unreadable frame (or rejected response); true when it makes `maxBadFrames` within the last
   * `badFrameWindowMs` and the connection is being closed. A sliding window rather than a count
   * that good frames reset: a ping between two bad frames must not buy endless garbage, and a
   * connection that lives for days must not be closed for a mistake a day.
   */
  countBadFrame(): boolean {
    const now = Date.now();
    const times = (this.#badFrameTimes ??= []);
    times.push(now);
    while ((times[0] ?? Infinity) <= now - this.limits.badFrameWindowMs) times.shift();
    if (times.length < this.limits.maxBadFrames) return false;
    this.logger.warn('closing a connection that sent too many unreadable frames or rejected responses', { connectionId: this.id, badFrames: times.length, windowMs: this.limits.badFrameWindowMs });
    this.close(closeCodes.policyViolation, 'too many bad frames');
    return true;
  }

  close(code: number, reason: string): void {
    try {
      if (this.socket.readyState === WebSocket.CONNECTING || this.socket.readyState === WebSocket.OPEN) this.socket.close(code, reason);
    } catch (error) {
      this.logger.debug('closing a socket failed; terminating it', { connectionId: this.id, error: String(error) });
      this.terminate();
    }
  }

  terminate(): void {
    try {
      this.socket.terminate();
    } catch {
      // Already gone.
    }
  }
}
