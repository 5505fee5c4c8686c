// Run a script in a child Node process, for what only a separate process can show (a SIGKILL).
// The script is bundled with esbuild from the workspace sources; better-sqlite3 (native) stays a
// require of the installed copy.
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
const askseamPackages = ['host-ws', 'store', 'store-sqlite', 'user-questions', 'protocol', 'langchain', 'tool-ask-user', 'plan-mode', 'clarify'];

/** Kill every child still running, and remove the bundles (call it in afterEach). */
export function cleanupChildren(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of bundleDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Bundle `entry` (a file URL) as an ES module with the workspace sources. */
export async function bundleChild(entry: URL): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-langchain-child-'));
  bundleDirs.push(dir);
  const outfile = join(dir, 'child.mjs');
  const sqlite = createRequire(join(packagesDir, 'store-sqlite/package.json')).resolve('better-sqlite3');
  await build({
    entryPoints: [fileURLToPath(entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    // Bundled CommonJS code calls require(); an ES module has none of its own.
    banner: { js: "import { createRequire as askseamCreateRequire } from 'node:module'; const require = askseamCreateRequire(import.meta.url);" },
    alias: Object.fromEntries(askseamPackages.map((name) => [`@askseam/${name}`, join(packagesDir, name, 'src/index.ts')])),
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
}

/** Start the bundled `script` with `args` and wait for its first stdout line (JSON). */
export function startChild<T>(script: string, args: string[]): Promise<StartedChild<T>> {
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

/** SIGKILL `child` (no close(), no flush) and wait until it is gone. */
export function killed(child: ChildProcess): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    if (child.signalCode !== null || child.exitCode !== null) return resolve(child.signalCode);
    child.once('exit', (_code, signal) => resolve(signal));
    child.kill('SIGKILL');
  });
}
