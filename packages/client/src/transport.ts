import type { ChannelOpener } from './channel.js';
import { QuestionClientError } from './errors.js';
import { platformWebSocket, socketChannel, socketUrl } from './socket.js';
import { platformEventSource, platformFetch, sseChannel, sseUrls } from './sse.js';
import type { ConnectQuestionsOptions } from './types.js';

/** Which transport carries a connection: chosen by the URL's scheme alone. */
export type QuestionTransport = 'websocket' | 'sse';

/**
 * The channel to dial for these options: `ws:`/`wss:` is the WebSocket host, `http:`/`https:` the
 * HTTP + Server-Sent Events handler mounted at that path. Checked once, here, so a wrong URL or a
 * missing constructor throws from `connectQuestions` rather than failing every reconnect.
 */
export function transportFor(options: ConnectQuestionsOptions): { transport: QuestionTransport; open: ChannelOpener } {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new QuestionClientError(
      'invalid-options',
      `connectQuestions: "${options.url}" is not an absolute URL; pass the host's ws:// URL or the http(s):// URL the SSE handler is mounted at.`,
    );
  }
  switch (url.protocol) {
    case 'ws:':
    case 'wss:':
      return { transport: 'websocket', open: socketChannel(socketUrl(url, options.token, options.link), options.WebSocket ?? platformWebSocket()) };
    case 'http:':
    case 'https:':
      return {
        transport: 'sse',
        open: sseChannel({
          urls: sseUrls(url, options.token, options.link),
          EventSource: options.EventSource ?? platformEventSource(),
          fetch: options.fetch ?? platformFetch(),
        }),
      };
    default:
      throw new QuestionClientError(
        'invalid-options',
        `connectQuestions: "${options.url}" is neither a ws(s):// URL (WebSocket host) nor an http(s):// URL (SSE handler).`,
      );
  }
}
