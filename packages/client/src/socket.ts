import type { ClientFrame } from '@askseam/protocol';
import { ChannelSendError, type Channel, type ChannelHandlers, type ChannelOpener } from './channel.js';
import { QuestionClientError } from './errors.js';

/**
 * The part of a WebSocket the client uses. The browser's `WebSocket` and the `ws` package's
 * `WebSocket` both fit, so a Node 20 program passes `ws`'s class where a browser uses its own.
 */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType?: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: SocketListener<unknown>): void;
  addEventListener(type: 'message', listener: SocketListener<SocketMessageEvent>): void;
  addEventListener(type: 'error', listener: SocketListener<SocketErrorEvent>): void;
  addEventListener(type: 'close', listener: SocketListener<SocketCloseEvent>): void;
}

// Written as a method so its parameter is compared both ways: the browser's and `ws`'s listener
// types name their own event classes, and either must fit.
type SocketListener<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

export type WebSocketConstructorLike = new (url: string) => WebSocketLike;

/** `WebSocket.OPEN`, spelled out: the constructor's static constants are not part of `WebSocketConstructorLike`. */
export const SOCKET_OPEN = 1;

// The event shapes read from a socket, written loosely: browsers and `ws` fill them differently
// (a browser's error event has no message, `ws`'s does).
export interface SocketMessageEvent {
  data: unknown;
}
export interface SocketCloseEvent {
  code?: number;
  reason?: string;
}
// A browser's error event is a bare Event; `ws` adds `message` and `error`. Read them defensively.
export type SocketErrorEvent = object;

/** The URL to dial: a ws(s):// `url` with `token` (or a one-question `link`) in its query (other parameters kept). */
export function socketUrl(url: URL, token: string | undefined, link?: string): string {
  const dialed = new URL(url.href);
  // Browsers cannot set headers on a WebSocket upgrade, so the token travels in the query.
  if (token !== undefined) dialed.searchParams.set('token', token);
  if (link !== undefined) dialed.searchParams.set('link', link);
  return dialed.href;
}

/** Connection attempts over a WebSocket: every frame both ways is one text message on the socket. */
export function socketChannel(url: string, WebSocket: WebSocketConstructorLike): ChannelOpener {
  return (handlers) => openSocket(url, WebSocket, handlers);
}

function openSocket(url: string, WebSocket: WebSocketConstructorLike, handlers: ChannelHandlers): Channel {
  let socket: WebSocketLike;
  try {
    socket = new WebSocket(url);
  } catch (error) {
    throw new Error(`the WebSocket could not be created: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  try {
    // Bytes as ArrayBuffer (a browser's default is Blob, which cannot be read synchronously).
    socket.binaryType = 'arraybuffer';
  } catch {
    // Not every implementation lets it be set; text frames are all the protocol uses.
  }
  // Once let go (heartbeat timeout, close()), a socket may still report events; they must change nothing.
  let current = true;
  let lastError: string | undefined;
  socket.addEventListener('open', () => {
    if (current) handlers.open();
  });
  socket.addEventListener('message', (event: SocketMessageEvent) => {
    if (current) handlers.frame(event.data);
  });
  socket.addEventListener('error', (event: SocketErrorEvent) => {
    if (current) lastError = errorText(event);
  });
  socket.addEventListener('close', (event: SocketCloseEvent) => {
    if (!current) return;
    current = false;
    handlers.closed(closeText(event, lastError));
  });
  return {
    duplex: true,
    get isOpen() {
      return current && socket.readyState === SOCKET_OPEN;
    },
    send(frame: ClientFrame) {
      try {
        socket.send(JSON.stringify(frame));
        return Promise.resolve();
      } catch {
        // A browser throws when the socket closed a moment ago; its close event follows.
        return Promise.reject(new ChannelSendError('the connection failed'));
      }
    },
    close(code, reason) {
      current = false;
      try {
        socket.close(code, reason);
      } catch {
        // Already closing, or an implementation that rejects the code: either way it is no longer ours.
      }
    },
  };
}

function errorText(event: SocketErrorEvent): string | undefined {
  // `ws` puts a reason on the event ("Unexpected server response: 401"); browsers keep it to themselves.
  const { message, error } = event as { message?: unknown; error?: unknown };
  if (typeof message === 'string' && message !== '') return message;
  if (error instanceof Error) return error.message;
  return undefined;
}

function closeText(event: SocketCloseEvent, lastError: string | undefined): string {
  if (lastError !== undefined) return lastError;
  const code = typeof event.code === 'number' ? ` with code ${event.code}` : '';
  const reason = typeof event.reason === 'string' && event.reason !== '' ? ` (${event.reason})` : '';
  return `the connection closed${code}${reason}`;
}

/** The default constructor: the platform's own WebSocket (browsers, Node 22+). */
export function platformWebSocket(): WebSocketConstructorLike {
  const constructor = (globalThis as { WebSocket?: WebSocketConstructorLike }).WebSocket;
  if (constructor === undefined) {
    throw new QuestionClientError(
      'invalid-options',
      'connectQuestions: this runtime has no global WebSocket; pass one, e.g. { WebSocket } from the "ws" package on Node 20.',
    );
  }
  return constructor;
}
