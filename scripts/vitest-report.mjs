// Turns a vitest JSON report into the two numbers of the closing line.
import { readFileSync } from 'node:fs';

/**
 * Passed and failed tests of one vitest run. A file that failed with no failed test in it (it did
 * not load, or a beforeAll failed) counts once; a run that exited non-zero never counts 0 failed.
 * @param {string} reportFile the --outputFile.json of the run
 * @param {number | null} exitStatus the run's exit status
 * @returns {{ passed: number, failed: number }}
 */
export function countVitestReport(reportFile, exitStatus) {
  let passed = 0;
  let failed = 0;
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    passed = report.numPassedTests;
    const filesFailedWhole = report.testResults.filter(
      (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
    ).length;
    failed = report.numFailedTests + filesFailedWhole;
    // Anything else vitest counted against the run (an unhandled error) is still a failure.
    if (!report.success && failed === 0) failed = 1;
  } catch {
    failed = 1;
  }
  if (exitStatus !== 0 && failed === 0) failed = 1;
  return { passed, failed };
}
