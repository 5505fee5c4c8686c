// The docs cannot rot: every code block in this package's README and in docs/protocol.md is
// either an excerpt of a file that is compiled and tested, or a frame the protocol parser accepts.
import { readFileSync } from 'node:fs';
import { parseClientFrame, parseServerFrame } from '@askseam/protocol';
import { describe, expect, it } from 'vitest';
import { blocksOf, isExcerpt } from './markdown-excerpts.js';

const repoRoot = new URL('../../../', import.meta.url);
const documents = ['packages/host-ws/README.md', 'docs/protocol.md'];

describe.each(documents)('%s', (document) => {
  const blocks = blocksOf(readFileSync(new URL(document, repoRoot), 'utf8'));

  it('has code blocks', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it('shows code only as excerpts of tested files', () => {
    for (const block of blocks.filter((b) => b.lang === 'ts' || b.lang === 'html')) {
      expect(block.excerptOf, `a ${block.lang} block without an excerpt marker:\n${block.code}`).toBeDefined();
      const source = readFileSync(new URL(block.excerptOf!, repoRoot), 'utf8');
      expect(isExcerpt(block.code, source), `not an excerpt of ${block.excerptOf}:\n${block.code}`).toBe(true);
    }
  });

  it('shows only frames the protocol accepts as JSON examples', () => {
    for (const block of blocks.filter((b) => b.lang === 'json')) {
      const server = parseServerFrame(block.code);
      const client = parseClientFrame(block.code);
      expect(server.ok || client.ok, `not a valid frame:\n${block.code}`).toBe(true);
    }
  });
});

it('documents every frame type in docs/protocol.md with a JSON example', () => {
  const blocks = blocksOf(readFileSync(new URL('docs/protocol.md', repoRoot), 'utf8')).filter((b) => b.lang === 'json');
  const types = new Set(blocks.map((block) => (JSON.parse(block.code) as { type: string }).type));
  for (const type of ['hello', 'question/requested', 'question/resolved', 'receipt', 'error', 'ping', 'pong', 'question/respond']) {
    expect(types, type).toContain(type);
  }
});
