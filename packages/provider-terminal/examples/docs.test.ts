import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the README', () => {
  it('quotes the terminal example whole', () => {
    expect(read('../README.md')).toContain(read('./ask-in-terminal.ts').trim());
  });
});
