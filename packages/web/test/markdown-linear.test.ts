// The renderer's cost is linear in its input, by construction, and this keeps it so: the shapes
// below once made it rescan (the text at each newline, the rest of the input at each bracket,
// `<!--` or link, a table row per header column), or sit next to such a shape. Each is rendered at
// two sizes in Chromium; four times the input must take
// about four times as long, never the sixteen times a quadratic pass takes. The test compares times
// measured in the same run with each other (a ratio, never a threshold in milliseconds), and bounds
// the nodes made per input byte, so output cannot grow faster than the input either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMarkdownPage, type MarkdownPage } from './support/markdown-page.js';

let page: MarkdownPage;
beforeAll(async () => {
  page = await openMarkdownPage();
});
afterAll(() => page?.close());

const small = 25_000;
const large = 100_000;
/** Linear is 4 (large / small), quadratic 16: a generous margin either way on a noisy machine. */
const maxRatio = 10;
/** Nodes (elements and text) per input byte: a padded table row of `x` makes five from two bytes. */
const maxNodesPerByte = 3;

/** `unit` repeated to `size` characters, between `before` and `after`. */
function repeated(unit: string, before = '', after = ''): (size: number) => string {
  return (size) => before + unit.repeat(Math.max(1, Math.floor((size - before.length - after.length) / unit.length))) + after;
}

/** `open` n times, `middle`, `close` n times: nesting as deep as the size allows. */
function nested(open: string, middle: string, close: string): (size: number) => string {
  return (size) => {
    const depth = Math.floor((size - middle.length) / (open.length + close.length));
    return open.repeat(depth) + middle + close.repeat(depth);
  };
}

const shapes: Record<string, (size: number) => string> = {
  // Issue 23 item 1: soft line breaks, read back at every newline.
  'a paragraph of short lines': repeated('a\n'),
  'a quote with lazy lines': repeated('b\n', '> a\n'),
  'a list item with lazy lines': repeated('b\n', '- a\n'),
  'a setext heading of many lines': repeated('a\n', '', '==='),
  // Item 2: the inline scanner rescanning the rest of the input.
  'nested brackets': nested('[', 'a', ']'),
  'nested brackets with a definition': (size) => `[a]: https://a.example\n\n${nested('[', 'a', ']')(size - 24)}`,
  'repeated [](': repeated('[]('),
  'repeated [](a "': repeated('[](a "'),
  'repeated [](a (': repeated('[](a ('),
  'unterminated <?': repeated('<?', 'a '),
  'unterminated <!--': repeated('<!--', 'a '),
  'unterminated <![CDATA[': repeated('<![CDATA[', 'a '),
  'unterminated <!a': repeated('<!a', 'a '),
  'emphasis before links': repeated('*[a](b)'),
  'open brackets before links': (size) => '['.repeat(size / 2) + '[a](b)'.repeat(size / 12),
  'nested images': nested('![', 'a', '](b)'),
  'bare URLs cut at an open parenthesis': repeated('http://a('),
  'emphasis runs': repeated('*a_b**c '),
  'deep emphasis': repeated(`${'*'.repeat(1000)}a${'*'.repeat(999)} `),
  // Item 3: table rows padded to the header's width.
  'a wide table of short rows': repeated('x\n', `|${'a|'.repeat(128)}\n|${'-|'.repeat(128)}\n`),
};

/** time(large) / time(small) for one shape: the best of a few measurements, since a busy machine only ever inflates one. */
async function ratioOf(shape: (size: number) => string): Promise<number> {
  const sources = [shape(small), shape(large)];
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && best > maxRatio; attempt += 1) {
    const [smaller, larger] = await page.measure(sources, 3);
    // A floor of a tenth of a millisecond: Chromium's clock is no finer.
    best = Math.min(best, Math.max(larger!.milliseconds, 0.1) / Math.max(smaller!.milliseconds, 0.1));
  }
  return Math.round(best * 10) / 10;
}

describe('rendering cost, linear in the input', () => {
  it('takes about four times as long for four times the input, for every hostile shape', { timeout: 120_000 }, async () => {
    const ratios: { shape: string; ratio: number }[] = [];
    for (const [shape, build] of Object.entries(shapes)) ratios.push({ shape, ratio: await ratioOf(build) });
    expect(ratios.filter(({ ratio }) => ratio > maxRatio)).toEqual([]);
  });

  it(`makes at most ${maxNodesPerByte} nodes per input byte, for every hostile shape`, async () => {
    const names = Object.keys(shapes);
    const sources = names.map((name) => shapes[name]!(small));
    const results = await page.measure(sources, 1);
    const report = names.map((name, index) => ({ name, nodesPerByte: Math.round((results[index]!.nodes / sources[index]!.length) * 100) / 100 }));
    expect(report.filter((entry) => entry.nodesPerByte > maxNodesPerByte)).toEqual([]);
  });
});

describe('table padding, bounded by the table source', () => {
  it('pads short rows to the header width while the table adds at most one empty cell per source character', async () => {
    // 128 columns: header and delimiter row are 257 characters each, so 516 with their newlines,
    // and each `x` row adds 2. A hundred rows allow 716 empty cells: five rows of 127, then the
    // rest keep the one cell they wrote.
    const source = `|${'a|'.repeat(128)}\n|${'-|'.repeat(128)}\n${'x\n'.repeat(100)}`;
    const [inventory] = await page.inventory([source]);
    expect(inventory!.tags.filter((tag) => tag === 'tr')).toHaveLength(101);
    expect(inventory!.tags.filter((tag) => tag === 'td')).toHaveLength(5 * 128 + 95);
  });

  it('pads every row of a table a model writes', async () => {
    const [inventory] = await page.inventory(['| Step | Owner | Effort | Notes |\n|---|---|---|---|\n| cache | ops |\n| tests |\n| deploy | ops | 1d |']);
    expect(inventory!.tags.filter((tag) => tag === 'td')).toHaveLength(12);
  });
});

describe('emphasis nesting', () => {
  it('nests emphasis at most 16 deep; deeper runs pair without an element and keep their text', async () => {
    const [inventory] = await page.inventory([`${'*'.repeat(25_000)}a${'*'.repeat(25_000)}`]);
    expect(inventory!.depth).toBe(1 + 16);
    expect(inventory!.text).toBe('a');
  });
});
