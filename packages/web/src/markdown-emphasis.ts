// Emphasis, strong and strikethrough by CommonMark's delimiter algorithm. A run of * _ ~ is first a
// Text node on a stack; when a run that can close meets one that can open, the nodes between them
// move into <em>/<strong>/<del>. Nothing recurses on the input's nesting, and the work is linear:
// each pass starts just above its bottom (never walking the stack from its top), and a closer that
// found no opener raises, for its kind, the floor later closers of that kind search down to.
// Emphasis nests at most `maxEmphasisDepth` deep: moving a subtree into a new element costs the
// browser a step per element inside it, so `****…a****…` nesting thousands deep would cost the
// square of its length (and the allow-list pass flattens anything that deep anyway). How deep the
// nodes after each delimiter go is kept on the delimiter, so a match knows without walking them.

interface Delimiter {
  node: Text;
  char: string;
  /** Characters of the run still unmatched (its Text node is cut to match when it leaves the stack). */
  count: number;
  readonly originalCount: number;
  canOpen: boolean;
  canClose: boolean;
  previous: Delimiter | undefined;
  next: Delimiter | undefined;
  /** Inline depth of the deepest node between this run and the next delimiter's (or the end). */
  depthAfter: number;
}

/** A place in the stack: delimiters above it are processed, it and those below are not. */
export type DelimiterMark = Delimiter | undefined;

/**
 * Emphasis elements nested deeper than this are not made: the runs still pair (their characters
 * go), the text stays where it is. Models nest two or three; with the block nesting cap (16 quotes
 * or lists) the whole tree stays within the allow-list's depth of 64.
 */
export const maxEmphasisDepth = 16;

// How many inline elements deep each element the inline parser made is (text: 0, others: 1).
const depths = new WeakMap<Node, number>();

export function depthOf(node: Node): number {
  return depths.get(node) ?? (node.nodeType === Node.ELEMENT_NODE ? 1 : 0);
}

/** Record `element` as holding `children` (which the caller moves into it anyway): one deeper than the deepest. */
export function recordDepth(element: Node, children: Iterable<Node>): void {
  let deepest = 0;
  for (const child of children) deepest = Math.max(deepest, depthOf(child));
  depths.set(element, deepest + 1);
}

const punctuation = /[\p{P}\p{S}]/u;
const whitespace = /\s/u;

export class DelimiterStack {
  /** The top of the stack: a link's text is processed down to the top when its `[` opened. */
  top: DelimiterMark;

  constructor(private readonly document: Document) {}

  /**
   * The run `source[start, end)` of one of * _ ~, already appended as `node`: pushed when it can
   * open or close (flanking as CommonMark defines it; intraword `_` does neither).
   */
  push(node: Text, source: string, start: number, end: number): void {
    const char = source[start]!;
    const count = end - start;
    if (char === '~' && count > 2) return;
    const before = start === 0 ? '\n' : source[start - 1]!;
    const after = end >= source.length ? '\n' : source[end]!;
    const afterSpace = whitespace.test(after);
    const beforeSpace = whitespace.test(before);
    const afterPunct = punctuation.test(after);
    const beforePunct = punctuation.test(before);
    const leftFlanking = !afterSpace && (!afterPunct || beforeSpace || beforePunct);
    const rightFlanking = !beforeSpace && (!beforePunct || afterSpace || afterPunct);
    let canOpen = leftFlanking;
    let canClose = rightFlanking;
    if (char === '_') {
      // Intraword underscores are text (snake_case stays as written).
      canOpen = leftFlanking && (!rightFlanking || beforePunct);
      canClose = rightFlanking && (!leftFlanking || afterPunct);
    }
    const delimiter: Delimiter = { node, char, count, originalCount: count, canOpen, canClose, previous: this.top, next: undefined, depthAfter: 0 };
    if (this.top) this.top.next = delimiter;
    this.top = delimiter;
  }

  /** `node` was appended to the parent, after every delimiter's node. */
  appended(node: Node): void {
    if (this.top) this.top.depthAfter = Math.max(this.top.depthAfter, depthOf(node));
  }

  /** Drop every delimiter above `bottom` without processing them (an image's text is not shown). */
  discardAbove(bottom: DelimiterMark): void {
    while (this.top && this.top !== bottom) this.remove(this.top);
  }

  /** CommonMark's "process emphasis" for the delimiters above `bottom`; they are gone afterwards. */
  process(bottom: DelimiterMark): void {
    // Start just above the bottom. Without a bottom, walk down to the first delimiter: all of them
    // are removed below, so that walk is paid for once.
    let closer = bottom ? bottom.next : this.top;
    if (!bottom) while (closer?.previous) closer = closer.previous;
    const openersBottom = new Map<string, DelimiterMark>();
    while (closer) {
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const key = `${closer.char}${closer.canOpen ? 1 : 0}${closer.originalCount % 3}`;
      const floor = openersBottom.has(key) ? openersBottom.get(key) : bottom;
      const opener = this.findOpener(closer, bottom, floor);
      if (!opener) {
        openersBottom.set(key, closer.previous);
        const next = closer.next;
        if (!closer.canOpen) this.remove(closer);
        closer = next;
        continue;
      }
      closer = this.match(opener, closer);
    }
    this.discardAbove(bottom);
  }

  private findOpener(closer: Delimiter, bottom: DelimiterMark, floor: DelimiterMark): Delimiter | undefined {
    for (let opener = closer.previous; opener && opener !== bottom && opener !== floor; opener = opener.previous) {
      if (opener.char !== closer.char || !opener.canOpen) continue;
      // The rule of three: a run that can both open and close pairs only when the lengths allow it.
      const oddMatch = closer.char !== '~' && (closer.canOpen || opener.canClose) && closer.originalCount % 3 !== 0 && (opener.originalCount + closer.originalCount) % 3 === 0;
      // Strikethrough pairs only runs of the same length (~x~ or ~~x~~).
      const tildeMismatch = closer.char === '~' && opener.count !== closer.count;
      if (!oddMatch && !tildeMismatch) return opener;
    }
    return undefined;
  }

  /** Wrap what lies between `opener` and `closer`; returns the closer to continue from. */
  private match(opener: Delimiter, closer: Delimiter): Delimiter | undefined {
    const used = closer.char === '~' ? closer.count : closer.count >= 2 && opener.count >= 2 ? 2 : 1;
    const tag = closer.char === '~' ? 'del' : used === 2 ? 'strong' : 'em';
    opener.count -= used;
    closer.count -= used;
    // Delimiters between the two are inside the element now: they can no longer match. Removing
    // them leaves the opener knowing the depth of everything up to the closer.
    for (let between = closer.previous; between && between !== opener; ) {
      const previous = between.previous;
      this.remove(between);
      between = previous;
    }
    const depth = opener.depthAfter + 1;
    // Too deep: the runs still pair (their characters go), the text stays where it is.
    if (depth <= maxEmphasisDepth) {
      const wrapper = this.document.createElement(tag);
      for (let node = opener.node.nextSibling; node && node !== closer.node; ) {
        const next = node.nextSibling;
        wrapper.appendChild(node);
        node = next;
      }
      opener.node.after(wrapper);
      depths.set(wrapper, depth);
      opener.depthAfter = depth;
    }
    if (opener.count === 0) {
      opener.node.remove();
      this.remove(opener);
    }
    if (closer.count > 0) return closer;
    const next = closer.next;
    closer.node.remove();
    this.remove(closer);
    return next;
  }

  /** Take a delimiter off the stack; its text, if any is left, and what follows join the one below. */
  private remove(delimiter: Delimiter): void {
    // The run's text is shortened once, here: a run of thousands pairing two characters at a time
    // would otherwise copy its text at every pair.
    if (delimiter.node.length !== delimiter.count) delimiter.node.data = delimiter.node.data.slice(0, delimiter.count);
    if (delimiter.previous) {
      delimiter.previous.next = delimiter.next;
      delimiter.previous.depthAfter = Math.max(delimiter.previous.depthAfter, delimiter.depthAfter);
    }
    if (delimiter.next) delimiter.next.previous = delimiter.previous;
    else this.top = delimiter.previous;
  }
}
