import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Conditions {
  types?: string;
  default?: string;
}
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, string | Conditions> };

describe('package.json exports', () => {
  it('gives every code subpath (./browser included) a types condition, first, built from a source module', () => {
    const codeEntries = Object.entries(manifest.exports).filter(([subpath]) => !subpath.endsWith('.json'));
    expect(codeEntries.map(([subpath]) => subpath)).toEqual(['.', './server', './browser', './browser/console', './react', './vue']);
    for (const [subpath, target] of codeEntries) {
      expect(typeof target, subpath).toBe('object');
      const conditions = target as Conditions;
      expect(Object.keys(conditions)[0], subpath).toBe('types');
      const typesFile = conditions.types ?? '';
      expect(typesFile, subpath).toMatch(/^\.\/dist\/[a-z-]+\.d\.ts$/);
      // dist/<name>.d.ts is emitted from src/<name>.ts by the build.
      const sourceModule = typesFile.replace('./dist/', '../src/').replace(/\.d\.ts$/, '.ts');
      expect(existsSync(new URL(sourceModule, import.meta.url)), `${subpath}: ${sourceModule}`).toBe(true);
    }
  });
});
