import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { userQuestionErrorCodes } from '@askseam/user-questions';

// The docs quote code; these tests keep every quote identical to a file that is compiled and tested.
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const sourcesIn = (dir: string) =>
  readdirSync(new URL(dir, import.meta.url))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => read(`${dir}${name}`));
const sources = [...sourcesIn('./'), ...sourcesIn('../src/')];

/** The lines of a text with indentation and blank lines removed, joined again. */
const normalise = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');

const tsBlocks = (markdown: string) => [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');

const pages = ['../README.md', '../../../docs/providers.md', '../../../docs/errors.md'];

describe('code quoted in the docs', () => {
  it.each(pages)('%s quotes only code that exists in an example or source file', (page) => {
    const blocks = tsBlocks(read(page));
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      expect(sources.some((source) => normalise(source).includes(normalise(block))), `not found in any file:\n${block}`).toBe(true);
    }
  });

  it('the README quotes the quick-start example whole', () => {
    expect(read('../README.md')).toContain(read('./quick-start.ts').trim());
  });

  it('the provider guide quotes the console provider whole', () => {
    expect(read('../../../docs/providers.md')).toContain(read('./console-provider.ts').trim());
  });
});

describe('the error table', () => {
  const table = read('../../../docs/errors.md');

  it.each([...userQuestionErrorCodes, 'INVALID_ARGUMENTS'])('has a row for %s', (code) => {
    expect(table).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
  });
});
