import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { askseamPageContentSecurityPolicy, browserBundleUrl } from '@askseam/web/server';

// The page a person answers on. The token is not in the HTML: the script reads it from the
// page's own address (the URL printed on stderr), so no document ever carries the secret.

export const pagePaths = { page: '/', script: '/page.js', bundle: '/askseam-questions.js', socket: '/askseam', mcp: '/mcp' } as const;

const pageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>askseam: questions from your agent</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.5; }
  body { margin: 0; background: Canvas; color: CanvasText; }
  main { max-width: 44rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
  h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
  .warning { border: 1px solid #d97706; border-radius: 0.5rem; padding: 0.75rem 1rem; }
</style>
<script type="module" src="${pagePaths.bundle}"></script>
<script type="module" src="${pagePaths.script}"></script>
</head>
<body>
<main>
  <h1>Questions from your agent</h1>
  <p>Your MCP client's agent asks here. Keep this page open; each question appears when it is asked.</p>
  <p id="no-token" class="warning" hidden>This address has no token. Open the exact URL that askseam-mcp printed.</p>
  <askseam-questions></askseam-questions>
</main>
</body>
</html>
`;

const pageScript = `const token = new URLSearchParams(location.search).get('token');
const element = document.querySelector('askseam-questions');
if (token) {
  element.setAttribute('token', token);
  element.setAttribute('url', \`ws://\${location.host}${pagePaths.socket}\`);
} else {
  document.getElementById('no-token').hidden = false;
}
`;

/** Serve the page, its script and the element's bundle; false for any other path. */
export function servePage(req: IncomingMessage, res: ServerResponse): boolean {
  const path = new URL(req.url ?? '/', 'http://page.invalid').pathname;
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (path === pagePaths.page) {
    res.setHeader('content-security-policy', askseamPageContentSecurityPolicy({ port: req.socket.localPort }));
    send(res, req, 200, 'text/html; charset=utf-8', pageHtml);
    return true;
  }
  if (path === pagePaths.script) {
    send(res, req, 200, 'text/javascript; charset=utf-8', pageScript);
    return true;
  }
  if (path === pagePaths.bundle) {
    const file = fileURLToPath(browserBundleUrl());
    readFile(file).then(
      (body) => send(res, req, 200, 'text/javascript; charset=utf-8', body),
      () => send(res, req, 404, 'text/plain; charset=utf-8', `The web component bundle is missing (${file}); reinstall @askseam/web.\n`),
    );
    return true;
  }
  return false;
}


export function send(res: ServerResponse, req: IncomingMessage, status: number, type: string, body: string | Buffer): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('content-length', Buffer.byteLength(body));
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  res.end(req.method === 'HEAD' ? undefined : body);
}
