import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLineBreak, isBlankText } from './text-shape.js';

// Oracles written as plain lists of code points, shaped unlike the Unicode property regexes of
// src/text-shape.ts: what a person cannot see, what they can, and what breaks a line.
const invisible = [
  ' ', '\t', '\u000b', '\u000c', '\u00a0', '\u1680', '\u2003', '\u200a', '\u202f', '\u205f', '\u3000', // white space
  '\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f', // control characters
  '\u00ad', '\u061c', '\u180e', '\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u202a', '\u202e', // format characters
  '\u2060', '\u2061', '\u2064', '\u2066', '\u2069', '\ufeff', '\u{e0001}', '\u{e0041}', '\u{e007f}',
  '\u034f', '\u115f', '\u1160', '\u3164', '\uffa0', '\ufe00', '\ufe0f', '\u{e0100}', // other default-ignorables
];
const breaks = ['\n', '\r', '\u000b', '\u000c', '\u0085', '\u2028', '\u2029'];
const visible = ['a', 'Z', '0', '.', '-', '中', 'é', '👍', '\u{1f1eb}\u{1f1f7}', '…', '_', '٣'];

const invisibleText = fc.array(fc.constantFrom(...invisible), { maxLength: 12 }).map((chars) => chars.join(''));
const withVisible = fc
  .tuple(invisibleText, fc.constantFrom(...visible), invisibleText)
  .map(([before, shown, after]) => `${before}${shown}${after}`);
const oneLine = fc.array(fc.constantFrom(...visible, ' ', '\t', '\u200b', '\u00a0'), { maxLength: 12 }).map((chars) => chars.join(''));

describe('isBlankText', () => {
  it('calls text made only of invisible characters blank, however it is mixed', () => {
    fc.assert(fc.property(invisibleText, (text) => isBlankText(text)), { numRuns: 500 });
  });

  it('never calls text blank once it holds one character a person can see', () => {
    fc.assert(fc.property(withVisible, (text) => !isBlankText(text)), { numRuns: 500 });
  });

  it('counts as blank what trim() leaves behind but nobody sees', () => {
    for (const text of ['\u200b', '\u2060', '\u0085', '\u00ad', ' \u200d ']) {
      expect(text.trim(), JSON.stringify(text)).not.toBe('');
      expect(isBlankText(text), JSON.stringify(text)).toBe(true);
    }
  });
});

describe('hasLineBreak', () => {
  it('finds every kind of line break anywhere in a line', () => {
    fc.assert(
      fc.property(oneLine, fc.constantFrom(...breaks), oneLine, (before, lineBreak, after) => hasLineBreak(`${before}${lineBreak}${after}`)),
      { numRuns: 500 },
    );
  });

  it('finds none in a line of text, spaces and tabs', () => {
    fc.assert(fc.property(oneLine, (text) => !hasLineBreak(text)), { numRuns: 500 });
  });
});
