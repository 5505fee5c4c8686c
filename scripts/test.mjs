// Runs every test once and ends with the plain line CI reads: "N passed, N failed".
// Type tests (expectTypeOf) are checked by tsc first, so a broken public type fails the run too.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const extraArgs = process.argv.slice(2);
const bin = (name) => join('node_modules', '.bin', name);

const typecheck = spawnSync(bin('tsc'), ['-p', 'tsconfig.test.json'], { stdio: 'inherit' });
const typeFailures = typecheck.status === 0 ? 0 : 1;

const outDir = mkdtempSync(join(tmpdir(), 'askseam-test-'));
const reportFile = join(outDir, 'vitest.json');
const run = spawnSync(
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...extraArgs],
  { stdio: 'inherit' },
);

let passed = 0;
let failed = typeFailures;
try {
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  passed = report.numPassedTests;
  // Failed tests, plus each file that failed with no failed test in it (it did not load, or a
  // beforeAll failed and its tests were reported as skipped).
  const filesFailedWhole = report.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  failed += report.numFailedTests + filesFailedWhole;
  // Anything else vitest counted against the run (an unhandled error) is still a failure.
  if (!report.success && failed === typeFailures) failed += 1;
} catch {
  failed += 1;
}
// The exit status is the last word: never print "0 failed" for a run that did not pass.
if (run.status !== 0 && failed === 0) failed = 1;
rmSync(outDir, { recursive: true, force: true });

if (typeFailures) console.log('type check of the tests failed (counted as 1 failure)');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || run.status !== 0 ? 1 : 0);
