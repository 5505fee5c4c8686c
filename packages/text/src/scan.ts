// Splitting a person's reply into the parts that answer each question. A part may start with a key
// ("2:", "name:", "Framework：", "2." ), and a quoted value ("…" or “…”) is one piece of text even
// across line breaks and separators. Quotes count only where a value or a list item starts, so a
// stray quote mark inside ordinary text changes nothing.

/** A stretch of the reply between two boundaries, with the question its key names, if any. */
export interface ReplyPiece {
  key: number | undefined;
  /** The text after the key (or all of it when there is none). */
  text: string;
  /** What ended the previous piece: a line break or a semicolon ('' for the first piece). */
  boundary: string;
}

const quotePairs: Readonly<Record<string, string>> = { '"': '"', '“': '”' };
const listSeparators = new Set([',', '，', '、']);
const semicolons = new Set([';', '；']);

/** The index of the quote that closes the one opening at `start`, or -1. ASCII quotes escape as "". */
export function closingQuote(text: string, start: number): number {
  const close = quotePairs[text[start] ?? ''];
  if (close === undefined) return -1;
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] !== close) continue;
    if (close === '"' && text[i + 1] === '"') {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}

/** The literal text of a value that is exactly one quoted string, or undefined when it is not one. */
export function unquote(value: string): string | undefined {
  const end = closingQuote(value, 0);
  if (end < 0 || end !== value.length - 1) return undefined;
  const inner = value.slice(1, -1);
  return value[0] === '"' ? inner.replaceAll('""', '"') : inner;
}

/** `text` quoted so that the reply reader takes it literally. */
export function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

// "name:", "Project name：", but not across a line, a separator or a quote; at most 80 characters.
const namedKey = /^[ \t]*([^\n:：;；"“]{1,80}?)[ \t]*[:：]/;
// "2." "2)" "2、" followed by a space, the way people number lines (never "2.5").
const numberedKey = /^[ \t]*(\d{1,3})[.)、．）](?:[ \t]+|$)/;

/** The key at the start of `text` that names a question, and where the value after it starts. */
export function keyAt(
  text: string,
  keyOf: (candidate: string) => number | undefined,
  { numbered }: { numbered: boolean },
): { key: number; end: number } | undefined {
  const named = namedKey.exec(text);
  if (named) {
    const key = keyOf(named[1]!);
    if (key !== undefined) return { key, end: named[0].length };
  }
  if (!numbered) return undefined;
  // Only the head is folded (full-width digits and stops), and folding keeps its length, so the
  // match's end is an index into the original text too.
  const head = /^[ \t\d０-９.)、．）]*./su.exec(text)?.[0] ?? text;
  const counted = numberedKey.exec(head.normalize('NFKC'));
  if (counted) {
    const key = keyOf(counted[1]!);
    if (key !== undefined) return { key, end: counted[0].length };
  }
  return undefined;
}

/**
 * Cut `text` at line breaks (and at semicolons when `semicolonsSplit`) that lie outside quoted
 * values, noting for each piece the question its leading key names.
 */
export function scanReply(text: string, keyOf: (candidate: string) => number | undefined, { semicolonsSplit }: { semicolonsSplit: boolean }): ReplyPiece[] {
  const pieces: ReplyPiece[] = [];
  let start = 0;
  let boundary = '';
  for (;;) {
    const head = keyAt(text.slice(start), keyOf, { numbered: true });
    const valueStart = start + (head?.end ?? 0);
    let atValueStart = true;
    let i = valueStart;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\n' || (semicolonsSplit && semicolons.has(c))) break;
      if (atValueStart && (c === ' ' || c === '\t')) {
        i++;
        continue;
      }
      if (atValueStart && c in quotePairs) {
        const end = closingQuote(text, i);
        if (end >= 0) {
          i = end + 1;
          atValueStart = false;
          continue;
        }
      }
      atValueStart = listSeparators.has(c);
      i++;
    }
    pieces.push({ key: head?.key, text: text.slice(valueStart, i), boundary });
    if (i >= text.length) return pieces;
    boundary = text[i]!;
    start = i + 1;
  }
}

/** One item of a list in a reply: its text (trimmed) and where that text lies in the value. */
export interface ListPart {
  text: string;
  start: number;
  end: number;
}

/** Split one value into list items at commas outside quoted items ("1, 3", `React, "a, b"`). */
export function splitList(value: string): string[] {
  return listParts(value).map((part) => part.text);
}

/** The items of `value` as `splitList` cuts them, with their places, so neighbours can be joined again. */
export function listParts(value: string): ListPart[] {
  const parts: ListPart[] = [];
  const push = (from: number, to: number) => {
    const raw = value.slice(from, to);
    const text = raw.trim();
    if (text === '') return;
    const start = from + (raw.length - raw.trimStart().length);
    parts.push({ text, start, end: start + text.length });
  };
  let start = 0;
  let atItemStart = true;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (atItemStart && (c === ' ' || c === '\t' || c === '\n')) continue;
    if (atItemStart && c in quotePairs) {
      const end = closingQuote(value, i);
      if (end >= 0) {
        i = end;
        atItemStart = false;
        continue;
      }
    }
    atItemStart = false;
    if (listSeparators.has(c)) {
      push(start, i);
      start = i + 1;
      atItemStart = true;
    }
  }
  push(start, value.length);
  return parts;
}

/** How many list separators (`,` `，` `、`) `text` holds, before and after width folding. */
export function listSeparatorCount(text: string): number {
  const count = (s: string) => [...s].filter((c) => listSeparators.has(c)).length;
  return Math.max(count(text), count(text.normalize('NFKC')));
}
