// Markdown written to attack the page, rendered in Chromium by the element's renderer
// (src/markdown.ts): whatever the input, only allow-listed elements and attributes come out, links
// point only at absolute http(s) or mailto, raw HTML is shown as its characters, and huge or deeply
// nested input renders (nesting is capped) instead of exhausting the stack.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMarkdownPage, type Inventory, type MarkdownPage } from './support/markdown-page.js';

let page: MarkdownPage;
beforeAll(async () => {
  page = await openMarkdownPage();
});
afterAll(() => page?.close());

const allowedTags = new Set(['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span']);
const allowedAttributes = new Set(['a[href]', 'a[title]', 'a[target]', 'a[rel]', 'a[referrerpolicy]', 'ol[start]', 'th[align]', 'td[align]']);
const safeHref = /^(?:https?:\/\/|mailto:)/i;

function expectInert(inventory: Inventory): void {
  expect(inventory.tags.filter((tag) => !allowedTags.has(tag))).toEqual([]);
  expect(inventory.attributes.filter((attribute) => !allowedAttributes.has(attribute))).toEqual([]);
  expect(inventory.hrefs.filter((href) => !safeHref.test(href))).toEqual([]);
}

// Pieces of hostile and Markdown-significant text; documents are random mixes of them.
const hostileTags = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<img src="http://203.0.113.7/x.png">',
  '<iframe src="https://203.0.113.7/"></iframe>',
  '<svg onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<div onmouseover="alert(1)">',
  '<style>body{display:none}</style>',
  '<form action="https://203.0.113.7/"><input name=q></form>',
  '<object data="x"></object>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
];
const linkTargets = [
  'javascript:alert(1)',
  'jav&#x61;script:alert(1)',
  '&#106;avascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'java\\script:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  '//203.0.113.7/x',
  '/relative',
  'https:evil.example',
  '\u0001javascript:alert(1)',
  'https://example.com/ok',
  'mailto:a@example.com',
];
const fragment = fc.oneof(
  fc.constantFrom(...hostileTags),
  fc.constantFrom(...linkTargets).chain((target) => fc.constantFrom(`[x](${target})`, `<${target}>`, `![x](${target})`, `[x](<${target}>)`, `[r]\n\n[r]: ${target}`)),
  fc.constantFrom('*', '**', '_', '~~', '`', '```', '[', ']', '(', ')', '!', '<', '>', '&', '#', '- ', '1. ', '|', '\\', '\n', '\n\n', '    ', '&lt;', '&#0;', '&#x110000;', '---', '> '),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const hostileDocument = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

describe('Markdown from a hostile model', () => {
  it('never leaves an element, attribute or link target outside the allow-list', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileDocument, { minLength: 20, maxLength: 20 }), async (sources) => {
        for (const inventory of await page.inventory(sources)) expectInert(inventory);
      }),
      { numRuns: 60 },
    );
  });

  it('shows raw HTML as the characters the model wrote', async () => {
    const document = fc.array(fc.oneof(fc.constantFrom(...hostileTags), fc.constantFrom('text', 'more words', '**bold**', '*em*')), { minLength: 1, maxLength: 8 });
    const separator = fc.constantFrom(' ', '\n', '\n\n', '\n- ', '\n> ');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(document, separator), { minLength: 10, maxLength: 10 }), async (cases) => {
        const sources = cases.map(([parts, glue]) => parts.join(glue));
        const inventories = await page.inventory(sources);
        inventories.forEach((inventory, index) => {
          expectInert(inventory);
          for (const tag of hostileTags) if (sources[index]!.includes(tag)) expect(inventory.text).toContain(tag);
        });
      }),
      { numRuns: 30 },
    );
  });

  it('leaves a link without its href unless the target is absolute http(s) or mailto, however it is spelled', async () => {
    const unsafe = linkTargets.filter((target) => !/^(?:https:\/\/|mailto:)/.test(target));
    const sources = unsafe.flatMap((target) => [`[click](${target})`, `[click](<${target}>)`, `[click][r]\n\n[r]: ${target}`]);
    const inventories = await page.inventory(sources);
    inventories.forEach((inventory, index) => {
      expect({ source: sources[index], hrefs: inventory.hrefs }).toEqual({ source: sources[index], hrefs: [] });
      expect(inventory.text).toContain('click');
    });
    const [safe] = await page.inventory(['[docs](https://example.com/a) <mailto:a@example.com> https://example.org']);
    expect(safe!.hrefs).toEqual(['https://example.com/a', 'mailto:a@example.com', 'https://example.org']);
  });

  it('renders images as their alt text and task boxes as characters, never as <img> or <input>', async () => {
    const [inventory] = await page.inventory(['![diagram](https://203.0.113.7/x.png) ![](https://203.0.113.7/y.png)\n\n- [ ] open\n- [x] done']);
    expect(inventory!.tags).toEqual(['p', 'span', 'ul', 'li', 'li']);
    expect(inventory!.text).toContain('diagram');
    expect(inventory!.text).toContain('☐ open');
    expect(inventory!.text).toContain('☑ done');
  });

  it('renders huge and deeply nested input without exhausting the stack, nesting capped', async () => {
    const size = 100_000;
    const repeat = (unit: string): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const nestedList = Array.from({ length: 2_000 }, (_, depth) => `${' '.repeat(depth * 2)}- item`).join('\n');
    const sources = [
      repeat('>'),
      repeat('> '),
      nestedList,
      repeat('*a'),
      repeat('**a '),
      repeat('_a'),
      repeat('['),
      repeat('[a](b'),
      repeat('[](a'),
      repeat('![a'),
      repeat('`'),
      repeat('` ``'),
      repeat('<a '),
      repeat('<!--'),
      repeat('&#'),
      repeat('~~a'),
      repeat('https://a.b/'),
      repeat('a@b.c '),
      repeat('|'),
      `| ${repeat('a |')}\n| ${repeat('- |')}`,
      repeat('- '),
      repeat('1. '),
      repeat('\\'),
      repeat('  \n'),
      repeat('*'.repeat(1000) + 'a' + '*'.repeat(999) + ' '),
    ];
    for (const source of sources) {
      const [inventory] = await page.inventory([source]);
      expectInert(inventory!);
      // The allow-list pass flattens anything deeper (markdown-allow-list.ts maxDepth).
      expect(inventory!.depth).toBeLessThanOrEqual(64);
    }
  });
});

describe('Markdown built to make the renderer slow (work linear in the input)', () => {
  // These inputs took time quadratic in their length before the fix (measured in Node on the old
  // renderer: 100 KB of each took 0.75–8.5 s, so these sizes take well over this file's 20 s test
  // timeout, while the fixed renderer takes milliseconds). The tests have no timing threshold of
  // their own: a regression shows as a test timing out. The output is checked too.
  const spaces = ' '.repeat(200_000);

  it('reads a heading whose text is followed by a long run of spaces and then more text', async () => {
    const sources = [`# a${spaces}x`, `## a${'\t'.repeat(200_000)}b ##`];
    const inventories = await page.inventory(sources);
    expect(inventories.map((inventory) => inventory.tags)).toEqual([['h1'], ['h2']]);
    expect(inventories[1]!.text.endsWith('b')).toBe(true);
  });

  it('reads a would-be table delimiter row with a long run of spaces before a stray character', async () => {
    const longer = spaces.repeat(3);
    const sources = [`a|b\n-${longer}x`, `a|b\n|-|-${longer}x`];
    for (const inventory of await page.inventory(sources)) expect(inventory.tags).not.toContain('table');
  });

  it('trims a bare URL ending in a long run of punctuation', async () => {
    const inventories = await page.inventory([`https://a${'.'.repeat(300_000)}`, `see www.a.example${'?!'.repeat(150_000)}`]);
    expect(inventories.map((inventory) => inventory.hrefs)).toEqual([['https://a'], ['http://www.a.example']]);
  });

  it('ends a bare URL at 4,096 characters (the rest is text), like a link destination', async () => {
    const [long] = await page.inventory([`https://a.example/${'b'.repeat(10_000)}`]);
    expect(long!.hrefs).toHaveLength(1);
    expect(long!.hrefs[0]!.length).toBeLessThanOrEqual(4_096 + 'https://a.example/'.length);
    expect(long!.text).toContain('b'.repeat(5_000));
  });

  it('does not rescan the rest of a word at every www. inside it', async () => {
    const [inventory] = await page.inventory(['xwww.a'.repeat(100_000)]);
    expect(inventory!.hrefs).toEqual([]);
    expect(inventory!.text).toHaveLength(600_000);
  });

  it('caps tables at 128 columns: a wider header is paragraph text, not a table padded cell by cell', async () => {
    const table = (columns: number, rows: number): string => `|${'a|'.repeat(columns)}\n|${'-|'.repeat(columns)}\n${'x\n'.repeat(rows)}`;
    const [atCap, overCap, hostile] = await page.inventory([table(128, 2), table(129, 2), table(10_000, 5_000)]);
    expect(atCap!.tags.filter((tag) => tag === 'th')).toHaveLength(128);
    expect(atCap!.tags.filter((tag) => tag === 'td')).toHaveLength(2 * 128);
    for (const inventory of [overCap!, hostile!]) {
      expect(inventory.tags).not.toContain('table');
      expect(inventory.tags).not.toContain('td');
    }
  });
});

describe('the allow-list pass alone (layer 2, whatever layer 1 made)', () => {
  it('removes elements, handlers and link targets outside the allow-list and keeps their text', async () => {
    const result = await page.allowListOnly(
      [
        '<p onclick="x()" class="c" style="color:red" data-x="1" id="i">para <script>alert(1)</script><img src=x onerror=alert(1)>',
        '<a href="javascript:alert(1)" title="t">js</a> <a href="https://ok.example/" onclick="x()">ok</a> <a href="/rel">rel</a>',
        '<ol start="3" type="a"><li>three</li></ol><ol start="x"><li>bad start</li></ol>',
        '<table><tbody><tr><td align="right">r</td><td align="javascript:x" background="https://203.0.113.7/">bad</td></tr></tbody></table>',
        '<svg><a href="https://ok.example/">svg link</a></svg><!-- comment --><iframe src="https://203.0.113.7/"></iframe></p>',
      ].join(''),
    );
    expectInert(result.inventory);
    expect(result.inventory.tags).not.toContain('#comment');
    expect(result.normalised).toBe(
      [
        '<p>para alert(1)',
        '<a title="t">js</a> <a href="https://ok.example/" referrerpolicy="no-referrer" rel="noopener noreferrer nofollow" target="_blank" title="https://ok.example/">ok</a> <a>rel</a>',
        '</p><ol start="3"><li>three</li></ol><ol><li>bad start</li></ol>',
        '<table><tbody><tr><td align="right">r</td><td>bad</td></tr></tbody></table>',
        'svg link<p></p>',
      ].join(''),
    );
  });
});
