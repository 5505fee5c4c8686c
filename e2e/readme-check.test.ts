// The README check (scripts/readme-check.mjs, part of `pnpm lint`): the repo's README passes, and
// each stale part it exists to catch fails it, shown on a copy of the README with that part broken.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoDir } from './outside-app/app.js';

const readme = readFileSync(join(repoDir, 'README.md'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'askseam-readme-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function check(text: string): { status: number | null; output: string } {
  const file = join(scratch, 'README.md');
  writeFileSync(file, text);
  const result = spawnSync(process.execPath, [join(repoDir, 'scripts', 'readme-check.mjs'), file], { cwd: repoDir, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The README without the table row that starts with `start`. */
function withoutRow(start: string): string {
  const lines = readme.split('\n');
  expect(lines.filter((line) => line.startsWith(start))).toHaveLength(1);
  return lines.filter((line) => !line.startsWith(start)).join('\n');
}

describe('the README check', () => {
  it('passes the repo\'s README', () => {
    expect(check(readme)).toEqual({ status: 0, output: '' });
  });

  it('refuses a test count copied from a run', () => {
    const copied = check(readme.replace('`N passed, N failed`', '`4242 passed, 0 failed`'));
    expect(copied.status).toBe(1);
    expect(copied.output).toContain('"4242 passed" is a test count copied by hand');
  });

  it('refuses a packages table without a row for a packages/ directory', () => {
    const missing = check(withoutRow('| [`@askseam/bus-redis`]'));
    expect(missing.status).toBe(1);
    expect(missing.output).toContain('The packages table has no row linking packages/bus-redis.');
  });

  it('refuses an install chooser that names no `npm install` of a public package', () => {
    const missing = check(withoutRow('| the questions in a React 19 app'));
    expect(missing.status).toBe(1);
    expect(missing.output).toContain('The install chooser has no `npm install` naming @askseam/react.');
  });
});
