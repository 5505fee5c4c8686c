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

/** The URL to dial: `url` with `token` (and a one-question `link`) in its query (other parameters kept), http(s) spelled ws(s). */
export function socketUrl(url: string, token: string | undefined, link?: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QuestionClientError('invalid-options', `connectQuestions: "${url}" is not an absolute URL; pass the host's ws:// URL.`);
  }
  if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
  else if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw new QuestionClientError('invalid-options', `connectQuestions: "${url}" is not a ws:// or wss:// URL.`);
  }
  // Browsers cannot set headers on a WebSocket upgrade, so the token travels in the query.
  if (token !== undefined) parsed.searchParams.set('token', token);
  if (link !== undefined) parsed.searchParams.set('link', link);
  return parsed.href;
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
