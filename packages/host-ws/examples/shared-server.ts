// The host's HTTP API on your app's own server: the host answers only requests under its path,
// and only when your handler hands them over; everything else stays yours.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import type { UserQuestions } from '@askseam/user-questions';

export async function startAppWithApi(userQuestions: UserQuestions, token: string): Promise<{ base: string; host: WebSocketHost; close(): Promise<void> }> {
  let host: WebSocketHost | undefined;
  // #region server
  const server = createServer((req, res) => {
    // /askseam and below (the API, and the 426 for a plain GET of the socket's path) belong to the host.
    if (host?.handleRequest(req, res)) return;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(`your app answers ${req.url}`);
  });
  // #endregion server
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Same server for the WebSocket upgrade on /askseam, and the same token for the socket and the API.
  host = await createWebSocketHost({ userQuestions, server, token });
  const started = host;
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    host: started,
    async close() {
      await started.close();
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
