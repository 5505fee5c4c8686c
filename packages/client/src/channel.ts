import type { ClientFrame } from '@askseam/protocol';

// The one seam between the question client and its transport. The client keeps everything that
// must behave the same whatever carries the frames (reconnect and backoff, hello, the pending map,
// receipts); a channel only moves frames for one connection attempt and says when it is gone.

/** What a channel reports, for one connection attempt. Nothing is reported after `closed`. */
export interface ChannelHandlers {
  /** The transport is up (the host has not said hello yet). */
  open(): void;
  /** One server frame, as the text (or bytes) that carried it; the client parses it. */
  frame(data: unknown): void;
  /** The transport went away, or never came up: `why` is written for a person ("… HTTP 401"). */
  closed(why: string): void;
}

export interface Channel {
  /**
   * True when the client may send frames of its own at any time (pings, pongs): a WebSocket. An
   * SSE stream only carries the host's frames, so the client neither pings it nor answers pings.
   */
  readonly duplex: boolean;
  /** Whether a frame could be sent right now. */
  readonly isOpen: boolean;
  /**
   * Send one frame. Resolves once it is on its way (a WebSocket) or once the host's answer to it
   * has been handed to `frame` (an HTTP POST, whose response body is the receipt); rejects with a
   * `ChannelSendError` when it could not be delivered.
   */
  send(frame: ClientFrame): Promise<void>;
  /** Let go of the connection; reports nothing more. `code` and `reason` are the WebSocket's close code and reason. */
  close(code: number, reason: string): void;
}

/** Opens one connection attempt. A throw counts as a failed attempt (the client retries as after a drop). */
export type ChannelOpener = (handlers: ChannelHandlers) => Channel;

/** Why a frame did not reach the host; `why` is written for a person and ends up in the client error's message. */
export class ChannelSendError extends Error {
  override readonly name = 'ChannelSendError';
  constructor(readonly why: string) {
    super(why);
  }
}
