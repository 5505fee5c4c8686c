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

export default defineConfig({ test: { projects } });
