// startAskseamMcp over Streamable HTTP, as a browser page and as a non-browser client reach /mcp:
// real HTTP requests to the real server on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { startAskseamMcp, type AskseamMcpApp } from './app.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

async function httpApp(): Promise<AskseamMcpApp> {
  const app = await startAskseamMcp({ transport: 'http' });
  cleanups.push(() => app.close());
  return app;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-http', version: '1' } },
});

function post(app: AskseamMcpApp, headers: Record<string, string>): Promise<Response> {
  return fetch(app.mcpUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: initialize,
  });
}

describe('/mcp of askseam-mcp --http', () => {
  it.each([['http://evil.example'], ['null'], ['http://127.0.0.1:1']])('refuses Origin %s with 403 even with the right token, and starts no session', async (origin) => {
    const app = await httpApp();
    const response = await post(app, { authorization: `Bearer ${app.token}`, origin });
    expect(response.status).toBe(403);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('Origin') } });
    expect(app.sessions()).toBe(0);
  });

  it('refuses a foreign Origin on a running session too', async () => {
    const app = await httpApp();
    const started = await post(app, { authorization: `Bearer ${app.token}` });
    const sessionId = started.headers.get('mcp-session-id')!;
    await started.body?.cancel();
    const response = await fetch(app.mcpUrl!, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${app.token}`, origin: 'http://evil.example', 'mcp-session-id': sessionId },
    });
    expect(response.status).toBe(403);
    expect(app.sessions()).toBe(1);
  });

  it('serves a client without an Origin and the page’s own Origin', async () => {
    const app = await httpApp();
    const bare = await post(app, { authorization: `Bearer ${app.token}` });
    expect(bare.status).toBe(200);
    expect(bare.headers.get('mcp-session-id')).not.toBeNull();
    await bare.body?.cancel();
    const own = await post(app, { authorization: `Bearer ${app.token}`, origin: new URL(app.pageUrl).origin });
    expect(own.status).toBe(200);
    await own.body?.cancel();
    expect(app.sessions()).toBe(2);
  });

  it('answers a missing token with a Bearer challenge naming its realm and no OAuth resource metadata', async () => {
    const app = await httpApp();
    const response = await post(app, {});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="askseam-mcp"');
    await response.body?.cancel();
  });

  it('answers a wrong token with invalid_token in the challenge, still without resource metadata', async () => {
    const app = await httpApp();
    const response = await post(app, { authorization: 'Bearer not-the-token-at-all' });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate');
    expect(challenge).toBe('Bearer realm="askseam-mcp", error="invalid_token"');
    expect(challenge).not.toContain('resource_metadata');
    await response.body?.cancel();
  });
});
