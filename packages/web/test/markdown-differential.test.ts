// Our Markdown renderer (src/markdown*.ts) against marked, the renderer the element used before
// perf/markdown: the same sources, rendered in Chromium by both, must give the same normalised
// DOM (tag tree, text, attributes after the allow-list). marked is a devDependency for this test
// only. Deliberate differences are listed in docs/decisions.md ("Markdown without marked").
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeCorpus, planCorpus } from './markdown-corpus.js';
import { openMarkdownPage, type MarkdownPage } from './support/markdown-page.js';

let page: MarkdownPage;
beforeAll(async () => {
  page = await openMarkdownPage();
});
afterAll(() => page?.close());

async function expectSameAsMarked(sources: readonly string[]): Promise<void> {
  const results = await page.both(sources);
  const differing = results.map((result, index) => ({ source: sources[index]!, ...result })).filter((result) => result.ours !== result.marked);
  expect(differing).toEqual([]);
}

describe('the Markdown renderer, against marked', () => {
  it(`renders the ${planCorpus.length} plan snippets as marked does`, async () => {
    await expectSameAsMarked(planCorpus);
  });

  it(`renders the ${edgeCorpus.length} edge snippets as marked does`, async () => {
    await expectSameAsMarked(edgeCorpus);
  });

  // Blocks and inline pieces models combine, assembled into documents.
  const word = fc.constantFrom('plan', 'Postgres', 'the cache', 'step', 'v2', 'API', 'users', 'deploy');
  const inline = fc.oneof(
    word,
    word.map((w) => `**${w}**`),
    word.map((w) => `*${w}*`),
    word.map((w) => `_${w}_`),
    word.map((w) => `~~${w}~~`),
    word.map((w) => `\`${w}\``),
    word.map((w) => `[${w}](https://example.com/${w.replace(/ /g, '-')})`),
    fc.constantFrom('https://example.com/x', '<https://example.org>', '&amp;', '\\*', 'a_b_c', '<br>', '![logo](https://example.com/l.png)'),
  );
  const line = fc.array(inline, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '));
  const paragraph = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));
  const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), line).map(([level, text]) => `${'#'.repeat(level)} ${text}`);
  const bullet = fc.constantFrom('-', '*', '+');
  const listItem = fc.tuple(fc.constantFrom('', '[ ] ', '[x] '), line);
  const list = fc.oneof(
    fc.tuple(bullet, fc.array(listItem, { minLength: 1, maxLength: 4 })).map(([marker, items]) => items.map(([box, text]) => `${marker} ${box}${text}`).join('\n')),
    fc.tuple(fc.integer({ min: 1, max: 12 }), fc.array(line, { minLength: 1, maxLength: 4 })).map(([start, items]) => items.map((text, at) => `${start + at}. ${text}`).join('\n')),
    fc.tuple(fc.array(line, { minLength: 1, maxLength: 3 }), fc.array(line, { minLength: 1, maxLength: 3 })).map(([outer, inner]) => `- ${outer.join('\n- ')}\n  - ${inner.join('\n  - ')}`),
  );
  const code = fc.tuple(fc.constantFrom('', 'ts', 'bash', 'json'), fc.array(line, { minLength: 1, maxLength: 3 })).map(([language, lines]) => `\`\`\`${language}\n${lines.join('\n')}\n\`\`\``);
  const quote = paragraph.map((text) => text.split('\n').map((l) => `> ${l}`).join('\n'));
  const table = fc
    .tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom('---', ':--', '--:', ':-:'), fc.array(fc.array(inline, { minLength: 4, maxLength: 4 }), { maxLength: 3 }))
    .map(([columns, delimiter, rows]) => {
      const row = (cells: readonly string[]) => `| ${cells.slice(0, columns).join(' | ')} |`;
      return [row(['A', 'B', 'C', 'D']), row(Array(4).fill(delimiter)), ...rows.map(row)].join('\n');
    });
  const block = fc.oneof(paragraph, heading, list, code, quote, table, fc.constant('---'));
  const documentArb = fc.array(block, { minLength: 1, maxLength: 6 }).map((blocks) => blocks.join('\n\n'));

  it('renders generated plan documents as marked does', async () => {
    const sources = fc.sample(documentArb, { numRuns: 300, seed: 19 });
    await expectSameAsMarked(sources);
  });
});
