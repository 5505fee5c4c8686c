// The outside-app check: what a new user gets from `npm install @askseam/...` must just work.
// One pack and one npm install (in the OS temp dir, next to vitest 5) feed every check below.
import { existsSync, lstatSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOutsideApp, repoDir, run, typeCheck, type OutsideApp } from './outside-app/app.js';

let app: OutsideApp;

beforeAll(async () => {
  app = await buildOutsideApp();
}, 600_000);

afterAll(() => {
  if (!app) return;
  rmSync(app.dir, { recursive: true, force: true });
  rmSync(dirname(app.tarballs[0]!.file), { recursive: true, force: true });
});

function installed(): OutsideApp {
  if (app.install.status !== 0) throw new Error(`npm install of the tarballs failed, see the install test:\n${app.install.stderr}`);
  return app;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

describe('the packed tarballs', () => {
  it('lists each tarball with its packed and unpacked size', () => {
    const rows = app.tarballs.map((t) => `${t.pkg.name.padEnd(28)} ${kib(t.packedBytes).padStart(11)} packed ${kib(t.unpackedBytes).padStart(11)} unpacked  ${t.files.length} files`);
    console.log(`tarball sizes (node ${process.version}):\n${rows.join('\n')}`);
    expect(app.tarballs.length).toBeGreaterThan(0);
    for (const tarball of app.tarballs) expect(tarball.unpackedBytes).toBeGreaterThan(tarball.packedBytes);
  });

  it('ship a LICENSE, the README and complete metadata with real versions', async () => {
    for (const { pkg, file, files } of app.tarballs) {
      expect(files, pkg.name).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
      const manifest = JSON.parse((await run('tar', ['-xzOf', file, 'package/package.json'], { cwd: repoDir })).stdout);
      expect(manifest, pkg.name).toMatchObject({
        license: 'MIT',
        author: expect.any(String),
        description: expect.any(String),
        homepage: `https://github.com/askseam/askseam/tree/main/packages/${pkg.dir}#readme`,
        bugs: { url: 'https://github.com/askseam/askseam/issues' },
        repository: { type: 'git', url: 'git+https://github.com/askseam/askseam.git', directory: `packages/${pkg.dir}` },
        engines: { node: expect.stringMatching(/^\^20\.19\.0 \|\| >=22\.12\.0$/) },
      });
      expect(manifest.keywords, pkg.name).toContain('askseam');
      // pnpm pack turns workspace: and catalog: into versions; anything left would not install.
      expect(JSON.stringify(manifest), pkg.name).not.toMatch(/"(workspace|catalog):/);
    }
  });

  it('hold only what users need: no tests, no source maps of the browser bundle, no images', () => {
    for (const { pkg, files } of app.tarballs) {
      expect(files.filter((path) => /\.test\.[cm]?[jt]s$/.test(path)), pkg.name).toEqual([]);
      expect(files.filter((path) => /\.(png|jpe?g|gif)$/.test(path)), pkg.name).toEqual([]);
    }
    const web = app.tarballs.find((t) => t.pkg.name === '@askseam/web')!;
    expect(web.files).toContain('dist/browser/askseam-questions.js');
    // Editors and framework tooling find the element's API through package.json's "customElements".
    expect(web.files).toContain('custom-elements.json');
    expect(web.files.filter((path) => path.startsWith('dist/browser/') && path.endsWith('.map'))).toEqual([]);
  });
});

describe('an app outside the workspace', () => {
  it('installs every tarball next to vitest 5 with npm, without a peer conflict', () => {
    const output = `${app.install.stdout}\n${app.install.stderr}`;
    expect(output).not.toMatch(/ERESOLVE/);
    expect(app.install.status, output).toBe(0);
    const vitest = JSON.parse(readFileSync(join(app.dir, 'node_modules/vitest/package.json'), 'utf8'));
    expect(vitest.version).toMatch(/^5\./);
  });

  it('resolves every package from its own node_modules, not through workspace links', () => {
    const requireInApp = createRequire(join(installed().dir, 'package.json'));
    for (const { pkg } of app.tarballs) {
      const packageDir = join(app.dir, 'node_modules', pkg.name);
      expect(lstatSync(packageDir).isSymbolicLink(), pkg.name).toBe(false);
      expect(realpathSync(requireInApp.resolve(pkg.name)).startsWith(`${packageDir}/`), pkg.name).toBe(true);
    }
    expect(existsSync(join(app.dir, 'node_modules/@askseam/store-testing/node_modules/vitest'))).toBe(false);
  });

  it('runs the README\'s "use it in your app" as plain ESM and answers a question over a real socket', async () => {
    const driven = await run(process.execPath, ['drive.mjs'], { cwd: installed().dir, timeoutMs: 60_000 });
    expect(driven.status, driven.stderr).toBe(0);
    const outcome = JSON.parse(driven.stdout.trim().split('\n').at(-1)!);
    expect(outcome.page).toContain('<askseam-questions url="/askseam"');
    expect(outcome.bundleStatus).toBe(200);
    expect(outcome.bundleBytes).toBeGreaterThan(1000);
    expect(outcome.tools[0]).toMatchObject({ type: 'function', function: { name: 'ask_user_question' } });
    expect(outcome.message).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: '{"answers":[{"id":"plan","selected":["Pro (Recommended)"]}]}',
    });
  });

  for (const resolution of ['node16', 'bundler'] as const) {
    it(`type-checks the server-side public API with skipLibCheck off and a Node-only lib (${resolution})`, async () => {
      const checked = await typeCheck(installed(), 'consumer-node.ts', resolution, ['ES2023'], ['node']);
      expect(checked.stdout + checked.stderr).toBe('');
      expect(checked.status).toBe(0);
    }, 300_000);

    it(`type-checks the browser-side public API with skipLibCheck off and the DOM lib (${resolution})`, async () => {
      const checked = await typeCheck(installed(), 'consumer-browser.ts', resolution, ['ES2023', 'DOM', 'DOM.Iterable'], []);
      expect(checked.stdout + checked.stderr).toBe('');
      expect(checked.status).toBe(0);
    }, 300_000);
  }

  it('loads every package with require() from CommonJS, with the same exports as import', async () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    // Node-side entry points only: @askseam/web/browser (and /browser/console) define custom elements and need a browser;
    // @askseam/store-testing is loaded by vitest inside a test run, never by an app's require().
    const entryPoints = app.tarballs
      .flatMap((t) => t.pkg.entryPoints)
      .filter((name) => !name.startsWith('@askseam/web/browser') && name !== '@askseam/store-testing');
    const required = await run(process.execPath, ['require-check.cjs', JSON.stringify(entryPoints)], { cwd: installed().dir });
    expect(required.status, required.stderr).toBe(0);
    const results: Array<{ name: string; ok: boolean; exportNames?: string[]; code?: string; message?: string }> = JSON.parse(required.stdout);
    if (major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19)) {
      const imported = await run(process.execPath, ['import-check.mjs', JSON.stringify(entryPoints)], { cwd: app.dir });
      expect(imported.status, imported.stderr).toBe(0);
      expect(results).toEqual(JSON.parse(imported.stdout).map((entry: { name: string; exportNames: string[] }) => ({ ...entry, ok: true })));
    } else {
      // Below the engines floor: a clear ERR_REQUIRE_ESM, never a half-loaded module.
      for (const result of results) expect(result, result.name).toMatchObject({ ok: false, code: 'ERR_REQUIRE_ESM' });
    }
    // Two child processes that each load every package: 8 s alone, over 20 s with Node 22 and 24 side by side.
  }, 120_000);
});
