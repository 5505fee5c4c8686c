// Run a test script in a child Node process with the workspace sources: for behaviour that only a
// separate process can show (a crash, a SIGKILL). The script is bundled with esbuild first.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packagesDir = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];
const bundleDirs: string[] = [];

/** Kill every child still running (call it in afterEach). */
export function cleanupChildren(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Remove every bundle made so far (call it once the children that run them are gone). */
export function removeBundles(): void {
  for (const dir of bundleDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Bundle `entry` (a file URL) with the workspace sources; better-sqlite3 (native) stays a require of the installed copy. */
export async function bundleChild(entry: URL): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-child-'));
  bundleDirs.push(dir);
  const outfile = join(dir, 'child.cjs');
  const sqlite = createRequire(join(packagesDir, 'store-sqlite/package.json')).resolve('better-sqlite3');
  await build({
    entryPoints: [fileURLToPath(entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
    alias: Object.fromEntries(['host-ws', 'store', 'store-sqlite', 'store-redis', 'bus-redis', 'user-questions', 'protocol'].map((name) => [`@askseam/${name}`, join(packagesDir, name, 'src/index.ts')])),
    // ws's optional native helpers are not installed; it falls back to JavaScript without them.
    external: ['bufferutil', 'utf-8-validate'],
    plugins: [{ name: 'native-sqlite', setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true })) }],
  });
  return outfile;
}

export interface StartedChild<T> {
  child: ChildProcess;
  /** The JSON line the child printed once it was ready. */
  ready: T;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  /** Resolves with how the child ended (it is never killed by this helper before cleanup). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Start the bundled `script` with `args` and wait for its first stdout line (JSON). */
export function startChild<T>(script: string, args: string[]): Promise<StartedChild<T>> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) resolve({ child, ready: JSON.parse(line) as T, stderr: () => err, exited });
    });
    void exited.then(({ code, signal }) => reject(new Error(`the child exited (${code ?? signal}) before it was ready: ${err}`)));
  });
}
