// The built askseam-mcp bin (dist/bin.js, what `npx -y @askseam/mcp` runs), started by the test the
// way an MCP client starts it, and a person connected to the page it printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { QuestionClient } from '@askseam/client';
import { connectPerson } from '@askseam/test-support';

export const binPath = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

export function assertBinBuilt(): void {
  if (!existsSync(binPath)) throw new Error(`${binPath} is missing: run \`pnpm build\` first (pnpm test builds it).`);
}

export interface PrintedPage {
  pageUrl: string;
  token: string;
  socketUrl: string;
  mcpUrl: string | undefined;
}

/** Read what the bin printed on stderr until the page URL and token are there. */
export function pagePrinted(stderr: NodeJS.ReadableStream, { http = false }: { http?: boolean } = {}): Promise<PrintedPage> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const page = /answer your agent's questions at (http:\/\/[^\s]+)/.exec(text);
      const token = /token (\S+)/.exec(text.replace(/\?token=\S+/g, ''));
      const mcp = /MCP endpoint (http:\/\/\S+)/.exec(text);
      if (!page || !token || (http && !mcp)) return;
      stderr.off('data', onData);
      const url = new URL(page[1]!);
      resolve({ pageUrl: page[1]!, token: token[1]!, socketUrl: `ws://${url.host}/askseam`, mcpUrl: mcp?.[1] });
    };
    stderr.on('data', onData);
    stderr.once('end', () => reject(new Error(`askseam-mcp ended before printing its page:\n${text}`)));
  });
}

/** A person with the page open: a real client on the printed socket and token. */
/** The person's client at the page the bin printed, once the host has greeted it. */
export async function personAt(page: PrintedPage): Promise<QuestionClient> {
  return (await connectPerson({ url: page.socketUrl, token: page.token })).client;
}

/** Start the bin with `args`; the caller owns the child. */
export function startBin(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [binPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
}

export function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
