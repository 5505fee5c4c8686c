// The pending changesets must version cleanly: `changeset version` runs on a copy of the repo in the
// OS temp dir (never on the work tree) and must give every package it names a CHANGELOG entry.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoDir, run, type RunResult } from './outside-app/app.js';

/** The packages a changeset file names in its front matter, with their bump types. */
function bumpsOf(changeset: string): Array<{ name: string; bump: string }> {
  const frontMatter = /^---\n([\s\S]*?)\n---/.exec(changeset)?.[1] ?? '';
  return [...frontMatter.matchAll(/^\s*["']?([^"':\s]+)["']?\s*:\s*(patch|minor|major)\s*$/gm)].map(([, name = '', bump = '']) => ({ name, bump }));
}

function manifestsByName(root: string): Map<string, { dir: string; version: string; private: boolean }> {
  const manifests = new Map<string, { dir: string; version: string; private: boolean }>();
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const manifest = JSON.parse(readFileSync(join(root, 'packages', entry.name, 'package.json'), 'utf8'));
    manifests.set(manifest.name, { dir: join(root, 'packages', entry.name), version: manifest.version, private: manifest.private === true });
  }
  return manifests;
}

/** The distinct versions of the packages that are published (not private). */
function publishedVersions(manifests: Map<string, { version: string; private: boolean }>): string[] {
  return [...new Set([...manifests.values()].filter((manifest) => !manifest.private).map((manifest) => manifest.version))];
}

const pendingFiles = readdirSync(join(repoDir, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md');
const bumped = new Set(pendingFiles.flatMap((file) => bumpsOf(readFileSync(join(repoDir, '.changeset', file), 'utf8')).map((bump) => bump.name)));
const before = manifestsByName(repoDir);
let copyDir = '';
let versioned: RunResult;

beforeAll(async () => {
  copyDir = mkdtempSync(join(tmpdir(), 'askseam-changesets-'));
  const skipped = new Set(['node_modules', '.git', '.turbo', 'dist', 'test-results', 'coverage']);
  cpSync(repoDir, copyDir, { recursive: true, filter: (source) => !relative(repoDir, source).split(sep).some((part) => skipped.has(part)) });
  // The changelog generator is resolved from the copy; the repo's installed tools serve it read-only.
  symlinkSync(join(repoDir, 'node_modules'), join(copyDir, 'node_modules'), 'dir');
  versioned = await run(process.execPath, [join(repoDir, 'node_modules/@changesets/cli/bin.js'), 'version'], { cwd: copyDir, timeoutMs: 120_000 });
}, 180_000);

afterAll(() => {
  if (copyDir) rmSync(copyDir, { recursive: true, force: true });
});

describe('changeset version (dry run on a copy)', () => {
  it('has pending changesets that each name at least one known package', () => {
    for (const file of pendingFiles) {
      const bumps = bumpsOf(readFileSync(join(repoDir, '.changeset', file), 'utf8'));
      expect(bumps.length, file).toBeGreaterThan(0);
      for (const { name } of bumps) expect(before.has(name), `${file} names ${name}`).toBe(true);
    }
  });

  it('succeeds and uses up every pending changeset', () => {
    expect(versioned.status, versioned.stdout + versioned.stderr).toBe(0);
    expect(readdirSync(join(copyDir, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md')).toEqual([]);
  });

  it('gives each package with a pending changeset a new version and a CHANGELOG entry for it', () => {
    const after = manifestsByName(copyDir);
    expect(bumped.size).toBeGreaterThan(0);
    for (const name of bumped) {
      const { version } = after.get(name)!;
      expect(version, name).not.toBe(before.get(name)!.version);
      const changelog = readFileSync(join(after.get(name)!.dir, 'CHANGELOG.md'), 'utf8');
      expect(changelog, name).toMatch(new RegExp(`^# ${name.replace('/', '\\/')}\\n\\n## ${version.replaceAll('.', '\\.')}\\n`));
    }
  });

  it('gives every published package one version, today and after versioning (a fixed group)', () => {
    expect(publishedVersions(before)).toHaveLength(1);
    expect(publishedVersions(manifestsByName(copyDir))).toHaveLength(1);
  });

  it('leaves the work tree untouched', () => {
    expect(readdirSync(join(repoDir, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md')).toEqual(pendingFiles);
    for (const [name, { version }] of manifestsByName(repoDir)) expect(version, name).toBe(before.get(name)!.version);
  });
});
