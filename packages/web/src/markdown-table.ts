// GFM tables as block data: a header row, a delimiter row that sets each column's alignment, and
// body rows until a blank line or another block. The cells' text is parsed as inline Markdown later.
import type { Alignment, Block } from './markdown-blocks.js';

/**
 * Most columns a table may have; a wider header is not a table (its lines are shown as paragraph
 * text). Plans use a handful of columns.
 */
export const maxTableColumns = 128;

const tableDelimiterRow = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*(?:\|[ \t]*)?$/;

export function startsTable(line: string, next: string | undefined): boolean {
  if (next === undefined || !line.includes('|') || !tableDelimiterRow.test(next)) return false;
  const columns = splitRow(line).length;
  return columns <= maxTableColumns && columns === splitRow(next).length;
}

/**
 * The table whose header is `lines[start]`; `endsTable` says whether a line starts another block.
 *
 * Short rows are padded with empty cells to the header's width (as GFM does), but a table adds at
 * most one empty cell per character of its own source: past that allowance a short row keeps only
 * the cells it wrote. Without the bound a 128-column header over 12,000 one-character rows (25 KB)
 * would make 1.5 million cells; with it a table's cells never outnumber twice its characters, and
 * every table a model writes (rows with a cell or more each) is padded in full.
 */
export function parseTable(lines: readonly string[], start: number, endsTable: (line: string) => boolean): { block: Block; end: number } {
  const head = splitRow(lines[start]!);
  const align = splitRow(lines[start + 1]!).map((cell): Alignment => {
    const left = cell.startsWith(':');
    const right = cell.endsWith(':');
    return left && right ? 'center' : left ? 'left' : right ? 'right' : undefined;
  });
  let allowance = lines[start]!.length + lines[start + 1]!.length + 2;
  const written: string[][] = [];
  let end = start + 2;
  while (end < lines.length && !/^[ \t]*$/.test(lines[end]!) && !endsTable(lines[end]!)) {
    // Cells past the header's width are dropped.
    written.push(splitRow(lines[end]!).slice(0, head.length));
    allowance += lines[end]!.length + 1;
    end += 1;
  }
  const rows = written.map((cells) => {
    const padding = head.length - cells.length;
    if (padding > allowance) return cells;
    allowance -= padding;
    return cells.concat(Array<string>(padding).fill(''));
  });
  return { block: { kind: 'table', align, head, rows }, end };
}

/** Cells of a table row: outer pipes optional, `\|` is a literal pipe inside a cell. */
function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let index = 0; index < row.length; index += 1) {
    const char = row[index]!;
    if (char === '\\' && row[index + 1] === '|') {
      cell += '|';
      index += 1;
    } else if (char === '|') {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += char;
    }
  }
  cells.push(cell.trim());
  return cells;
}
