import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { McpBridgeError } from './errors.js';
import { mcpRequestRefusal, type McpGateOptions } from './http-gate.js';
import { pagePaths, send, servePage } from './page.js';
import { createAskseamMcpServer } from './server.js';

/** askseam-mcp only ever listens on loopback: the page hands out answers as the one local user. */
const LOOPBACK = '127.0.0.1';
/** Largest JSON-RPC body the Streamable HTTP endpoint reads. */
const maxMcpBodyBytes = 4 * 1024 * 1024;

export interface AskseamMcpAppOptions {
  /** `stdio` (one MCP session on this process's stdin/stdout) or `http` (Streamable HTTP at /mcp, one session per client). */
  transport: 'stdio' | 'http';
  /** Port of the page (and of /mcp over HTTP). Default 0: any free port. */
  port?: number | undefined;
  /** The page's token (and the Bearer token of /mcp). Default: a fresh random one. */
  token?: string | undefined;
  /** Give up on a question after this many milliseconds. Default: no timeout. */
  timeoutMs?: number | undefined;
  /** stdio mode: where JSON-RPC comes from and goes to. Default: process.stdin / process.stdout. */
  stdin?: Readable | undefined;
  stdout?: Writable | undefined;
}

export interface AskseamMcpApp {
  /** The page to open, with its token: `http://127.0.0.1:<port>/?token=…`. */
  readonly pageUrl: string;
  /** `http` mode: the Streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly mcpUrl: string | undefined;
  readonly token: string;
  readonly host: WebSocketHost;
  /** How many MCP sessions are open now. */
  sessions(): number;
  /** Settles once the app has closed (stdio: when the client closes stdin). */
  readonly closed: Promise<void>;
  /** Withdraw waiting questions, end every session, stop the host and the server. Idempotent. */
  close(): Promise<void>;
}

interface McpSession {
  agent: AgentRef;
  /** Streamable HTTP only: the session's own transport. */
  transport?: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

/**
 * The whole of `askseam-mcp`: one HTTP server on 127.0.0.1 with the page, the WebSocket host and
 * (over HTTP) the MCP endpoint. Each MCP session is its own askseam session: its own agent, whose
 * questions reach the page under its own session id.
 */
export async function startAskseamMcp(options: AskseamMcpAppOptions): Promise<AskseamMcpApp> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  if (token.length < 16) throw new McpBridgeError('INVALID_OPTIONS', 'The token must be at least 16 characters long; leave it out for a random one.');
  const agents = new Map<string, AgentRef>();
  const userQuestions = new UserQuestions({ agents: { get: (id) => agents.get(id), roots: () => agents.values() } });
  const sessions = new Map<string, McpSession>();

  let host: WebSocketHost | undefined;
  let mcpEndpoint: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (host?.handleRequest(req, res)) return;
    if (mcpEndpoint !== undefined && new URL(req.url ?? '/', 'http://mcp.invalid').pathname === pagePaths.mcp) return mcpEndpoint(req, res);
    if (servePage(req, res)) return;
    send(res, req, 404, 'text/plain; charset=utf-8', 'Not found. The page is at /.\n');
  });
  server.keepAliveTimeout = 1_000;
  const port = await listen(server, options.port ?? 0);
  const origin = `http://${LOOPBACK}:${port}`;
  const pageOrigins = [origin, `http://localhost:${port}`];
  host = await createWebSocketHost({ userQuestions, server, path: pagePaths.socket, token, origins: pageOrigins });
  const gate: McpGateOptions = { allowedHosts: [`${LOOPBACK}:${port}`, `localhost:${port}`], allowedOrigins: pageOrigins, token };

  const newSession = (): { agent: AgentRef; server: ReturnType<typeof createAskseamMcpServer> } => {
    const agent: AgentRef = { id: `mcp-${randomUUID()}` };
    agents.set(agent.id, agent);
    return { agent, server: createAskseamMcpServer({ userQuestions, agent, timeoutMs: options.timeoutMs }) };
  };

  let state: 'running' | 'closing' | 'closed' = 'running';
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      state = 'closing';
      for (const session of [...sessions.values()]) await session.close().catch(() => {});
      await host?.close();
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Open SSE streams and keep-alive sockets would hold close() open until the clients leave.
      server.closeAllConnections();
      await serverClosed;
      state = 'closed';
      markClosed();
    })();
    return closing;
  };

  if (options.transport === 'stdio') {
    const { agent, server: mcp } = newSession();
    const transport = new StdioServerTransport(options.stdin, options.stdout);
    const id = agent.id;
    // The client closing stdin ends the session and the app with it.
    transport.onclose = () => {
      sessions.delete(id);
      agents.delete(id);
      void close();
    };
    sessions.set(id, { agent, close: () => mcp.close() });
    await mcp.connect(transport);
    // StdioServerTransport does not notice the end of stdin by itself.
    (options.stdin ?? process.stdin).once('end', () => void mcp.close());
  } else {
    mcpEndpoint = (req, res) => {
      void handleMcpRequest(req, res).catch((error: unknown) => {
        if (!res.headersSent) jsonRpcError(res, 500, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      });
    };
  }

  async function handleMcpRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (state !== 'running') return jsonRpcError(res, 503, -32000, 'askseam-mcp is shutting down.');
    const refusal = mcpRequestRefusal(req, gate);
    if (refusal !== undefined) return jsonRpcError(res, refusal.status, -32001, refusal.message, refusal.headers);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session?.transport === undefined) return jsonRpcError(res, 404, -32001, `Session ${sessionId} is unknown or over; start a new one with initialize.`);
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return jsonRpcError(res, 400, -32000, 'No Mcp-Session-Id header: start a session with an initialize request (POST).');
    const body = await readJsonBody(req);
    if (!body.ok) return jsonRpcError(res, body.status, -32700, body.message);
    if (!isInitializeRequest(body.value)) return jsonRpcError(res, 400, -32000, 'No Mcp-Session-Id header: the first request of a session must be initialize.');
    const { agent, server: mcp } = newSession();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // DNS rebinding: a web page cannot reach this endpoint under another host name.
      // The gate above already checked both; the transport checks them again on every request of the session.
      enableDnsRebindingProtection: true,
      allowedHosts: [...gate.allowedHosts],
      allowedOrigins: [...gate.allowedOrigins],
      onsessioninitialized: (id) => {
        sessions.set(id, { agent, transport, close: () => mcp.close() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      agents.delete(agent.id);
    };
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body.value);
    // A session that never started (the request was refused) must not keep its agent.
    if (transport.sessionId === undefined) await mcp.close();
  }

  return {
    pageUrl: `${origin}/?token=${token}`,
    mcpUrl: options.transport === 'http' ? `${origin}${pagePaths.mcp}` : undefined,
    token,
    host,
    sessions: () => sessions.size,
    closed,
    close,
  };
}

async function readJsonBody(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxMcpBodyBytes) return { ok: false, status: 413, message: `The request body is over ${maxMcpBodyBytes} bytes.` };
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'The request body is not JSON.' };
  }
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
