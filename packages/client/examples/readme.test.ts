import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('README', () => {
  it('shows the recommendation bot example exactly as the tested file has it', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('./recommendation-bot.ts', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});
