#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { startAskseamMcp } from './app.js';
import { parseCliOptions, usage } from './cli-options.js';
import { McpBridgeError } from './errors.js';
import { packageVersion } from './package-version.js';

/** A mistake on the command line exits 2, as usage errors of command-line tools do; any other failure exits 1. */
const usageErrorExit = 2;

// stdout belongs to JSON-RPC in stdio mode: every human-readable line goes to stderr.
const say = (line: string): void => void process.stderr.write(`askseam-mcp: ${line}\n`);

async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2), process.env);
  if (options.help) {
    process.stderr.write(usage);
    return;
  }
  if (options.version) {
    process.stdout.write(`${packageVersion}\n`);
    return;
  }
  const app = await startAskseamMcp({ transport: options.transport, port: options.port, token: options.token, timeoutMs: options.timeoutMs });
  say(`answer your agent's questions at ${app.pageUrl}`);
  say(`token ${app.token}`);
  if (app.mcpUrl !== undefined) say(`MCP endpoint ${app.mcpUrl} (send Authorization: Bearer <token>)`);
  if (options.open) openInBrowser(app.pageUrl);
  const stop = (): void => void app.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await app.closed;
}

/** Open the page with the system's opener; a machine without one just keeps the printed URL. */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => say(`could not open a browser (${command as string}); open the URL above yourself.`));
  child.unref();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    say(error instanceof Error ? error.message : String(error));
    process.exit(McpBridgeError.isInstance(error) && error.code === 'INVALID_OPTIONS' ? usageErrorExit : 1);
  },
);
