// Runs every test once and ends with the plain line CI reads: "N passed, N failed".
// Type tests (expectTypeOf) are checked by tsc first, so a broken public type fails the run too.
// Then the Node-side suites, the framework adapters and the outside-app check run again on Node 22
// and 24 (see node-versions.mjs), both at once; those versions are prepared while the main run
// goes, and their counts join the closing line.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { otherNodeVersions, prepareNodeVersion, removeNodeVersion, runNodeSideSuites } from './node-versions.mjs';
import { countVitestReport } from './vitest-report.mjs';

const repoDir = process.cwd();
const extraArgs = process.argv.slice(2);
const bin = (name) => join('node_modules', '.bin', name);

/** Run a command with the terminal as its output; resolves with its exit status. */
function runInherited(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', () => resolve(1));
    child.on('close', (status) => resolve(status ?? 1));
  });
}

const typecheckStatus = await runInherited(bin('tsc'), ['-p', 'tsconfig.test.json']);
const typeFailures = typecheckStatus === 0 ? 0 : 1;

// A narrowed run (`pnpm test -- --project x`) is for a developer's quick look: Node 20 only.
const versions = extraArgs.length > 0 ? [] : otherNodeVersions;
// Downloads, copies and the native build for the other versions overlap the main run.
const preparing = versions.map((major) => prepareNodeVersion(repoDir, major));

const outDir = mkdtempSync(join(tmpdir(), 'askseam-test-'));
const mainStatus = await runInherited(bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(outDir, 'vitest.json')}`,
  ...extraArgs,
]);
const main = countVitestReport(join(outDir, 'vitest.json'), mainStatus);
let passed = main.passed;
let failed = main.failed + typeFailures;
const summary = [`node ${process.versions.node}: ${main.passed} passed, ${main.failed} failed`];
const failures = main.failures.map((line) => `node ${process.versions.node}: ${line}`);

// The other versions run side by side (each is mostly waiting on servers and sockets); each one's
// output is kept in its own file and printed whole when it ends, so the two never interleave.
const otherRuns = preparing.map(async (pending) => {
  const prepared = await pending;
  if (!prepared.ok) {
    removeNodeVersion(prepared);
    return { major: prepared.major, passed: 0, failed: 1, failures: [], line: `node ${prepared.major}: not run (${prepared.step} failed)`, output: `\nNode ${prepared.major}: "${prepared.step}" failed (counted as 1 failure); its log:\n${readFileSync(prepared.logFile, 'utf8').slice(-4000)}` };
  }
  const reportFile = join(outDir, `vitest-node${prepared.major}.json`);
  const outputFile = join(outDir, `vitest-node${prepared.major}.log`);
  const status = await runNodeSideSuites(prepared, reportFile, outputFile);
  const counts = countVitestReport(reportFile, status);
  const output = `\nNode ${prepared.major}: the Node-side suites, the framework adapters and the outside-app check\n${readFileSync(outputFile, 'utf8')}`;
  removeNodeVersion(prepared);
  return { major: prepared.major, ...counts, line: `node ${prepared.major}: ${counts.passed} passed, ${counts.failed} failed`, output };
});
for (const run of await Promise.all(otherRuns)) {
  console.log(run.output);
  passed += run.passed;
  failed += run.failed;
  summary.push(run.line);
  failures.push(...run.failures.map((line) => `node ${run.major}: ${line}`));
}
rmSync(outDir, { recursive: true, force: true });

if (failures.length > 0) console.log(`\nFailed:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);
if (typeFailures) console.log('type check of the tests failed (counted as 1 failure)');
console.log(summary.join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
