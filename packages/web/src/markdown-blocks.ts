// Block structure of Markdown (the GFM subset plans written by models use), as plain data: no DOM,
// no HTML. Each block keeps its inline text as a string; markdown-inline.ts turns that into nodes.
// Containers (quotes, list items) collect their lines, strip their markers and parse the inside
// again, so nesting is bounded by `maxNesting` rather than by the stack. Tables: markdown-table.ts.
import { parseTable, startsTable } from './markdown-table.js';

export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'code'; text: string }
  /** Raw HTML the model wrote: shown as the text it is, never parsed. */
  | { kind: 'html'; text: string }
  | { kind: 'quote'; children: Block[] }
  | { kind: 'list'; ordered: boolean; start: number; loose: boolean; items: ListItem[] }
  | { kind: 'rule' }
  | { kind: 'table'; align: Alignment[]; head: string[]; rows: string[][] };

export type Alignment = 'left' | 'center' | 'right' | undefined;

export interface ListItem {
  /** undefined: not a task item; otherwise whether its box is ticked. */
  task: boolean | undefined;
  children: Block[];
}

/** `[label]: destination "title"` lines, used by reference links. Keys are normalised labels. */
export type LinkDefinitions = Map<string, { href: string; title: string | undefined }>;

/**
 * Quotes and lists nested deeper than this are not opened: the rest is shown as paragraph text.
 * Model plans rarely nest beyond 4; hostile input cannot make parsing recurse without bound.
 */
export const maxNesting = 16;

export function parseBlocks(source: string, definitions: LinkDefinitions): Block[] {
  // A final newline ends the last line; it does not start another (an unclosed fence keeps the rest).
  const text = source.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD').replace(/\n$/, '');
  // Leading tabs count as four columns each (as marked does), so indentation is plain spaces below.
  const lines = text.split('\n').map((line) => line.replace(/^( *)(\t+)/, (_, spaces: string, tabs: string) => spaces + '    '.repeat(tabs.length)));
  return parseLines(lines, 0, definitions);
}

const blankLine = /^[ \t]*$/;
// No two quantifiers over the same characters meet before an anchor in these patterns: such a pair
// backtracks quadratically on a long run of spaces that ends in something else ("# a", 60,000
// spaces, "x"). Trailing spaces and closing #s of a heading are cut in code (headingText).
const atxHeading = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const fenceOpen = /^( {0,3})(`{3,}(?=[^`]*$)|~{3,})/;
const thematicBreak = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const quoteMarker = /^ {0,3}> ?/;
const listMarker = /^( {0,3})([-+*]|(\d{1,9})([.)]))(?=[ \t]|$)( *)/;
const setextUnderline = /^ {0,3}(=+|-+)[ \t]*$/;
const definitionLine = /^ {0,3}\[((?:[^\\\[\]]|\\.){1,999})\]:[ \t]*(<[^<>\n]*>|\S+)(?:[ \t]+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?[ \t]*$/;

// HTML block starts (CommonMark's seven kinds, simplified): the first two end at a closing marker,
// the rest at a blank line. The last kind (any lone tag) may not interrupt a paragraph.
const htmlBlockTags =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const htmlBlockKinds: { start: RegExp; end: RegExp | undefined; interruptsParagraph: boolean }[] = [
  { start: /^ {0,3}<(?:script|pre|style|textarea)(?:[ \t>]|$)/i, end: /<\/(?:script|pre|style|textarea)>/i, interruptsParagraph: true },
  { start: /^ {0,3}<!--/, end: /-->/, interruptsParagraph: true },
  { start: /^ {0,3}<\?/, end: /\?>/, interruptsParagraph: true },
  { start: /^ {0,3}<![A-Za-z]/, end: />/, interruptsParagraph: true },
  { start: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/, interruptsParagraph: true },
  { start: new RegExp(`^ {0,3}</?(?:${htmlBlockTags})(?:[ \\t>]|/>|$)`, 'i'), end: undefined, interruptsParagraph: true },
  {
    start: /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][\w.:-]*(?:[ \t]*=[ \t]*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$/,
    end: undefined,
    interruptsParagraph: false,
  },
];

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function isListStart(line: string, interruptingParagraph: boolean): boolean {
  const marker = listMarker.exec(line);
  if (!marker) return false;
  if (!interruptingParagraph) return true;
  // Inside a paragraph only a non-empty item may start a list, and an ordered one only at 1.
  const rest = line.slice(marker[0].length);
  return !blankLine.test(rest) && (marker[3] === undefined || marker[3] === '1');
}

/** Whether `line` ends a paragraph (it starts a block that may interrupt one). */
function interruptsParagraph(line: string, next: string | undefined): boolean {
  return (
    atxHeading.test(line) ||
    fenceOpen.test(line) ||
    quoteMarker.test(line) ||
    thematicBreak.test(line) ||
    isListStart(line, true) ||
    htmlBlockKinds.some((kind) => kind.interruptsParagraph && kind.start.test(line)) ||
    startsTable(line, next)
  );
}

function isSpaceOrTab(char: string | undefined): boolean {
  return char === ' ' || char === '\t';
}

/** A heading's text without trailing spaces and without a closing run of #s (after a space, or alone), scanned once from the end. */
function headingText(raw: string): string {
  let end = raw.length;
  while (end > 0 && isSpaceOrTab(raw[end - 1])) end -= 1;
  let hashes = end;
  while (hashes > 0 && raw[hashes - 1] === '#') hashes -= 1;
  if (hashes < end && (hashes === 0 || isSpaceOrTab(raw[hashes - 1]))) end = hashes;
  return raw.slice(0, end).trim();
}

/** What parseLines saw besides its blocks: a list item with a blank line between blocks is loose. */
interface LinesReport {
  blankBetweenBlocks: boolean;
}

function parseLines(lines: string[], depth: number, definitions: LinkDefinitions, report?: LinesReport): Block[] {
  const blocks: Block[] = [];
  let index = 0;
  let afterBlank = false;
  while (index < lines.length) {
    const line = lines[index]!;
    if (blankLine.test(line)) {
      afterBlank = true;
      index += 1;
      continue;
    }
    if (afterBlank && blocks.length > 0 && report) report.blankBetweenBlocks = true;
    afterBlank = false;
    const next = lines[index + 1];

    if (indentOf(line) >= 4) {
      // Indented code: until a non-blank line indented less; trailing blank lines are not code.
      let end = index;
      const body: string[] = [];
      while (end < lines.length && (blankLine.test(lines[end]!) || indentOf(lines[end]!) >= 4)) {
        body.push(lines[end]!.slice(4));
        end += 1;
      }
      // Trailing blank lines are left for the caller to see (they may make a list loose).
      while (body.length > 0 && blankLine.test(body[body.length - 1]!)) {
        body.pop();
        end -= 1;
      }
      blocks.push({ kind: 'code', text: body.join('\n') });
      index = end;
      continue;
    }

    const fence = fenceOpen.exec(line);
    if (fence) {
      const indent = fence[1]!.length;
      const marker = fence[2]!;
      const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
      const body: string[] = [];
      let end = index + 1;
      while (end < lines.length && !closing.test(lines[end]!)) {
        // Content loses as much indentation as the opening fence had.
        body.push(lines[end]!.replace(new RegExp(`^ {0,${indent}}`), ''));
        end += 1;
      }
      blocks.push({ kind: 'code', text: body.join('\n') });
      index = end + 1;
      continue;
    }

    const heading = atxHeading.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: headingText(heading[2] ?? '') });
      index += 1;
      continue;
    }

    if (thematicBreak.test(line)) {
      blocks.push({ kind: 'rule' });
      index += 1;
      continue;
    }

    const htmlKind = htmlBlockKinds.find((kind) => kind.start.test(line));
    if (htmlKind) {
      let end = index;
      if (htmlKind.end) {
        while (end < lines.length && !htmlKind.end.test(lines[end]!)) end += 1;
        end = Math.min(end + 1, lines.length);
      } else {
        while (end < lines.length && !blankLine.test(lines[end]!)) end += 1;
      }
      blocks.push({ kind: 'html', text: lines.slice(index, end).join('\n') });
      index = end;
      continue;
    }

    if (depth < maxNesting && quoteMarker.test(line)) {
      index = parseQuote(lines, index, depth, definitions, blocks);
      continue;
    }

    if (depth < maxNesting && isListStart(line, false)) {
      index = parseList(lines, index, depth, definitions, blocks);
      continue;
    }

    if (startsTable(line, next)) {
      const table = parseTable(lines, index, (row) => interruptsParagraph(row, undefined));
      blocks.push(table.block);
      index = table.end;
      continue;
    }

    index = parseParagraph(lines, index, definitions, blocks);
  }
  return blocks;
}

function parseParagraph(lines: string[], start: number, definitions: LinkDefinitions, blocks: Block[]): number {
  let index = start;
  // Link reference definitions may open a paragraph; they render as nothing.
  while (index < lines.length) {
    const definition = definitionLine.exec(lines[index]!);
    if (!definition) break;
    const label = normaliseLabel(definition[1]!);
    let href = definition[2]!;
    if (href.startsWith('<')) href = href.slice(1, -1);
    const title = definition[3]?.slice(1, -1);
    if (label !== '' && !definitions.has(label)) definitions.set(label, { href, title });
    index += 1;
  }
  const body: string[] = [];
  while (index < lines.length) {
    const line = lines[index]!;
    if (blankLine.test(line)) break;
    if (body.length > 0) {
      if (setextUnderline.test(line)) {
        const level = line.trim().startsWith('=') ? 1 : 2;
        blocks.push({ kind: 'heading', level, text: body.join('\n').trim() });
        return index + 1;
      }
      if (interruptsParagraph(line, lines[index + 1])) break;
    }
    body.push(line.trimStart());
    index += 1;
  }
  if (body.length > 0) blocks.push({ kind: 'paragraph', text: body.join('\n').trim() });
  return index;
}

/** Lines that continue a paragraph lazily (without their container's marker or indentation). */
function isLazyContinuation(line: string, previousInner: string | undefined): boolean {
  if (previousInner === undefined || blankLine.test(previousInner) || blankLine.test(line)) return false;
  // Only paragraph text continues lazily; code, headings and fences do not.
  if (indentOf(previousInner) >= 4 || fenceOpen.test(previousInner) || atxHeading.test(previousInner) || thematicBreak.test(previousInner)) return false;
  // Nor does an empty item or quote (a bare marker): there is no paragraph to continue.
  const marker = listMarker.exec(previousInner) ?? quoteMarker.exec(previousInner);
  if (marker && blankLine.test(previousInner.slice(marker[0].length))) return false;
  return !interruptsParagraph(line, undefined) && !setextUnderline.test(line);
}

function parseQuote(lines: string[], start: number, depth: number, definitions: LinkDefinitions, blocks: Block[]): number {
  const inner: string[] = [];
  let index = start;
  while (index < lines.length) {
    const line = lines[index]!;
    const marker = quoteMarker.exec(line);
    if (marker) inner.push(line.slice(marker[0].length));
    else if (isLazyContinuation(line, inner[inner.length - 1])) inner.push(line);
    else break;
    index += 1;
  }
  blocks.push({ kind: 'quote', children: parseLines(inner, depth + 1, definitions) });
  return index;
}

function parseList(lines: string[], start: number, depth: number, definitions: LinkDefinitions, blocks: Block[]): number {
  const first = listMarker.exec(lines[start]!)!;
  const ordered = first[3] !== undefined;
  // Items of one list share the bullet character or the ordered delimiter.
  const family = ordered ? first[4]! : first[2]!;
  const isSameListItem = (line: string | undefined): boolean => {
    const marker = line === undefined ? null : listMarker.exec(line);
    return marker !== null && (marker[3] !== undefined) === ordered && (ordered ? marker[4] : marker[2]) === family && !thematicBreak.test(line!);
  };
  const items: ListItem[] = [];
  let loose = false;
  let index = start;
  while (index < lines.length) {
    const marker = listMarker.exec(lines[index]!)!;
    const rest = lines[index]!.slice(marker[0].length);
    const markerWidth = marker[1]!.length + marker[2]!.length;
    // Content starts after the marker and its spaces; five or more spaces mean indented code.
    const spaces = marker[5]!.length;
    const contentIndent = blankLine.test(rest) ? markerWidth + 1 : spaces >= 5 ? markerWidth + 1 : markerWidth + Math.max(spaces, 1);
    const firstLine = blankLine.test(rest) ? '' : spaces >= 5 ? `${' '.repeat(spaces - 1)}${rest}` : rest;
    const inner = [firstLine];
    index += 1;
    // An item that starts blank holds at most that one blank line.
    const startsBlank = firstLine === '';
    while (index < lines.length) {
      const line = lines[index]!;
      if (blankLine.test(line)) {
        if (startsBlank && inner.length === 1) break;
        inner.push('');
      } else if (indentOf(line) >= contentIndent) {
        inner.push(line.slice(contentIndent));
      } else if (!listMarker.test(line) && isLazyContinuation(line, inner[inner.length - 1])) {
        inner.push(line.trimStart());
      } else {
        break;
      }
      index += 1;
    }
    let trailingBlanks = 0;
    while (inner.length > 1 && inner[inner.length - 1] === '') {
      inner.pop();
      trailingBlanks += 1;
    }
    let probe = index;
    while (probe < lines.length && blankLine.test(lines[probe]!)) probe += 1;
    const continues = isSameListItem(lines[probe]);
    // A blank line between two items makes the list loose; after the last item it belongs to what follows.
    if (!continues) {
      index -= trailingBlanks;
    } else {
      if (trailingBlanks > 0 || probe > index) loose = true;
      index = probe;
    }
    let task: boolean | undefined;
    const box = /^\[([ xX])\](?=[ \t])[ \t]*/.exec(inner[0]!);
    if (box && !blankLine.test(inner[0]!.slice(box[0].length))) {
      task = box[1] !== ' ';
      inner[0] = inner[0]!.slice(box[0].length);
    }
    // So does a blank line between two blocks of one item.
    const report: LinesReport = { blankBetweenBlocks: false };
    items.push({ task, children: parseLines(inner, depth + 1, definitions, report) });
    if (report.blankBetweenBlocks) loose = true;
    if (!continues) break;
  }
  blocks.push({ kind: 'list', ordered, start: ordered ? Number(first[3]) : 1, loose, items });
  return index;
}

/** Reference labels match case-insensitively (lower then upper case folds ß, ſ and the like) with runs of whitespace as one space. */
export function normaliseLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase().toUpperCase();
}
