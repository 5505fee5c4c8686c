import type { ServerFrame } from '@askseam/protocol';
import type { Subscriber } from './delivery.js';
import type { HostLogger } from './logger.js';
import { exhaustiveSessions, listedSessions, safeCanSee, seesEverything, type Principal } from './principal.js';

/** One frame as the stream numbers it: its event id is `<streamId>-<seq>`. */
interface StreamEntry {
  seq: number;
  /** The frame's text, or how to make it (a replayed question is serialised only when it is its turn). */
  text: string | (() => string);
  /** A live frame (not part of the replay): its characters count against `maxBufferedBytes` until written. */
  live: boolean;
  onSent: (() => void) | undefined;
}

const encoder = new TextEncoder();

/**
 * A Server-Sent Events client as delivery sees it (a `Subscriber`). Unlike a socket it outlives
 * its HTTP response: every frame is numbered and kept (up to `maxBufferedBytes` of what was already
 * written), so an EventSource that reconnects with `Last-Event-ID` gets exactly the frames after
 * that id from the same subscriber, while it was away too, with no hello and no second replay.
 */
export class SseSubscriber implements Subscriber {
  readonly principalId: string;
  readonly seesEverything: boolean;
  readonly scope: readonly string[] | undefined;
  /** Frames from `#log[0].seq` on: written ones kept for a resume, then the ones not written yet. */
  #log: StreamEntry[] = [];
  #nextSeq = 1;
  /** The seq of the next frame to write to the attached response. */
  #cursor = 1;
  /** Characters of the written frames still kept for a resume. */
  #keptChars = 0;
  /** Characters of the live frames not written yet. */
  #unwrittenLiveChars = 0;
  #attached: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** Bytes enqueued on the attached response so far: with its queue's size, how far its reader has taken. */
  #enqueued = 0;
  /** Where the last two pings ended in `#enqueued` (older first): the older must have been taken by now. */
  #pingMarks: number[] = [];
  #batchDepth = 0;
  #dropped = false;

  constructor(
    /** The connection id of reports (`s1`, `s2`, …). */
    readonly id: string,
    /** The unguessable part of every event id this subscriber sends. */
    readonly streamId: string,
    readonly principal: Principal,
    private readonly maxBufferedBytes: number,
    private readonly logger: HostLogger,
    /** Called once when the subscriber is let go (a slow consumer): the transport forgets it. */
    private readonly onDrop: (subscriber: SseSubscriber, reason: string) => void,
  ) {
    this.principalId = principal.id;
    this.seesEverything = seesEverything(principal);
    this.scope = this.seesEverything ? undefined : exhaustiveSessions(principal, logger);
  }

  get attached(): boolean {
    return this.#attached !== undefined;
  }

  canSee(sessionId: string): boolean {
    if (this.seesEverything) return true;
    return safeCanSee(this.principal, sessionId, this.logger);
  }

  sessions(): string[] | undefined {
    return listedSessions(this.principal, this.logger);
  }

  send(frame: ServerFrame, options: { checkBuffer: boolean }): boolean {
    return this.sendText(JSON.stringify(frame), options);
  }

  sendText(text: string, { checkBuffer }: { checkBuffer: boolean }): boolean {
    if (this.#dropped) return false;
    // What the peer has left unread: frames queued on the response it has not taken, and live
    // frames not written yet (also those that arrive while it is away, between two responses).
    if (checkBuffer && this.#queuedBytes() + this.#unwrittenLiveChars > this.maxBufferedBytes) {
      this.logger.warn('dropping a slow event-stream consumer', { connectionId: this.id, maxBufferedBytes: this.maxBufferedBytes });
      this.drop('slow consumer', { abort: true });
      return false;
    }
    this.#log.push({ seq: this.#nextSeq++, text, live: true, onSent: undefined });
    this.#unwrittenLiveChars += text.length;
    this.#pump();
    return true;
  }

  replay(frames: readonly { text: () => string; onSent: () => void }[]): void {
    for (const frame of frames) this.#log.push({ seq: this.#nextSeq++, text: frame.text, live: false, onSent: frame.onSent });
    this.#pump();
  }

  batch<T>(work: () => T): T {
    this.#batchDepth++;
    try {
      return work();
    } finally {
      this.#batchDepth--;
      this.#pump();
    }
  }

  /** Write to this response from now on (a fresh stream starts at the first frame); a response still attached is ended. */
  attach(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#endAttached();
    this.#attached = controller;
    this.#enqueued = 0;
    this.#pingMarks = [];
    this.#pump();
  }

  /**
   * The frames after event `seq` are all still here: write them to `controller` and go on live.
   * False (nothing changed) when some of them were already let go, or `seq` was never sent.
   */
  resume(seq: number, controller: ReadableStreamDefaultController<Uint8Array>): boolean {
    if (this.#dropped || seq >= this.#nextSeq) return false;
    const first = this.#log[0]?.seq ?? this.#nextSeq;
    if (seq + 1 < first) return false;
    // Frames the peer says it did not get are written again: they count as unwritten once more.
    for (const entry of this.#log) {
      if (entry.seq > seq && entry.seq < this.#cursor) {
        const chars = textOf(entry).length;
        this.#keptChars -= chars;
        if (entry.live) this.#unwrittenLiveChars += chars;
      }
    }
    this.#cursor = Math.min(this.#cursor, seq + 1);
    this.attach(controller);
    return true;
  }

  /** The response ended (the peer went away, or a newer response took over): keep the frames for a resume. */
  detach(controller: ReadableStreamDefaultController<Uint8Array>): void {
    if (this.#attached === controller) this.#attached = undefined;
  }

  /**
   * Let the subscriber go: its response ends and a reconnect with one of its ids gets a fresh stream.
   * `abort`: the peer does not read, so its response is errored rather than closed: the unread
   * queue is discarded at once and whoever serves the response (`toNodeListener`) destroys the
   * connection, instead of waiting forever to write a close the peer would never read.
   */
  drop(reason: string, { abort = false }: { abort?: boolean } = {}): void {
    if (this.#dropped) return;
    this.#dropped = true;
    this.#endAttached(abort ? new Error(`event stream ended: ${reason}`) : undefined);
    this.#log = [];
    this.onDrop(this, reason);
  }

  /**
   * The heartbeat: an SSE comment, outside the numbered frames (an EventSource ignores it). It is
   * also the socket's liveness rule: the ping sent two ticks ago (one `heartbeatMs`) must have been
   * taken by the response's reader by now, and it is taken only after everything queued before it.
   * A peer that has not, is not reading: it is let go with what the host held for it.
   */
  ping(): void {
    const controller = this.#attached;
    if (controller === undefined) return;
    const due = this.#pingMarks.length === 2 ? this.#pingMarks.shift()! : undefined;
    if (due !== undefined && this.#enqueued - this.#queuedBytes() < due) {
      this.logger.warn('dropping an event-stream consumer that does not read what it is sent', { connectionId: this.id, queuedBytes: this.#queuedBytes() });
      this.drop('not reading', { abort: true });
      return;
    }
    try {
      this.#enqueue(controller, encoder.encode(': ping\n\n'));
      this.#pingMarks.push(this.#enqueued);
    } catch (error) {
      this.logger.debug('event-stream ping failed', { connectionId: this.id, error: String(error) });
      this.detach(controller);
    }
  }

  /** Pull: the response's reader took what it had and asks for more. */
  pull(): void {
    this.#pump();
  }

  /** Write as much as the response takes (its queue holds up to `maxBufferedBytes`) in one chunk. */
  #pump(): void {
    const controller = this.#attached;
    if (controller === undefined || this.#batchDepth > 0) return;
    let chunk = '';
    let index = this.#log.findIndex((entry) => entry.seq >= this.#cursor);
    if (index === -1) return;
    const room = (controller.desiredSize ?? 0) - 0;
    const sent: (() => void)[] = [];
    // At least one frame when the queue is empty, however big: a single frame larger than the budget still goes, alone.
    while (index < this.#log.length && (chunk === '' ? room > 0 || this.#queuedBytes() === 0 : chunk.length < room)) {
      const entry = this.#log[index]!;
      const text = textOf(entry);
      entry.text = text;
      chunk += `id: ${this.streamId}-${entry.seq}\ndata: ${text}\n\n`;
      if (entry.live) this.#unwrittenLiveChars -= text.length;
      this.#keptChars += text.length;
      if (entry.onSent !== undefined) sent.push(entry.onSent);
      entry.onSent = undefined;
      this.#cursor = entry.seq + 1;
      index++;
    }
    if (chunk === '') return;
    try {
      this.#enqueue(controller, encoder.encode(chunk));
    } catch (error) {
      this.logger.debug('event-stream write failed', { connectionId: this.id, error: String(error) });
      this.detach(controller);
      return;
    }
    for (const onSent of sent) onSent();
    this.#forgetOld();
  }

  /** Written frames are kept for a resume only up to `maxBufferedBytes` of text, oldest let go first. */
  #forgetOld(): void {
    let drop = 0;
    while (this.#keptChars > this.maxBufferedBytes && drop < this.#log.length && this.#log[drop]!.seq < this.#cursor) {
      this.#keptChars -= textOf(this.#log[drop]!).length;
      drop++;
    }
    if (drop > 0) this.#log.splice(0, drop);
  }

  #enqueue(controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array): void {
    controller.enqueue(bytes);
    this.#enqueued += bytes.byteLength;
  }

  #queuedBytes(): number {
    const controller = this.#attached;
    if (controller === undefined) return 0;
    return Math.max(0, this.maxBufferedBytes - (controller.desiredSize ?? 0));
  }

  /** End the attached response: closed after what it holds, or with `error`, at once and without it. */
  #endAttached(error?: Error): void {
    const controller = this.#attached;
    this.#attached = undefined;
    if (controller === undefined) return;
    try {
      if (error === undefined) controller.close();
      else controller.error(error);
    } catch {
      // Already closed or cancelled by the peer: nothing left to end.
    }
  }
}

function textOf(entry: StreamEntry): string {
  return typeof entry.text === 'string' ? entry.text : entry.text();
}
