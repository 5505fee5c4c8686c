import { describe, expect, it } from 'vitest';
import { parseRecommendedLabel } from './labels.js';

describe('parseRecommendedLabel', () => {
  it.each([
    ['Use Postgres (Recommended)', 'Use Postgres'],
    ['Use Postgres (recommended)', 'Use Postgres'],
    ['Use Postgres (RECOMMENDED)', 'Use Postgres'],
    ['Use Postgres(Recommended)', 'Use Postgres'],
    ['Use Postgres   (Recommended)   ', 'Use Postgres'],
    ['Use Postgres （Recommended）', 'Use Postgres'],
    ['使用 Postgres（推荐）', '使用 Postgres'],
    ['使用 Postgres (推荐)', '使用 Postgres'],
    ['使用 Postgres　（推荐）　', '使用 Postgres'],
    ['Line one\nline two (Recommended)', 'Line one\nline two'],
  ])('strips the trailing marker from %j', (label, shown) => {
    expect(parseRecommendedLabel(label)).toEqual({ label: shown, recommended: true });
  });

  it.each([
    ['Use Postgres', 'no marker'],
    ['Use Postgres (Recommended）', 'mixed ASCII and full-width parentheses'],
    ['使用 Postgres（推荐)', 'mixed full-width and ASCII parentheses'],
    ['(Recommended) Use Postgres', 'the marker at the start'],
    ['Use (Recommended) Postgres', 'the marker in the middle'],
    ['Use Postgres Recommended', 'the word without parentheses'],
    ['Use Postgres [Recommended]', 'square brackets'],
    ['Use Postgres (Recommended by Ops)', 'more words inside the parentheses'],
    ['Use Postgres ( Recommended )', 'spaces inside the parentheses'],
    ['(Recommended)', 'a label that is only the marker'],
    ['', 'an empty label'],
  ])('leaves %j unchanged (%s)', (label) => {
    expect(parseRecommendedLabel(label)).toEqual({ label, recommended: false });
  });
});
