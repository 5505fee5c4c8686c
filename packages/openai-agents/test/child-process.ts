// Run a test script in a child Node process with the workspace sources, for what only a separate
// process can show (a SIGKILL). The script is bundled with esbuild first.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packagesDir = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];
const bundleDirs: string[] = [];

/** Kill every child still running, and remove the bundles (call in afterEach). */
export function cleanupChildren(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of bundleDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Bundle `entry` with every @askseam package from its sources; better-sqlite3 (native) stays a require of the installed copy. */
export async function bundleChild(entry: URL): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-agents-child-'));
  bundleDirs.push(dir);
  const outfile = join(dir, 'child.cjs');
  const sqlite = createRequire(join(packagesDir, 'store-sqlite/package.json')).resolve('better-sqlite3');
  const askseam = readdirSync(packagesDir, { withFileTypes: true }).filter((each) => each.isDirectory());
  await build({
    entryPoints: [fileURLToPath(entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
    alias: Object.fromEntries(askseam.map((each) => [`@askseam/${each.name}`, join(packagesDir, each.name, 'src/index.ts')])),
    // ws's optional native helpers are not installed; it falls back to JavaScript without them.
    external: ['bufferutil', 'utf-8-validate'],
    plugins: [{ name: 'native-sqlite', setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true })) }],
  });
  return outfile;
}

/** Start the bundled `script` with `args`; resolves with the child and the JSON line it prints once ready. */
export function startChild<T>(script: string, args: string[]): Promise<{ child: ChildProcess; ready: T }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve({ child, ready: JSON.parse(out.slice(0, newline)) as T });
    });
    child.once('exit', (code, signal) => reject(new Error(`the child exited (${code ?? signal}) before it was ready: ${err}`)));
  });
}

/** SIGKILL `child` (no close, no flush) and resolve with the signal it died of. */
export function killed(child: ChildProcess): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    if (child.signalCode !== null || child.exitCode !== null) return resolve(child.signalCode);
    child.once('exit', (_code, signal) => resolve(signal));
    child.kill('SIGKILL');
  });
}
