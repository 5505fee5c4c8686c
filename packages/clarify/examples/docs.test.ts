import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the README', () => {
  it('quotes the end-the-run example whole', () => {
    expect(read('../README.md')).toContain(read('./end-the-run.ts').trim());
  });

  it('quotes the model-loop example whole', () => {
    expect(read('../README.md')).toContain(read('./model-loop.ts').trim());
  });
});
