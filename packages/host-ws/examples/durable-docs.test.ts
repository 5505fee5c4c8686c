// docs/durability.md and the durability sections of the READMEs cannot rot: every code block is an
// excerpt of a file the test suite compiles and runs, and every event type is documented.
import { readFileSync } from 'node:fs';
import { questionEventTypes } from '@askseam/store';
import { describe, expect, it } from 'vitest';
import { blocksOf, isExcerpt } from './markdown-excerpts.js';

const repoRoot = new URL('../../../', import.meta.url);
const documents = ['docs/durability.md', 'packages/store/README.md', 'packages/store-sqlite/README.md'];

describe.each(documents)('%s', (document) => {
  const blocks = blocksOf(readFileSync(new URL(document, repoRoot), 'utf8'));

  it('has code blocks, each an excerpt of a tested file', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      expect(block.excerptOf, `a ${block.lang} block without an excerpt marker:\n${block.code}`).toBeDefined();
      const source = readFileSync(new URL(block.excerptOf!, repoRoot), 'utf8');
      expect(isExcerpt(block.code, source), `not an excerpt of ${block.excerptOf}:\n${block.code}`).toBe(true);
    }
  });
});

it('names every event type in the event table of docs/durability.md', () => {
  const markdown = readFileSync(new URL('docs/durability.md', repoRoot), 'utf8');
  for (const type of questionEventTypes) expect(markdown, type).toContain(`| \`${type}\` |`);
});
