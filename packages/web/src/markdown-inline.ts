// Inline Markdown (emphasis, code, links, autolinks, breaks) straight into DOM nodes. Text only ever
// becomes a Text node: raw HTML, entities and escapes are characters, never markup. This file reads
// the paragraph once, left to right, and hands each construct to the room that knows it:
// markdown-emphasis.ts (delimiter runs), markdown-link-target.ts (what follows a `]`),
// markdown-autolink.ts, markdown-raw-html.ts. Nothing recurses on the input's nesting, and nothing
// reads the rest of the input again from a later position: pending text is a list of pieces joined
// once, forward searches are remembered (markdown-scan.ts), and brackets carry what a later `]`
// needs to know about them.
import type { LinkDefinitions } from './markdown-blocks.js';
import { angleAutolinkAt, bareAutolinkAt } from './markdown-autolink.js';
import { DelimiterStack, recordDepth, type DelimiterMark } from './markdown-emphasis.js';
import { decodeEntity } from './markdown-entities.js';
import { cleanDestination, linkTarget, parenIndex, type ParenIndex, type TargetContext } from './markdown-link-target.js';
import { rawHtmlEnd } from './markdown-raw-html.js';
import { forwardSearches } from './markdown-scan.js';

interface Bracket {
  node: Text;
  image: boolean;
  /** Where the bracket's text starts in the source (after `[` or `![`). */
  textStart: number;
  /** The delimiter stack below the bracket: emphasis inside link text is processed down to it. */
  delimiterBefore: DelimiterMark;
  /** Whether another bracket opened or closed inside it: its text is then no reference label. */
  holdsBracket: boolean;
}

/** An image shown as its alt text; the text is set at the end, once it is known to be shown. */
interface PendingImage {
  node: Text;
  start: number;
  end: number;
}

const asciiPunctuation = /[!-/:-@[-`{-~]/;
const entity = /&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/y;
/** Characters an autolink literal can start with (a scheme, `www.` or an address's local part). */
const autolinkStart = /[A-Za-z0-9._+-]/;

/** Append the inline content of `source` to `parent`. */
export function appendInlines(parent: Node, source: string, definitions: LinkDefinitions): void {
  new InlineParser(parent, source, definitions).run();
}

class InlineParser {
  private readonly document: Document;
  /** Text not yet in a node, as pieces: joined once when a node is made, never read back. */
  private pending: string[] = [];
  private readonly delimiters: DelimiterStack;
  private readonly brackets: Bracket[] = [];
  /** Brackets below this index (links only, not images) are inactive: links do not nest. */
  private inactiveBelow = 0;
  private readonly images: PendingImage[] = [];
  private readonly target: TargetContext;
  /** Positions of backtick runs by length, so finding a closing run never rescans. */
  private backtickRuns: Map<number, number[]> | undefined;
  private readonly backtickCursor = new Map<number, number>();

  constructor(
    private readonly parent: Node,
    private readonly source: string,
    definitions: LinkDefinitions,
  ) {
    this.document = parent.ownerDocument ?? (parent as Document);
    this.delimiters = new DelimiterStack(this.document);
    let parens: ParenIndex | undefined;
    this.target = { source, find: forwardSearches(source), parens: () => (parens ??= parenIndex(source)), definitions };
  }

  run(): void {
    const source = this.source;
    let index = 0;
    while (index < source.length) {
      const char = source[index]!;
      switch (char) {
        case '\\':
          index = this.backslash(index);
          break;
        case '`':
          index = this.codeSpan(index);
          break;
        case '*':
        case '_':
        case '~':
          index = this.delimiterRun(index);
          break;
        case '[':
          this.openBracket(index, false);
          index += 1;
          break;
        case '!':
          if (source[index + 1] === '[') {
            this.openBracket(index, true);
            index += 2;
          } else {
            this.pending.push(char);
            index += 1;
          }
          break;
        case ']':
          index = this.closeBracket(index);
          break;
        case '<':
          index = this.angle(index);
          break;
        case '&':
          index = this.entity(index);
          break;
        case '\n':
          index = this.lineBreak(index);
          break;
        default:
          index = this.plain(index);
      }
    }
    this.flush();
    this.delimiters.process(undefined);
    // Only images no outer image swallowed are left: their sources do not overlap.
    for (const image of this.images) image.node.data = source.slice(image.start, image.end);
  }

  // ── text ────────────────────────────────────────────────────────────────────

  private flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    if (text !== '') this.parent.appendChild(this.document.createTextNode(text));
  }

  private textNode(value: string): Text {
    this.flush();
    const node = this.document.createTextNode(value);
    this.parent.appendChild(node);
    return node;
  }

  private element(tag: string): HTMLElement {
    this.flush();
    return this.document.createElement(tag);
  }

  /** One plain character, or a bare autolink (URL or e-mail address) that starts here. */
  private plain(start: number): number {
    const char = this.source[start]!;
    const link = autolinkStart.test(char) ? bareAutolinkAt(this.source, start, this.brackets.length > 0) : undefined;
    if (link) {
      this.appendLink(link.href, link.text);
      return link.end;
    }
    this.pending.push(char);
    return start + 1;
  }

  private backslash(index: number): number {
    const next = this.source[index + 1];
    if (next === '\n') {
      this.appendBreak();
      return this.skipLeadingSpaces(index + 2);
    }
    if (next !== undefined && asciiPunctuation.test(next)) {
      this.pending.push(next);
      return index + 2;
    }
    this.pending.push('\\');
    return index + 1;
  }

  private entity(index: number): number {
    entity.lastIndex = index;
    const match = entity.exec(this.source);
    const decoded = match ? decodeEntity(match[0]) : undefined;
    if (match && decoded !== undefined) {
      this.pending.push(decoded);
      return index + match[0].length;
    }
    this.pending.push('&');
    return index + 1;
  }

  /** A newline: hard break after two spaces, otherwise a soft break kept as a newline character. */
  private lineBreak(index: number): number {
    // Trailing spaces come off the pending pieces from the end: each piece is trimmed once at most.
    let trailing = 0;
    while (this.pending.length > 0) {
      const last = this.pending[this.pending.length - 1]!;
      let end = last.length;
      while (end > 0 && last[end - 1] === ' ') end -= 1;
      trailing += last.length - end;
      if (end > 0) {
        if (end < last.length) this.pending[this.pending.length - 1] = last.slice(0, end);
        break;
      }
      this.pending.pop();
    }
    if (trailing >= 2) this.appendBreak();
    else this.pending.push('\n');
    return this.skipLeadingSpaces(index + 1);
  }

  private appendBreak(): void {
    this.append(this.element('br'));
  }

  /** An element after everything so far (the delimiter stack keeps track of how deep it goes). */
  private append(element: HTMLElement): void {
    this.parent.appendChild(element);
    this.delimiters.appended(element);
  }

  private skipLeadingSpaces(index: number): number {
    while (this.source[index] === ' ') index += 1;
    return index;
  }

  private delimiterRun(start: number): number {
    const source = this.source;
    let end = start;
    while (source[end] === source[start]) end += 1;
    this.delimiters.push(this.textNode(source.slice(start, end)), source, start, end);
    return end;
  }

  // ── code spans ──────────────────────────────────────────────────────────────

  private codeSpan(start: number): number {
    const source = this.source;
    let end = start;
    while (source[end] === '`') end += 1;
    const length = end - start;
    const closing = this.nextBacktickRun(length, end);
    if (closing === undefined) {
      this.pending.push(source.slice(start, end));
      return end;
    }
    let content = source.slice(end, closing).replace(/\n/g, ' ');
    // One space either side is padding when both are there and the code is not all spaces.
    if (content.length > 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') content = content.slice(1, -1);
    const code = this.element('code');
    code.appendChild(this.document.createTextNode(content));
    this.append(code);
    return closing + length;
  }

  private nextBacktickRun(length: number, after: number): number | undefined {
    if (!this.backtickRuns) {
      this.backtickRuns = new Map();
      const runs = /`+/g;
      for (let match = runs.exec(this.source); match; match = runs.exec(this.source)) {
        const positions = this.backtickRuns.get(match[0].length) ?? [];
        positions.push(match.index);
        this.backtickRuns.set(match[0].length, positions);
      }
    }
    const positions = this.backtickRuns.get(length) ?? [];
    let cursor = this.backtickCursor.get(length) ?? 0;
    while (cursor < positions.length && positions[cursor]! < after) cursor += 1;
    this.backtickCursor.set(length, cursor);
    return positions[cursor];
  }

  // ── links and images ────────────────────────────────────────────────────────

  private openBracket(index: number, image: boolean): void {
    const enclosing = this.brackets.at(-1);
    if (enclosing) enclosing.holdsBracket = true;
    const node = this.textNode(image ? '![' : '[');
    this.brackets.push({ node, image, textStart: index + (image ? 2 : 1), delimiterBefore: this.delimiters.top, holdsBracket: false });
  }

  private closeBracket(index: number): number {
    const opener = this.brackets.pop();
    // Judged before the mark moves down: an opener a link inside it made inactive stays inactive.
    const active = opener !== undefined && (opener.image || this.brackets.length >= this.inactiveBelow);
    // A `[` pushed later sits where this one was, after every link so far: it is active.
    this.inactiveBelow = Math.min(this.inactiveBelow, this.brackets.length);
    const enclosing = this.brackets.at(-1);
    if (enclosing) enclosing.holdsBracket = true;
    // Link text is a reference label only when it can be one: at most 999 characters, no bracket inside.
    const label = opener && !opener.holdsBracket && index - opener.textStart < 1000 ? this.source.slice(opener.textStart, index) : undefined;
    const target = active ? linkTarget(this.target, index + 1, label) : undefined;
    if (!opener || !target) {
      this.pending.push(']');
      return index + 1;
    }
    this.flush();
    if (opener.image) {
      this.closeImage(opener, index);
      return target.end;
    }
    const link = this.document.createElement('a');
    if (target.href !== undefined) link.setAttribute('href', target.href);
    if (target.title !== undefined) link.setAttribute('title', target.title);
    for (let node = opener.node.nextSibling; node; ) {
      const next = node.nextSibling;
      link.appendChild(node);
      node = next;
    }
    // An autolink inside link text is only text: links do not nest.
    for (const inner of link.querySelectorAll('a')) inner.replaceWith(...inner.childNodes);
    this.parent.appendChild(link);
    this.delimiters.process(opener.delimiterBefore);
    recordDepth(link, link.childNodes);
    this.delimiters.appended(link);
    opener.node.remove();
    // No links inside links: every earlier `[` is now plain text.
    this.inactiveBelow = this.brackets.length;
    return target.end;
  }

  /** Images are never loaded: their alt text (as written) stands in, or nothing when there is none. */
  private closeImage(opener: Bracket, index: number): void {
    for (let node = opener.node.nextSibling; node; ) {
      const next = node.nextSibling;
      node.remove();
      node = next;
    }
    this.delimiters.discardAbove(opener.delimiterBefore);
    // Images inside this one were just removed with its text. Their alt text was never made: an
    // image in an image in an image… would otherwise copy the same source again at every level.
    while ((this.images.at(-1)?.start ?? -1) >= opener.textStart) this.images.pop();
    if (index > opener.textStart) {
      const span = this.document.createElement('span');
      const alt = span.appendChild(this.document.createTextNode(''));
      this.images.push({ node: alt, start: opener.textStart, end: index });
      opener.node.after(span);
      this.delimiters.appended(span);
    }
    opener.node.remove();
  }

  // ── angle brackets: autolinks, raw HTML ────────────────────────────────────

  private angle(index: number): number {
    const link = angleAutolinkAt(this.source, index);
    if (link) {
      this.appendLink(link.href, link.text);
      return link.end;
    }
    // Raw HTML is shown as the characters the model wrote, whole, so nothing inside it is parsed.
    const end = rawHtmlEnd(this.source, this.target.find, index);
    if (end !== undefined) {
      this.pending.push(this.source.slice(index, end));
      return end;
    }
    this.pending.push('<');
    return index + 1;
  }

  private appendLink(href: string, text: string): void {
    const link = this.element('a');
    const cleaned = cleanDestination(href, false);
    if (cleaned !== undefined) link.setAttribute('href', cleaned);
    link.appendChild(this.document.createTextNode(text));
    this.append(link);
  }
}
