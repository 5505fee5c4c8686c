import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vitest/config';

const packagesDir = fileURLToPath(new URL('./packages/', import.meta.url));

// Tests import sibling packages by name; point those names at the sources so a test run never
// depends on a stale dist/ build.
// Anchored, so that a subpath export such as `@askseam/web/browser` still resolves through package.json.
const alias = readdirSync(packagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => ({ find: new RegExp(`^@askseam/${entry.name}$`), replacement: `${packagesDir}${entry.name}/src/index.ts` }));
// Test-helper entries (`@askseam/<pkg>/testing`) come from their sources too.
alias.push({ find: /^@askseam\/([a-z-]+)\/testing$/, replacement: `${packagesDir}$1/src/testing/index.ts` });

export const sharedTestConfig: UserConfig = {
  resolve: { alias },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'e2e/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
};

/** The vitest config of one package: the shared settings, rooted at that package. */
export function packageTestConfig(configUrl: string): UserConfig {
  return defineConfig({ ...sharedTestConfig, root: fileURLToPath(new URL('.', configUrl)) });
}
