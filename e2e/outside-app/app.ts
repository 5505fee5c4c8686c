// Builds the outside app once: packs every public package with pnpm (workspace: and catalog:
// versions become real ones, as on publish) and installs the tarballs with npm into a fresh folder
// in the OS temp dir, next to vitest 5, so nothing resolves through the workspace.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const repoDir = fileURLToPath(new URL('../../', import.meta.url));
const fixturesDir = fileURLToPath(new URL('./', import.meta.url));

export interface PublicPackage {
  /** Directory name under packages/. */
  dir: string;
  name: string;
  version: string;
  /** Import specifiers: the package itself and each subpath it exports (`@askseam/store-redis/testing`). */
  entryPoints: string[];
}

export interface Tarball {
  pkg: PublicPackage;
  file: string;
  packedBytes: number;
  unpackedBytes: number;
  /** Paths inside the package (without the leading `package/`). */
  files: string[];
}

export interface OutsideApp {
  dir: string;
  tarballs: Tarball[];
  install: RunResult;
}

export function publicPackages(): PublicPackage[] {
  return readdirSync(join(repoDir, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ dir: entry.name, manifest: JSON.parse(readFileSync(join(repoDir, 'packages', entry.name, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private)
    .map(({ dir, manifest }) => ({
      dir,
      name: manifest.name,
      version: manifest.version,
      entryPoints: Object.keys(manifest.exports ?? { '.': null })
        // Code entry points only: JSON files (package.json, custom-elements.json) are data, read as files.
        .filter((subpath) => !subpath.endsWith('.json'))
        .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`)),
    }));
}

export interface RunResult {
  /** The exit code, or null when a signal (the timeout) ended the command. */
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run a command, capturing its output; never rejects (callers assert on the status). Asynchronous:
 * a blocked test worker misses vitest's own heartbeats during a long npm install.
 */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 300_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => resolve({ status: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

// pnpm passes its own npm_config_* settings to the scripts it runs; the outside app must see npm as
// a user's shell does, so those are dropped (registry, cache and proxy settings stay).
function npmEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig', 'npm_config_nodedir', 'npm_config_proxy', 'npm_config_https_proxy', 'npm_config_noproxy']);
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(config|package|lifecycle)_/i.test(key) || keep.has(key.toLowerCase())));
}

async function pack(packages: PublicPackage[], destination: string): Promise<Tarball[]> {
  const filters = packages.flatMap((pkg) => ['--filter', pkg.name]);
  const packed = await run('pnpm', ['-r', ...filters, 'pack', '--pack-destination', destination], { cwd: repoDir });
  if (packed.status !== 0) throw new Error(`pnpm pack failed:\n${packed.stdout}\n${packed.stderr}`);
  const tarballs: Tarball[] = [];
  for (const pkg of packages) {
    const file = join(destination, `${pkg.name.slice(1).replace('/', '-')}-${pkg.version}.tgz`);
    const listing = await run('tar', ['-tzvf', file], { cwd: destination });
    if (listing.status !== 0) throw new Error(`tar could not list ${file}: ${listing.stderr}`);
    const entries = listing.stdout.trim().split('\n').map((line) => line.trim().split(/\s+/));
    // `tar -tv` columns: mode, owner/group, size, date, time, path.
    tarballs.push({
      pkg,
      file,
      packedBytes: statSync(file).size,
      unpackedBytes: entries.reduce((sum, columns) => sum + Number(columns[2]), 0),
      files: entries.map((columns) => columns.slice(5).join(' ').replace(/^package\//, '')),
    });
  }
  return tarballs;
}

/** The README's "use it in your app", as the plain ESM a JavaScript user would write. */
function yourAppAsJavaScript(): string {
  const source = readFileSync(join(repoDir, 'packages/demo/examples/your-app.ts'), 'utf8');
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  }).outputText;
}

function installedVersion(name: string): string {
  return JSON.parse(readFileSync(join(repoDir, 'node_modules', name, 'package.json'), 'utf8')).version;
}

export async function buildOutsideApp(): Promise<OutsideApp> {
  // The browser bundle is not part of `tsc -b`; the web tarball must carry it, as `pnpm build` makes it.
  const built = await run(process.execPath, ['packages/web/scripts/bundle.mjs'], { cwd: repoDir });
  if (built.status !== 0) throw new Error(`building the browser bundle failed:\n${built.stderr}`);

  const dir = mkdtempSync(join(tmpdir(), 'askseam-outside-app-'));
  const tarballs = await pack(publicPackages(), mkdtempSync(join(tmpdir(), 'askseam-tarballs-')));
  const manifest = {
    name: 'askseam-outside-app',
    private: true,
    type: 'module',
    dependencies: {
      ...Object.fromEntries(tarballs.map((tarball) => [tarball.pkg.name, `file:${tarball.file}`])),
      ws: '^8.18.0',
    },
    devDependencies: {
      // The app's own test runner is the newest vitest; @types/node 22 is what vitest 5 asks for.
      vitest: '^5.0.0',
      '@types/node': '^22.0.0',
      typescript: installedVersion('typescript'),
    },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'your-app.mjs'), yourAppAsJavaScript());
  for (const fixture of ['drive.mjs', 'require-check.cjs', 'import-check.mjs', 'consumer-node.ts', 'consumer-browser.ts']) {
    copyFileSync(join(fixturesDir, fixture), join(dir, fixture));
  }
  // --ignore-scripts: no native build (better-sqlite3) here; the main install and the Node 22/24
  // phase build it. Nothing the checks below run opens a SQLite file.
  // --os=aix: the Claude Agent SDK (a peer of @askseam/claude-agent-sdk) brings its ~400 MB native
  // CLI as an optional package per platform; naming a platform none of them is for skips the download
  // (nothing here runs the CLI) while every other optional dependency still installs.
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '--os=aix'], { cwd: dir, env: npmEnv() });
  return { dir, tarballs, install };
}

/** Type-check one consumer file in the app with skipLibCheck off, under the given module resolution. */
export async function typeCheck(app: OutsideApp, file: string, resolution: 'node16' | 'bundler', lib: string[], types: string[]) {
  const config = `tsconfig.${file.replace(/\.ts$/, '')}.${resolution}.json`;
  const compilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: 'ES2022',
    module: resolution === 'node16' ? 'node16' : 'preserve',
    moduleResolution: resolution,
    lib,
    types,
  };
  writeFileSync(join(app.dir, config), `${JSON.stringify({ compilerOptions, files: [file] }, null, 2)}\n`);
  return await run(process.execPath, [join(app.dir, 'node_modules/typescript/bin/tsc'), '-p', config, '--pretty', 'false'], { cwd: app.dir });
}
