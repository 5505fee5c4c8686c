import { describe, expect, it } from 'vitest';
import { findOption, splitRecommended } from './labels.js';

describe('splitRecommended', () => {
  it.each([
    ['Postgres (Recommended)', 'Postgres'],
    ['Postgres (recommended)  ', 'Postgres'],
    ['Postgres（推荐）', 'Postgres'],
    ['Postgres (推荐)', 'Postgres'],
    ['Postgres（Recommended）', 'Postgres'],
  ])('finds the mark on %j', (label, bare) => {
    expect(splitRecommended(label)).toEqual({ label: bare, recommended: true });
  });

  it.each(['Postgres', 'Postgres (Recommended）', '(Recommended)', 'Recommended'])('finds no mark on %j', (label) => {
    expect(splitRecommended(label)).toEqual({ label, recommended: false });
  });
});

describe('findOption', () => {
  const options = [{ label: 'React (Recommended)' }, { label: 'Vue' }, { label: 'vue' }, { label: 'Svelte  Kit' }];

  it('prefers the exact label', () => {
    expect(findOption(options, 'vue')).toEqual({ found: 2 });
  });

  it('matches loosely when only one option fits', () => {
    expect(findOption(options, 'REACT')).toEqual({ found: 0 });
    expect(findOption(options, 'svelte kit')).toEqual({ found: 3 });
  });

  it('reports an ambiguous loose match', () => {
    expect(findOption(options, 'VUE')).toEqual({ ambiguous: [1, 2] });
  });

  it('finds nothing for a label it does not offer', () => {
    expect(findOption(options, 'Angular')).toBeUndefined();
    expect(findOption(options, '  ')).toBeUndefined();
  });
});
