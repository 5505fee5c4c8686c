// Forward searches in inline Markdown that never rescan. The inline parser asks "where is the next
// `-->`, `)`, closing quote, space…" from many positions of one paragraph; a plain indexOf from each
// would read the same tail again and again (`<!--<!--<!--…` reads the rest of the input at every
// `<!--`). Each search here remembers its last answer: no match lies between where it started and
// what it found (or the end, when nothing was found), so a later search from inside that stretch is
// answered without reading it again. The parser asks from left to right, so every character is read
// a bounded number of times per search.

/** The next match of one pattern at or after a position, remembered (see above). */
export class ForwardSearch {
  private readonly pattern: RegExp;
  private from = Number.POSITIVE_INFINITY;
  private found = -1;

  constructor(
    private readonly source: string,
    pattern: RegExp,
    /** Whether the match at an index counts (an escaped quote does not); a rejected one is skipped. */
    private readonly accept: (index: number) => boolean = () => true,
  ) {
    this.pattern = new RegExp(pattern.source, `${pattern.flags.replace(/[gy]/g, '')}g`);
  }

  /** Index of the next accepted match at or after `from`, or -1 when there is none. */
  next(from: number): number {
    if (from >= this.from && (this.found === -1 || from <= this.found)) return this.found;
    this.from = from;
    this.pattern.lastIndex = from;
    for (let match = this.pattern.exec(this.source); match; match = this.pattern.exec(this.source)) {
      if (this.accept(match.index)) return (this.found = match.index);
      // An empty match would not move lastIndex; none of our patterns match empty, but never loop.
      if (match[0] === '') this.pattern.lastIndex += 1;
    }
    return (this.found = -1);
  }
}

/** Whether the character at `index` is backslash-escaped: an odd run of backslashes stands before it. */
export function isEscaped(source: string, index: number): boolean {
  let backslashes = 0;
  while (source[index - 1 - backslashes] === '\\') backslashes += 1;
  return backslashes % 2 === 1;
}

/** Searches of one source, each made when first needed. */
export class SourceSearches {
  private readonly searches = new Map<string, ForwardSearch>();

  constructor(readonly source: string) {}

  /** The next occurrence of `text` at or after `from`, or -1. */
  indexOf(text: string, from: number): number {
    return this.search(`text:${text}`, () => new RegExp(text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'))).next(from);
  }

  /** The next `char` at or after `from` that is not backslash-escaped, or -1. */
  unescaped(char: string, from: number): number {
    return this.search(`unescaped:${char}`, () => new RegExp(`\\${char}`), (index) => !isEscaped(this.source, index)).next(from);
  }

  /** The next match of `pattern` (by its source text) at or after `from`, or -1. */
  match(pattern: RegExp, from: number): number {
    return this.search(`pattern:${pattern.source}`, () => pattern).next(from);
  }

  private search(key: string, pattern: () => RegExp, accept?: (index: number) => boolean): ForwardSearch {
    let search = this.searches.get(key);
    if (!search) {
      search = new ForwardSearch(this.source, pattern(), accept);
      this.searches.set(key, search);
    }
    return search;
  }
}
