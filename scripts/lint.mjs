// Lint = type-check the tests and examples too (the build only covers src without tests), then
// check that every code block in the Markdown is its example region (scripts/docs-snippets.mjs)
// and that the README's package lists and test line match the repo (scripts/readme-check.mjs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const steps = [
  [join('node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.test.json']],
  [process.execPath, [join('scripts', 'docs-snippets.mjs'), 'check']],
  [process.execPath, [join('scripts', 'readme-check.mjs')]],
];
let status = 0;
// Every step runs, so one lint run reports type errors and stale docs together.
for (const [command, args] of steps) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) status = result.status ?? 1;
}
process.exit(status);
