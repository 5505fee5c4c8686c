// Turns a vitest JSON report into the two numbers of the closing line.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * Passed and failed tests of one vitest run, and a line naming each failure (CI keeps only the
 * tail of the log, so the failures are repeated next to the closing line). A file that failed with no failed test in it (it did
 * not load, or a beforeAll failed) counts once; a run that exited non-zero never counts 0 failed.
 * @param {string} reportFile the --outputFile.json of the run
 * @param {number | null} exitStatus the run's exit status
 * @returns {{ passed: number, failed: number, failures: string[] }}
 */
export function countVitestReport(reportFile, exitStatus) {
  let passed = 0;
  let failed = 0;
  const failures = [];
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    passed = report.numPassedTests;
    const filesFailedWhole = report.testResults.filter(
      (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
    ).length;
    failed = report.numFailedTests + filesFailedWhole;
    for (const file of report.testResults) {
      const where = relative(process.cwd(), file.name);
      const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
      for (const test of failedTests) failures.push(`${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      if (file.status === 'failed' && failedTests.length === 0) failures.push(`${where}: ${firstLine(file.message)}`);
    }
    // Anything else vitest counted against the run (an unhandled error) is still a failure.
    if (!report.success && failed === 0) failed = 1;
  } catch {
    failed = 1;
  }
  if (exitStatus !== 0 && failed === 0) failed = 1;
  return { passed, failed, failures };
}

/** The first line of a failure message, cut to a length a log line can hold. */
function firstLine(message) {
  const line = String(message ?? 'no message').split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
