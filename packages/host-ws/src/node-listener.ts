import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * Serve a Web-standard handler (`host.fetchHandler()`, a Hono app's `fetch`) from Node's http
 * server: `createServer(toNodeListener(handler))`. The response body is streamed as the client
 * reads it (an event stream never ends by itself), and cancelled when the client goes away; a body
 * the handler errors (a stream it let go) destroys the connection.
 */
/** The client address of each Request `toNodeListener` made (a Web Request has none of its own). */
const clientAddresses = new WeakMap<Request, string>();

/** The address of the TCP peer that sent `request`, when `toNodeListener` served it. */
export function nodeClientAddress(request: Request): string | undefined {
  return clientAddresses.get(request);
}

export function toNodeListener(handler: (request: Request) => Promise<Response>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void serveOnce(handler, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  };
}

async function serveOnce(handler: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    signal: gone.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
  if (req.socket.remoteAddress !== undefined) clientAddresses.set(request, req.socket.remoteAddress);
  const response = await handler(request);
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, outHeaders);
  if (response.body === null) {
    res.end();
    return;
  }
  // Headers first: an EventSource opens on them, before the first frame.
  res.flushHeaders();
  const reader = response.body.getReader();
  gone.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
  // The handler errors the body of a stream it lets go (a client that does not read): the
  // connection is destroyed at once, with what Node still holds for it, rather than waiting for a
  // drain that such a client never brings. (A read of an errored body rejects: see the catch above.)
  reader.closed.catch(() => res.destroy());
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
  }
  res.end();
}
