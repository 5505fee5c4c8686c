// docs/durability.md documents every event type. (Its code blocks are example regions, checked by
// `pnpm lint`: scripts/docs-snippets.mjs.)
import { readFileSync } from 'node:fs';
import { questionEventTypes } from '@askseam/store';
import { expect, it } from 'vitest';

const repoRoot = new URL('../../../', import.meta.url);
it('names every event type in the event table of docs/durability.md', () => {
  const markdown = readFileSync(new URL('docs/durability.md', repoRoot), 'utf8');
  for (const type of questionEventTypes) expect(markdown, type).toContain(`| \`${type}\` |`);
});
