// Set-up for the Server-Sent Events tests: the host's fetch handler mounted in a real Node http
// server (toNodeListener) or in a real Hono 4 app, and a real EventSource client (eventsource 4.x).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerFrame } from '@askseam/protocol';
import { EventSource } from 'eventsource';
import { Hono } from 'hono';
import { toNodeListener, type FetchHandler } from '../src/index.js';

const open: (() => Promise<void> | void)[] = [];

export async function cleanupSse(): Promise<void> {
  for (const close of open.splice(0).reverse()) await close();
}

/** Serve `handler` on 127.0.0.1:0, directly (`node`) or as a route of a Hono app (`hono`); returns the base URL. */
export async function mount(handler: FetchHandler, how: 'node' | 'hono'): Promise<string> {
  let fetchLike = handler;
  if (how === 'hono') {
    const app = new Hono();
    app.all('/askseam/*', (c) => handler(c.req.raw));
    fetchLike = async (request) => app.fetch(request);
  }
  const server: Server = createServer(toNodeListener(fetchLike));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/askseam`;
}

export interface Received {
  frame: ServerFrame;
  id: string;
}

/** A real EventSource that keeps every frame it receives, with its event id. */
export class SseClient {
  readonly received: Received[] = [];
  readonly source: EventSource;
  #listeners = new Set<() => void>();

  private constructor(url: string, init?: ConstructorParameters<typeof EventSource>[1]) {
    this.source = new EventSource(url, init);
    this.source.onmessage = (event) => {
      this.received.push({ frame: JSON.parse(event.data as string) as ServerFrame, id: event.lastEventId });
      for (const listener of this.#listeners) listener();
    };
    open.push(() => this.source.close());
  }

  static open(url: string, init?: ConstructorParameters<typeof EventSource>[1]): Promise<SseClient> {
    const client = new SseClient(url, init);
    return new Promise((resolve, reject) => {
      client.source.onopen = () => resolve(client);
      client.source.onerror = (error) => reject(new Error(`the event stream did not open: ${String(error.message)} (${String(error.code)})`));
    });
  }

  frames(): ServerFrame[] {
    return this.received.map((r) => r.frame);
  }

  /** Wait until `count` frames matching `where` have arrived; returns them. */
  waitFor(where: (frame: ServerFrame) => boolean, count = 1): Promise<Received[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.filter((r) => where(r.frame));
        if (found.length < count) return;
        this.#listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(check);
        reject(new Error(`waited 5 s for ${count} matching frame(s); received: ${JSON.stringify(this.frames().map((f) => f.type))}`));
      }, 5_000);
      this.#listeners.add(check);
      check();
    });
  }
}

/** POST one frame to `<base>/respond`; the status and the JSON body. */
export async function post(base: string, frame: unknown, { token = 'test-token-123', headers = {} }: { token?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/respond?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof frame === 'string' ? frame : JSON.stringify(frame),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
