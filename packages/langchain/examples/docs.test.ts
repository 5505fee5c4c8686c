// docs/langchain.md and the package README show only excerpts of the tested example files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blocksOf, isExcerpt } from '../../host-ws/examples/markdown-excerpts.js';

const repoRoot = new URL('../../../', import.meta.url);

describe('the LangChain docs', () => {
  it.each(['docs/langchain.md', 'packages/langchain/README.md'])('%s shows only excerpts of tested files', (page) => {
    const blocks = blocksOf(readFileSync(new URL(page, repoRoot), 'utf8')).filter((block) => block.lang !== 'sh');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      expect(block.excerptOf, `a ${block.lang} block without an excerpt marker:\n${block.code}`).toBeDefined();
      const source = readFileSync(new URL(block.excerptOf!, repoRoot), 'utf8');
      expect(isExcerpt(block.code, source), `not an excerpt of ${block.excerptOf}:\n${block.code}`).toBe(true);
    }
  });
});
