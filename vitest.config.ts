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
// Cross-package checks live in e2e/, one project per file (`--project outside-app`).
for (const entry of readdirSync(new URL('./e2e/', import.meta.url), { withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.test.ts')) continue;
  const name = entry.name.slice(0, -'.test.ts'.length);
  projects.push({ ...sharedTestConfig, test: { ...sharedTestConfig.test, name, root: './e2e', include: [entry.name] } });
}

export default defineConfig({ test: { projects } });
