// Run a test script in a child Node process with the workspace sources, for what only a separate
// process can show (a crash, a SIGKILL with no close() and no flush). The script is bundled with
// esbuild first, every `@askseam/<dir>` import pointing at packages/<dir>/src.
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

export interface BundleChildOptions {
  /**
   * Modules the bundle imports from their installed copies instead of bundling them, each mapped
   * to the directory under packages/ whose dependency it is (resolved from there). Native modules
   * and packages that find files next to themselves belong here. better-sqlite3 always does.
   */
  installed?: Record<string, string>;
}

/** Bundle `entry` (a file URL) as one ES module with the workspace sources; resolves with the bundle's path. */
export async function bundleChild(entry: URL, options: BundleChildOptions = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-child-'));
  bundleDirs.push(dir);
  const outfile = join(dir, 'child.mjs');
  const installedFrom: Record<string, string> = { 'better-sqlite3': 'store-sqlite', ...options.installed };
  const installed = new Map(Object.entries(installedFrom).map(([name, from]) => [name, createRequire(join(packagesDir, from, 'package.json')).resolve(name)]));
  const askseam = readdirSync(packagesDir, { withFileTypes: true }).filter((each) => each.isDirectory());
  await build({
    entryPoints: [fileURLToPath(entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    alias: Object.fromEntries(askseam.map((each) => [`@askseam/${each.name}`, join(packagesDir, each.name, 'src/index.ts')])),
    // Bundled CommonJS code (ws) calls require() for Node's built-ins; an ES module has none of its own.
    banner: { js: "import { createRequire as askseamCreateRequire } from 'node:module'; const require = askseamCreateRequire(import.meta.url);" },
    // ws's optional native helpers are not installed; it falls back to JavaScript without them.
    external: ['bufferutil', 'utf-8-validate'],
    plugins: [
      {
        name: 'installed-copies',
        setup: (b) => b.onResolve({ filter: /^[^./]/ }, (args) => {
          const path = installed.get(args.path);
          return path === undefined ? undefined : { path, external: true };
        }),
      },
    ],
  });
  return outfile;
}

export interface StartedChild<T> {
  child: ChildProcess;
  /** The JSON line the child printed once it was ready. */
  ready: T;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  /** Resolves with how the child ended. */
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
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve({ child, ready: JSON.parse(out.slice(0, newline)) as T, stderr: () => err, exited });
    });
    void exited.then(({ code, signal }) => reject(new Error(`the child exited (${code ?? signal}) before it was ready: ${err}`)));
  });
}

/** SIGKILL `child` (no close(), no flush) and resolve with the signal it died of once it is gone. */
export function killed(child: ChildProcess): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    if (child.signalCode !== null || child.exitCode !== null) return resolve(child.signalCode);
    child.once('exit', (_code, signal) => resolve(signal));
    child.kill('SIGKILL');
  });
}

/** SIGKILL every child still running (call it in afterEach). */
export function killChildren(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Remove every bundle made so far (call it once no child runs them any more). */
export function removeBundles(): void {
  for (const dir of bundleDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Both of the above, for tests that bundle inside each test (call it in afterEach). */
export function cleanupChildren(): void {
  killChildren();
  removeBundles();
}
