// The docs cannot rot: every ts block in this package's README and in docs/ai-sdk.md is marked as
// an excerpt of a file the tests compile and run, and is found in that file word for word.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const repoRoot = new URL('../../../', import.meta.url);
const documents = ['packages/ai-sdk/README.md', 'docs/ai-sdk.md'];

function tsBlocks(markdown: string): { excerptOf: string | undefined; code: string }[] {
  const blocks: { excerptOf: string | undefined; code: string }[] = [];
  for (const match of markdown.matchAll(/(?:<!-- excerpt: (\S+) -->\n)?```ts\n([\s\S]*?)```/g)) {
    blocks.push({ excerptOf: match[1], code: match[2]! });
  }
  return blocks;
}

describe.each(documents)('%s', (document) => {
  const blocks = tsBlocks(readFileSync(new URL(document, repoRoot), 'utf8'));

  it('shows code only as excerpts of tested files', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      expect(block.excerptOf, `a ts block without an excerpt marker:\n${block.code}`).toBeDefined();
      const source = readFileSync(new URL(block.excerptOf!, repoRoot), 'utf8');
      expect(source.includes(block.code), `not an excerpt of ${block.excerptOf}:\n${block.code}`).toBe(true);
    }
  });
});
