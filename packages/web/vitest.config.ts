import { mergeConfig } from 'vitest/config';
import { packageTestConfig } from '../../vitest.shared.ts';

// The browser test files spend most of their time waiting on Chromium and the host, not on a CPU:
// two at a time keeps this package's own run well under a minute and a half even on a 2-core box
// (vitest would otherwise run one file at a time there). The root run keeps its own settings.
export default mergeConfig(packageTestConfig(import.meta.url), { test: { maxWorkers: 2, minWorkers: 1 } });
