import { readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { sharedTestConfig } from './vitest.shared.ts';

// The root run covers every package: each package directory is a vitest project with the shared settings.
const projects = readdirSync(new URL('./packages/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => ({
    ...sharedTestConfig,
    test: { ...sharedTestConfig.test, name: entry.name, root: `./packages/${entry.name}` },
  }));
// Cross-package checks (the packed tarballs in an app outside the workspace) live in e2e/.
projects.push({ ...sharedTestConfig, test: { ...sharedTestConfig.test, name: 'e2e', root: './e2e', include: ['**/*.test.ts'] } });

export default defineConfig({ test: { projects } });
