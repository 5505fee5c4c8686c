// The page weight of the element (issue 19 target 5), checked on every `pnpm test`: a size, never a
// time. The bundle is built in memory exactly as `pnpm build` writes it, gzipped at the budget's
// level, and held to size-budget.json.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyseBrowserBundle } from '../scripts/bundle.mjs';

interface SizeBudget {
  gzipLevel: number;
  limit: { gzipBytes: number };
}

const budget = JSON.parse(readFileSync(new URL('../size-budget.json', import.meta.url), 'utf8')) as SizeBudget;

let bundle: { code: string; inputs: Record<string, number> };
beforeAll(async () => {
  bundle = await analyseBrowserBundle();
});

describe('the browser bundle', () => {
  it(`stays within its gzip budget (${budget.limit.gzipBytes} bytes, size-budget.json)`, () => {
    const gzipBytes = gzipSync(bundle.code, { level: budget.gzipLevel }).length;
    expect(gzipBytes, `the bundle is ${gzipBytes} bytes gzipped; see what grew with \`pnpm bench\` (BENCH_ONLY=bundle)`).toBeLessThanOrEqual(budget.limit.gzipBytes);
  });

  it('carries no zod: the browser validates with the plans made at build time', () => {
    const zodFiles = Object.keys(bundle.inputs).filter((path) => /[\\/]zod[\\/]/.test(path));
    expect(zodFiles, 'a module on the browser path builds zod schemas: list it in schemaModules (scripts/browser-validators.mjs)').toEqual([]);
  });
});
