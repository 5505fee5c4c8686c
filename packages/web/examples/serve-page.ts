import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebSocketHost } from '@askseam/host-ws';
import type { UserQuestions } from '@askseam/user-questions';
import { browserBundleUrl } from '@askseam/web';

export interface ServedPage {
  /** The page to open in a browser. */
  url: string;
  close(): Promise<void>;
}

/**
 * One Node server for a human to answer an agent's questions: your page at `/`, the element's
 * browser bundle at `/askseam-questions.js`, and the WebSocket host at `/askseam`.
 */
export async function servePage(options: { userQuestions: UserQuestions; token: string; pageHtml: string }): Promise<ServedPage> {
  // Built by `pnpm -F @askseam/web build` (or `bundle`); also published as `@askseam/web/browser`.
  const bundle = await readFile(browserBundleUrl());
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(options.pageHtml);
    else if (path === '/askseam-questions.js') res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    else res.writeHead(404).end();
  });
  const host = await createWebSocketHost({ userQuestions: options.userQuestions, server, token: options.token });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      await host.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
