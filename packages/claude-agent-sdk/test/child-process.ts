// Run a script in a child Node process with the workspace sources, for what only a separate
// process can show: the Claude run that deferred its tool call is SIGKILLed before anyone answers.
// The script is bundled with esbuild as ESM; the Claude Agent SDK (it finds its native CLI next to
// itself) and better-sqlite3 (native) stay imports of their installed copies.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('../', import.meta.url));
const packagesDir = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];
const bundleDirs: string[] = [];

/** Kill every child still running and remove the bundles (call it in afterEach). */
export function cleanupChildren(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of bundleDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export async function bundleChild(entry: URL): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-claude-child-'));
  bundleDirs.push(dir);
  const outfile = join(dir, 'child.mjs');
  const installed = {
    '@anthropic-ai/claude-agent-sdk': createRequire(join(packageDir, 'package.json')).resolve('@anthropic-ai/claude-agent-sdk'),
    'better-sqlite3': createRequire(join(packagesDir, 'store-sqlite/package.json')).resolve('better-sqlite3'),
  };
  const askseam = ['claude-agent-sdk', 'host-ws', 'store', 'store-sqlite', 'user-questions', 'protocol'];
  await build({
    entryPoints: [fileURLToPath(entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    alias: Object.fromEntries(askseam.map((name) => [`@askseam/${name}`, join(packagesDir, name, 'src/index.ts')])),
    // The CommonJS packages bundled into ESM (ws) still call require for Node's built-ins.
    banner: { js: "import { createRequire as askseamCreateRequire } from 'node:module'; const require = askseamCreateRequire(import.meta.url);" },
    external: ['bufferutil', 'utf-8-validate'],
    plugins: [
      {
        name: 'installed-copies',
        setup: (b) => b.onResolve({ filter: /^(@anthropic-ai\/claude-agent-sdk|better-sqlite3)$/ }, (args) => ({ path: installed[args.path as keyof typeof installed], external: true })),
      },
    ],
  });
  return outfile;
}

/** Start the bundled `script` with `args`; resolves with its first stdout line (JSON) and the child. */
export function startChild<T>(script: string, args: string[]): Promise<{ child: ChildProcess; ready: T }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) resolve({ child, ready: JSON.parse(line) as T });
    });
    child.once('exit', (code, signal) => reject(new Error(`the child exited (${code ?? signal}) before it was ready: ${err}`)));
  });
}

/** SIGKILL `child` (no close, no flush) and wait until it is gone. */
export function killed(child: ChildProcess): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    if (child.signalCode !== null || child.exitCode !== null) return resolve(child.signalCode);
    child.once('exit', (_code, signal) => resolve(signal));
    child.kill('SIGKILL');
  });
}
