// Lint = type-check the tests and examples too (the build only covers src without tests).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const result = spawnSync(join('node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.test.json'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
