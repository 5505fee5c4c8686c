// Forward searches in inline Markdown that never rescan. The inline parser asks "where is the next
// `-->`, `)`, closing quote, space…" from many positions of one paragraph; a plain indexOf from each
// would read the same tail again and again (`<!--<!--<!--…` reads the rest of the input at every
// `<!--`). Each search here remembers its last answer: no match lies between where it started and
// what it found (or the end, when nothing was found), so a later search from inside that stretch is
// answered without reading it again. The parser asks from left to right, so every character is read
// a bounded number of times per search.

/**
 * Searches of one source: `find(pattern, from)` is the index of the next match of `pattern` at or
 * after `from` (-1 when there is none), remembered per pattern as above. With `unescaped`, a match
 * preceded by an odd run of backslashes does not count.
 */
export type Searches = (pattern: RegExp, from: number, unescaped?: boolean) => number;

export function forwardSearches(source: string): Searches {
  const memory = new Map<string, { pattern: RegExp; from: number; found: number }>();
  return (pattern, from, unescaped = false) => {
    const key = `${unescaped}${pattern.source}`;
    let last = memory.get(key);
    if (!last) memory.set(key, (last = { pattern: new RegExp(pattern.source, 'g'), from: Infinity, found: -1 }));
    if (from >= last.from && (last.found < 0 || from <= last.found)) return last.found;
    last.from = from;
    last.pattern.lastIndex = from;
    for (let match = last.pattern.exec(source); match; match = last.pattern.exec(source)) {
      if (!unescaped || !isEscaped(source, match.index)) return (last.found = match.index);
    }
    return (last.found = -1);
  };
}

/** Whether the character at `index` is backslash-escaped: an odd run of backslashes stands before it. */
export function isEscaped(source: string, index: number): boolean {
  let backslashes = 0;
  while (source[index - 1 - backslashes] === '\\') backslashes += 1;
  return backslashes % 2 === 1;
}
