import type { ClientFrame } from '@askseam/protocol';
import { ChannelSendError, type Channel, type ChannelHandlers, type ChannelOpener } from './channel.js';
import { QuestionClientError } from './errors.js';

// The HTTP + Server-Sent Events transport (docs/protocol.md): the host's frames arrive on an
// EventSource at `<base>/events`, one frame per event; a response goes out as a POST to
// `<base>/respond` whose response body is its receipt.

/**
 * The part of an EventSource the client uses. The browser's `EventSource` and the `eventsource`
 * package's (4.x, for Node 20, which has no global one) both fit.
 */
export interface EventSourceLike {
  readonly readyState: number;
  close(): void;
  addEventListener(type: 'open', listener: SourceListener<unknown>): void;
  addEventListener(type: 'message', listener: SourceListener<EventSourceMessageEvent>): void;
  addEventListener(type: 'error', listener: SourceListener<EventSourceErrorEvent>): void;
}

// A method, so its parameter is compared both ways (the browser's and the package's event classes differ).
type SourceListener<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

export type EventSourceConstructorLike = new (url: string) => EventSourceLike;

export interface EventSourceMessageEvent {
  data: unknown;
}
// A browser's error event is a bare Event; the `eventsource` package adds the HTTP `code` and a `message`.
export type EventSourceErrorEvent = object;

/** The part of `fetch` the client uses: one POST with a JSON body, then the status and the body's text. */
export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ status: number; statusText?: string; text(): Promise<string> }>;

/** `EventSource.OPEN`, spelled out: the constructor's static constants are not part of `EventSourceConstructorLike`. */
const SOURCE_OPEN = 1;

export interface SseUrls {
  /** `<base>/events?token=…` */
  events: string;
  /** `<base>/respond?token=…` */
  respond: string;
}

/** The two endpoints under an http(s):// base URL, each with `token` in its query (other parameters kept). */
export function sseUrls(base: URL, token: string | undefined, link?: string): SseUrls {
  const at = (endpoint: string): string => {
    const url = new URL(base.href);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${endpoint}`;
    // Browsers cannot set headers on an EventSource, so the token travels in the query (on both endpoints alike).
    if (token !== undefined) url.searchParams.set('token', token);
    if (link !== undefined) url.searchParams.set('link', link);
    return url.href;
  };
  return { events: at('events'), respond: at('respond') };
}

export interface SseTransport {
  urls: SseUrls;
  EventSource: EventSourceConstructorLike;
  fetch: FetchLike;
}

/**
 * Connection attempts over SSE. Each attempt is a fresh stream: on the first error the EventSource
 * is closed rather than left to reconnect by itself, so the client's own backoff decides when to
 * try again, and every new stream starts with hello and the replay, exactly as a new socket does.
 */
export function sseChannel(transport: SseTransport): ChannelOpener {
  return (handlers) => openStream(transport, handlers);
}

function openStream({ urls, EventSource, fetch }: SseTransport, handlers: ChannelHandlers): Channel {
  let source: EventSourceLike;
  try {
    source = new EventSource(urls.events);
  } catch (error) {
    throw new Error(`the EventSource could not be created: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  let current = true;
  // POSTs still waiting when the channel is let go are aborted: their receipts would reach no one.
  const posts = new AbortController();
  const letGo = (): void => {
    current = false;
    source.close();
    posts.abort();
  };
  source.addEventListener('open', () => {
    if (current) handlers.open();
  });
  source.addEventListener('message', (event: EventSourceMessageEvent) => {
    if (current) handlers.frame(event.data);
  });
  source.addEventListener('error', (event: EventSourceErrorEvent) => {
    if (!current) return;
    letGo();
    handlers.closed(streamErrorText(event));
  });

  return {
    duplex: false,
    get isOpen() {
      return current && source.readyState === SOURCE_OPEN;
    },
    async send(frame: ClientFrame) {
      if (frame.type !== 'question/respond') {
        throw new ChannelSendError(`an SSE connection cannot carry a "${frame.type}" frame from the client`);
      }
      let response: Awaited<ReturnType<FetchLike>>;
      let body: string;
      try {
        response = await fetch(urls.respond, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(frame),
          signal: posts.signal,
        });
        body = await response.text();
      } catch (error) {
        throw new ChannelSendError(`the POST to the host failed (${error instanceof Error ? error.message : String(error)})`);
      }
      if (response.status !== 200) throw new ChannelSendError(`the host answered the POST with HTTP ${response.status}${errorBodyText(body)}`);
      // The body is the receipt frame: it goes through the very same reading as a socket's frames.
      if (current) handlers.frame(body);
    },
    close() {
      letGo();
    },
  };
}

function streamErrorText(event: EventSourceErrorEvent): string {
  // The `eventsource` package says which HTTP status refused the stream; browsers keep it to themselves.
  const { code, message } = event as { code?: unknown; message?: unknown };
  if (typeof code === 'number') return `the event stream was refused with HTTP ${code}${typeof message === 'string' && message !== '' ? ` (${message})` : ''}`;
  if (typeof message === 'string' && message !== '') return `the event stream failed: ${message}`;
  return 'the event stream failed or ended';
}

/** The host's `{ type: 'error', code, message }` of a refused POST, as ` (CODE: message)`; nothing for another body. */
function errorBodyText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
    if (typeof parsed.code === 'string' && typeof parsed.message === 'string') return ` (${parsed.code}: ${parsed.message})`;
  } catch {
    // Not JSON (a proxy's error page, say): the status alone says enough.
  }
  return '';
}

/** The default constructor: the platform's own EventSource (browsers, Deno, Bun). */
export function platformEventSource(): EventSourceConstructorLike {
  const constructor = (globalThis as { EventSource?: EventSourceConstructorLike }).EventSource;
  if (constructor === undefined) {
    throw new QuestionClientError(
      'invalid-options',
      'connectQuestions: this runtime has no global EventSource for an http(s):// URL; pass one, e.g. { EventSource } from the "eventsource" package (4.x) on Node 20.',
    );
  }
  return constructor;
}

/** The default `fetch`: the platform's own, bound so a browser does not refuse it as an unbound method. */
export function platformFetch(): FetchLike {
  const platform = (globalThis as { fetch?: (...args: never[]) => unknown }).fetch;
  if (platform === undefined) {
    throw new QuestionClientError('invalid-options', 'connectQuestions: this runtime has no global fetch for an http(s):// URL; pass one as { fetch }.');
  }
  return platform.bind(globalThis) as unknown as FetchLike;
}
