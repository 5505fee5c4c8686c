// The askseam-mcp bin as MCP clients run it: spawned by the SDK's own Client over stdio, and over
// Streamable HTTP; a person answers on the page it printed, through a real socket.
import type { QuestionClient } from '@askseam/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { once } from '@askseam/test-support';
import { assertBinBuilt, binPath, exitOf, pagePrinted, personAt, startBin, type PrintedPage } from '../test/spawned-bin.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});
beforeAll(assertBinBuilt);

const question = { id: 'lang', question: 'Which language should the CLI be written in?', options: [{ label: 'TypeScript (Recommended)' }, { label: 'Go' }] };

function answerJson(result: unknown): unknown {
  const block = (result as CallToolResult).content[0];
  if (block?.type !== 'text') throw new Error('Expected a text result');
  return JSON.parse(block.text);
}

/** The client cancels an ask_user_question call; the question must leave the person's page as cancelled. */
async function expectCancelWithdraws(client: Client, person: QuestionClient): Promise<void> {
  const requested = once(person, 'requested');
  const resolved = once(person, 'resolved');
  const abort = new AbortController();
  const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [question] } }, undefined, { signal: abort.signal });
  call.catch(() => undefined);
  const pending = await requested;
  abort.abort('no longer needed');
  expect(await resolved).toMatchObject({ rpcId: pending.rpcId, outcome: 'cancelled' });
}

async function stdioSession(): Promise<{ client: Client; person: QuestionClient; page: PrintedPage; transportErrors: Error[]; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [binPath], stderr: 'pipe' });
  const printed = pagePrinted(transport.stderr as Readable);
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  const transportErrors: Error[] = [];
  // Anything on stdout that is not JSON-RPC surfaces here.
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  cleanups.push(() => client.close());
  const page = await printed;
  const person = await personAt(page);
  cleanups.push(() => person.close());
  return { client, person, page, transportErrors, transport };
}

describe('askseam-mcp over stdio (spawned by the SDK Client)', () => {
  it('prints the page URL and token on stderr and keeps stdout to JSON-RPC', async () => {
    const { client, page, transportErrors } = await stdioSession();
    expect(page.pageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(page.pageUrl).toContain(page.token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ask_user_question', 'exit_plan_mode', 'approve_tool_call']);
    expect(transportErrors).toEqual([]);
    const html = await fetch(page.pageUrl).then((response) => response.text());
    expect(html).toContain('<askseam-questions>');
    expect(html).not.toContain(page.token);
  });

  it('brings a person’s answer from the page back to the client’s model, checked', async () => {
    const { client, person, transportErrors } = await stdioSession();
    const requested = once(person, 'requested');
    const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [question] } });
    const pending = await requested;
    expect(pending.sessionId).toMatch(/^mcp-/);
    // A misfit from the page is refused and the question stays pending.
    await expect(pending.answer({ answers: [{ id: 'lang', selected: ['Rust'] }] })).rejects.toMatchObject({ code: 'invalid-answer' });
    await pending.answer({ answers: [{ id: 'lang', selected: ['TypeScript (Recommended)'] }] });
    expect(answerJson(await call)).toEqual({ answers: [{ id: 'lang', selected: ['TypeScript (Recommended)'] }] });
    expect(transportErrors).toEqual([]);
  });

  it('withdraws the question from the page when the client cancels the call', async () => {
    const { client, person } = await stdioSession();
    await expectCancelWithdraws(client, person);
  });

  it('exits cleanly when the client closes the connection', async () => {
    const { client, transport } = await stdioSession();
    const pid = transport.pid;
    expect(pid).not.toBeNull();
    await client.close();
    // The SDK transport ends stdin; the process is gone once signal 0 cannot reach it.
    await expect.poll(() => isRunning(pid!), { timeout: 10_000 }).toBe(false);
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('askseam-mcp command line', () => {
  async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = startBin(args);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const { code } = await exitOf(child);
    return { code, stdout, stderr };
  }

  it('prints the package version on stdout with --version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version: string };
    await expect(run(['--version'])).resolves.toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('refuses an unknown flag with exit code 2, naming the flag, and starts nothing', async () => {
    const { code, stdout, stderr } = await run(['--verbose']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("'--verbose'");
    expect(stderr).toContain('Usage: askseam-mcp');
  });

  it('listens on the port given as --port=<n>', async () => {
    const port = await freePort();
    const child = startBin(['--http', `--port=${port}`]);
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await exitOf(child);
    });
    const page = await pagePrinted(child.stderr!, { http: true });
    expect(new URL(page.mcpUrl!).port).toBe(String(port));
  });
});

/** A port nobody listens on right now (the OS's pick, released again). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('askseam-mcp --http (Streamable HTTP, stateful)', () => {
  async function httpBin(): Promise<{ child: ChildProcess; page: PrintedPage }> {
    const child = startBin(['--http']);
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await exitOf(child);
    });
    const page = await pagePrinted(child.stderr!, { http: true });
    return { child, page };
  }

  async function httpClient(page: PrintedPage, name: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(page.mcpUrl!), { requestInit: { headers: { authorization: `Bearer ${page.token}` } } });
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    return { client, transport };
  }

  it('gives each MCP session its own askseam session and answers each one', async () => {
    const { page } = await httpBin();
    const person = await personAt(page);
    cleanups.push(() => person.close());
    const first = await httpClient(page, 'first');
    const second = await httpClient(page, 'second');
    expect(first.transport.sessionId).toBeDefined();
    expect(first.transport.sessionId).not.toBe(second.transport.sessionId);

    const firstAsked = once(person, 'requested');
    const firstCall = first.client.callTool({ name: 'ask_user_question', arguments: { questions: [question] } });
    const firstPending = await firstAsked;
    const secondAsked = once(person, 'requested');
    const secondCall = second.client.callTool({ name: 'ask_user_question', arguments: { questions: [question] } });
    const secondPending = await secondAsked;
    expect(firstPending.sessionId).not.toBe(secondPending.sessionId);

    await secondPending.answer({ answers: [{ id: 'lang', selected: ['Go'] }] });
    await firstPending.answer({ answers: [{ id: 'lang', selected: [], custom: 'Zig' }] });
    expect(answerJson(await secondCall)).toEqual({ answers: [{ id: 'lang', selected: ['Go'] }] });
    expect(answerJson(await firstCall)).toEqual({ answers: [{ id: 'lang', selected: [], custom: 'Zig' }] });
  });

  it('refuses a request without the token with 401 and starts no session', async () => {
    const { page } = await httpBin();
    const response = await fetch(page.mcpUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });

  it('withdraws the question when the client cancels the call over HTTP', async () => {
    const { page } = await httpBin();
    const person = await personAt(page);
    cleanups.push(() => person.close());
    const { client } = await httpClient(page, 'cancelling');
    await expectCancelWithdraws(client, person);
  });
});
