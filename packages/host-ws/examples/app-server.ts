// Wire a browser UI to your host: your app's HTTP server serves a page with the
// <askseam-questions> element, and the host shares that server for the WebSocket.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import type { UserQuestions } from '@askseam/user-questions';

export interface App {
  /** The page to open in a browser. */
  pageUrl: string;
  host: WebSocketHost;
  close(): Promise<void>;
}

/** `elementScript`: the file of @askseam/web's browser bundle, e.g. `browserBundleUrl()` from `@askseam/web`. */
// #region start-app
export async function startApp(userQuestions: UserQuestions, elementScript: URL | string): Promise<App> {
  // One random token per run; the page carries it, so only someone who can load the page can answer.
  const token = randomBytes(24).toString('base64url');

  const server = createServer((req, res) => {
    if (req.url === '/') {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(page(host.url, token));
    } else if (req.url === '/askseam-questions.js') {
      readFile(elementScript).then(
        (code) => res.setHeader('Content-Type', 'text/javascript; charset=utf-8').end(code),
        () => res.writeHead(404).end(),
      );
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Same server, path /askseam; only pages from this origin may open the socket.
  const host = await createWebSocketHost({ userQuestions, server, token, origins: [origin] });
// #endregion start-app

  return {
    pageUrl: `${origin}/`,
    host,
    async close() {
      await host.close();
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}

// The url and a base64url token contain no character that needs HTML escaping.
function page(url: string, token: string): string {
  return `<!doctype html>
<html lang="en">
  <meta charset="utf-8">
  <title>Your agent has a question</title>
  <!-- #region element-tags -->
  <script type="module" src="/askseam-questions.js"></script>
  <askseam-questions url="${url}" token="${token}" lang="en"></askseam-questions>
  <!-- #endregion element-tags -->
</html>`;
}
