// Every JSON frame shown in this package's README and in docs/protocol.md is one the protocol parser
// accepts. (Code blocks are example regions, checked by `pnpm lint`: scripts/docs-snippets.mjs.)
import { readFileSync } from 'node:fs';
import { parseClientFrame, parseServerFrame } from '@askseam/protocol';
import { describe, expect, it } from 'vitest';
import { blocksOf } from './markdown-excerpts.js';

const repoRoot = new URL('../../../', import.meta.url);
const documents = ['packages/host-ws/README.md', 'docs/protocol.md'];

describe.each(documents)('%s', (document) => {
  const blocks = blocksOf(readFileSync(new URL(document, repoRoot), 'utf8'));

  it('has code blocks', () => {
    expect(blocks.length).toBeGreaterThan(0);
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
