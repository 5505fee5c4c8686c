// Inline Markdown (emphasis, code, links, autolinks, breaks) straight into DOM nodes. Text only ever
// becomes a Text node: raw HTML, entities and escapes are characters, never markup. Emphasis uses
// CommonMark's delimiter rules (a run of * _ ~ is a Text node until a matching run closes it; the
// nodes between are then moved into <em>/<strong>/<del>), so the work is linear in the input and
// nothing recurses on the input's nesting.
import { normaliseLabel, type LinkDefinitions } from './markdown-blocks.js';
import { decodeEntity } from './markdown-entities.js';

interface Delimiter {
  node: Text;
  char: string;
  /** Characters of the run still unmatched. */
  count: number;
  readonly originalCount: number;
  canOpen: boolean;
  canClose: boolean;
  previous: Delimiter | undefined;
  next: Delimiter | undefined;
}

interface Bracket {
  node: Text;
  image: boolean;
  /** Where the bracket's text starts in the source (after `[` or `![`). */
  textStart: number;
  /** The last delimiter before the bracket: emphasis inside link text is processed down to it. */
  delimiterBefore: Delimiter | undefined;
  /** False once a link was made around it: links do not nest. */
  active: boolean;
}

const asciiPunctuation = /[!-/:-@[-`{-~]/;
const punctuation = /[\p{P}\p{S}]/u;
const whitespace = /\s/u;
const entity = /&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/y;
const inlineHtml =
  /<(?:[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|\/[A-Za-z][A-Za-z0-9-]*\s*>|!--(?:-?>|[\s\S]*?-->)|\?[\s\S]*?\?>|![A-Za-z][^>]*>|!\[CDATA\[[\s\S]*?\]\]>)/y;
const angleAutolink = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/y;
const angleEmail = /<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+)>/y;
// A bare URL is at most 4,096 characters (like a link destination; the rest is text), so finding
// and trimming one is bounded whatever follows it.
const bareUrl = /(?:https?:\/\/|ftp:\/\/|www\.)[A-Za-z0-9-][^\s<]{0,4096}/iy;
const wwwStart = /www\./iy;
const bareEmail = /[A-Za-z0-9._+-]+@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+/y;
/** A link destination longer than this is not a link (keeps hostile `[](a[](a…` linear). */
const maxDestinationLength = 4096;

/** Append the inline content of `source` to `parent`. */
export function appendInlines(parent: Node, source: string, definitions: LinkDefinitions): void {
  new InlineParser(parent, source, definitions).run();
}

class InlineParser {
  private readonly document: Document;
  private text = '';
  private delimiters: Delimiter | undefined;
  private readonly brackets: Bracket[] = [];
  /** Positions of backtick runs by length, so finding a closing run never rescans. */
  private backtickRuns: Map<number, number[]> | undefined;
  private readonly backtickCursor = new Map<number, number>();

  constructor(
    private readonly parent: Node,
    private readonly source: string,
    private readonly definitions: LinkDefinitions,
  ) {
    this.document = parent.ownerDocument ?? (parent as Document);
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
            this.text += char;
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
    this.processEmphasis(undefined);
  }

  // ── text ────────────────────────────────────────────────────────────────────

  private flush(): void {
    if (this.text === '') return;
    this.parent.appendChild(this.document.createTextNode(this.text));
    this.text = '';
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
    const source = this.source;
    const autolinked = this.bareAutolink(start);
    if (autolinked !== start) return autolinked;
    this.text += source[start];
    return start + 1;
  }

  private backslash(index: number): number {
    const next = this.source[index + 1];
    if (next === '\n') {
      this.appendBreak();
      return this.skipLeadingSpaces(index + 2);
    }
    if (next !== undefined && asciiPunctuation.test(next)) {
      this.text += next;
      return index + 2;
    }
    this.text += '\\';
    return index + 1;
  }

  private entity(index: number): number {
    entity.lastIndex = index;
    const match = entity.exec(this.source);
    const decoded = match ? decodeEntity(match[0]) : undefined;
    if (match && decoded !== undefined) {
      this.text += decoded;
      return index + match[0].length;
    }
    this.text += '&';
    return index + 1;
  }

  /** A newline: hard break after two spaces, otherwise a soft break kept as a newline character. */
  private lineBreak(index: number): number {
    let trailing = 0;
    while (this.text[this.text.length - 1 - trailing] === ' ') trailing += 1;
    this.text = this.text.slice(0, this.text.length - trailing);
    if (trailing >= 2) this.appendBreak();
    else this.text += '\n';
    return this.skipLeadingSpaces(index + 1);
  }

  private appendBreak(): void {
    this.parent.appendChild(this.element('br'));
  }

  private skipLeadingSpaces(index: number): number {
    while (this.source[index] === ' ') index += 1;
    return index;
  }

  // ── code spans ──────────────────────────────────────────────────────────────

  private codeSpan(start: number): number {
    const source = this.source;
    let end = start;
    while (source[end] === '`') end += 1;
    const length = end - start;
    const closing = this.nextBacktickRun(length, end);
    if (closing === undefined) {
      this.text += '`'.repeat(length);
      return end;
    }
    let content = source.slice(end, closing).replace(/\n/g, ' ');
    // One space either side is padding when both are there and the code is not all spaces.
    if (content.length > 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') content = content.slice(1, -1);
    const code = this.element('code');
    code.appendChild(this.document.createTextNode(content));
    this.parent.appendChild(code);
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

  // ── emphasis ────────────────────────────────────────────────────────────────

  private delimiterRun(start: number): number {
    const source = this.source;
    const char = source[start]!;
    let end = start;
    while (source[end] === char) end += 1;
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
    const count = end - start;
    const node = this.textNode(source.slice(start, end));
    if (char === '~' && count > 2) return end;
    const delimiter: Delimiter = { node, char, count, originalCount: count, canOpen, canClose, previous: this.delimiters, next: undefined };
    if (this.delimiters) this.delimiters.next = delimiter;
    this.delimiters = delimiter;
    return end;
  }

  /** CommonMark's "process emphasis", for the delimiters above `bottom`. */
  private processEmphasis(bottom: Delimiter | undefined): void {
    const openersBottom = new Map<string, Delimiter | undefined>();
    let closer = this.delimiters;
    while (closer && closer.previous !== bottom) closer = closer.previous;
    while (closer) {
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const key = `${closer.char}${closer.canOpen ? 1 : 0}${closer.originalCount % 3}`;
      const floor = openersBottom.has(key) ? openersBottom.get(key) : bottom;
      let opener = closer.previous;
      let found = false;
      while (opener && opener !== bottom && opener !== floor) {
        if (opener.char === closer.char && opener.canOpen) {
          const oddMatch = closer.char !== '~' && (closer.canOpen || opener.canClose) && closer.originalCount % 3 !== 0 && (opener.originalCount + closer.originalCount) % 3 === 0;
          // Strikethrough pairs only runs of the same length (~x~ or ~~x~~).
          const tildeMismatch = closer.char === '~' && opener.count !== closer.count;
          if (!oddMatch && !tildeMismatch) {
            found = true;
            break;
          }
        }
        opener = opener.previous;
      }
      if (!found || !opener) {
        openersBottom.set(key, closer.previous);
        const next = closer.next;
        if (!closer.canOpen) this.removeDelimiter(closer);
        closer = next;
        continue;
      }
      const used = closer.char === '~' ? closer.count : closer.count >= 2 && opener.count >= 2 ? 2 : 1;
      const tag = closer.char === '~' ? 'del' : used === 2 ? 'strong' : 'em';
      opener.count -= used;
      closer.count -= used;
      opener.node.data = opener.node.data.slice(0, opener.count);
      closer.node.data = closer.node.data.slice(0, closer.count);
      const wrapper = this.document.createElement(tag);
      // Move everything between the two runs into the new element.
      for (let node = opener.node.nextSibling; node && node !== closer.node; ) {
        const next = node.nextSibling;
        wrapper.appendChild(node);
        node = next;
      }
      opener.node.after(wrapper);
      // Delimiters between the two are inside the element now: they can no longer match.
      for (let between = closer.previous; between && between !== opener; ) {
        const previous = between.previous;
        this.removeDelimiter(between);
        between = previous;
      }
      if (opener.count === 0) {
        opener.node.remove();
        this.removeDelimiter(opener);
      }
      if (closer.count === 0) {
        const next = closer.next;
        closer.node.remove();
        this.removeDelimiter(closer);
        closer = next;
      }
    }
    while (this.delimiters && this.delimiters !== bottom) this.removeDelimiter(this.delimiters);
  }

  private removeDelimiter(delimiter: Delimiter): void {
    if (delimiter.previous) delimiter.previous.next = delimiter.next;
    if (delimiter.next) delimiter.next.previous = delimiter.previous;
    else this.delimiters = delimiter.previous;
  }

  // ── links ───────────────────────────────────────────────────────────────────

  private openBracket(index: number, image: boolean): void {
    const node = this.textNode(image ? '![' : '[');
    this.brackets.push({ node, image, textStart: index + (image ? 2 : 1), delimiterBefore: this.delimiters, active: true });
  }

  private closeBracket(index: number): number {
    const opener = this.brackets.pop();
    if (!opener) {
      this.text += ']';
      return index + 1;
    }
    if (!opener.active) {
      this.text += ']';
      return index + 1;
    }
    const target = this.linkTarget(index + 1, opener.textStart, index);
    if (!target) {
      this.text += ']';
      return index + 1;
    }
    this.flush();
    if (opener.image) {
      // Images are never loaded: their alt text (as written) stands in, or nothing when there is none.
      for (let node = opener.node.nextSibling; node; ) {
        const next = node.nextSibling;
        node.remove();
        node = next;
      }
      while (this.delimiters && this.delimiters !== opener.delimiterBefore) this.removeDelimiter(this.delimiters);
      const alt = this.source.slice(opener.textStart, index);
      if (alt !== '') {
        const span = this.document.createElement('span');
        span.appendChild(this.document.createTextNode(alt));
        opener.node.after(span);
      }
      opener.node.remove();
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
    this.processEmphasis(opener.delimiterBefore);
    opener.node.remove();
    // No links inside links: every earlier `[` is now plain text.
    for (const bracket of this.brackets) if (!bracket.image) bracket.active = false;
    return target.end;
  }

  /** `(dest "title")`, `[label]`, `[]` or nothing (a shortcut reference) after `]`. */
  private linkTarget(after: number, textStart: number, textEnd: number): { href: string | undefined; title: string | undefined; end: number } | undefined {
    const source = this.source;
    if (source[after] === '(') {
      const inline = this.inlineDestination(after + 1);
      if (inline) return inline;
    }
    let label = source.slice(textStart, textEnd);
    let end = after;
    const full = /\[((?:[^\\\[\]]|\\.){0,999})\]/y;
    full.lastIndex = after;
    const reference = full.exec(source);
    if (reference) {
      if (reference[1] !== '') label = reference[1]!;
      end = after + reference[0].length;
    }
    const definition = this.definitions.get(normaliseLabel(label));
    if (!definition) return undefined;
    return { href: cleanDestination(definition.href), title: definition.title === undefined ? undefined : unescapeText(definition.title), end };
  }

  private inlineDestination(start: number): { href: string | undefined; title: string | undefined; end: number } | undefined {
    const source = this.source;
    let index = skipSpace(source, start);
    let destination = '';
    if (source[index] === '<') {
      const close = /<((?:[^<>\n\\]|\\.){0,4096})>/y;
      close.lastIndex = index;
      const match = close.exec(source);
      if (!match) return undefined;
      destination = match[1]!;
      index += match[0].length;
    } else {
      let depth = 0;
      const from = index;
      while (index < source.length && index - from < maxDestinationLength) {
        const char = source[index]!;
        if (char === '\\' && index + 1 < source.length && asciiPunctuation.test(source[index + 1]!)) {
          index += 2;
          continue;
        }
        if (/[\s\x00-\x1f]/.test(char)) break;
        if (char === '(') depth += 1;
        else if (char === ')') {
          if (depth === 0) break;
          depth -= 1;
        }
        index += 1;
      }
      if (depth !== 0 || index - from >= maxDestinationLength) return undefined;
      destination = source.slice(from, index);
    }
    const beforeTitle = index;
    index = skipSpace(source, index);
    let title: string | undefined;
    const opening = source[index];
    if (index > beforeTitle && (opening === '"' || opening === "'" || opening === '(')) {
      const closingChar = opening === '(' ? ')' : opening;
      let end = index + 1;
      while (end < source.length && source[end] !== closingChar && end - index < maxDestinationLength) end += source[end] === '\\' ? 2 : 1;
      if (source[end] !== closingChar) return undefined;
      title = unescapeText(source.slice(index + 1, end));
      index = skipSpace(source, end + 1);
    }
    if (source[index] !== ')') return undefined;
    return { href: destination === '' ? '' : cleanDestination(destination), title, end: index + 1 };
  }

  // ── angle brackets: autolinks, raw HTML ────────────────────────────────────

  private angle(index: number): number {
    const source = this.source;
    for (const [pattern, scheme] of [
      [angleAutolink, ''],
      [angleEmail, 'mailto:'],
    ] as const) {
      pattern.lastIndex = index;
      const match = pattern.exec(source);
      if (match) {
        this.appendLink(scheme + match[1]!, match[1]!);
        return index + match[0].length;
      }
    }
    // Raw HTML is shown as the characters the model wrote, whole, so nothing inside it is parsed.
    inlineHtml.lastIndex = index;
    const html = inlineHtml.exec(source);
    if (html) {
      this.text += html[0];
      return index + html[0].length;
    }
    this.text += '<';
    return index + 1;
  }

  private appendLink(href: string, text: string): void {
    const link = this.element('a');
    const cleaned = cleanDestination(href, false);
    if (cleaned !== undefined) link.setAttribute('href', cleaned);
    link.appendChild(this.document.createTextNode(text));
    this.parent.appendChild(link);
  }

  /** GFM autolink literals: https://…, http://…, ftp://…, www.… and bare e-mail addresses. */
  private bareAutolink(start: number): number {
    const source = this.source;
    const before = source[start - 1] ?? ' ';
    // As marked: a URL with a scheme may start anywhere, even inside a word; www. and an address
    // start their word.
    // Checked before matching: matching first would scan the rest of the word at every `www.` of
    // `xwww.axwww.a…` only to throw the match away.
    wwwStart.lastIndex = start;
    if (/[A-Za-z0-9]/.test(before) && wwwStart.test(source)) return start;
    bareUrl.lastIndex = start;
    const url = bareUrl.exec(source);
    if (url) {
      // Inside link text, a `]` that closes it (`](` or `][` follows) ends the URL too.
      const closing = this.brackets.length > 0 ? /\][([]/.exec(url[0]) : null;
      const text = trimAutolinkEnd(closing ? url[0].slice(0, closing.index) : url[0]);
      this.appendLink(/^www\./i.test(text) ? `http://${text}` : text, text);
      return start + text.length;
    }
    bareEmail.lastIndex = start;
    const email = /[\w.!#$%&'*+/=?`{|}~-]/.test(before) ? null : bareEmail.exec(source);
    if (email) {
      let text = email[0];
      while (text.endsWith('.')) text = text.slice(0, -1);
      if (/[-_]$/.test(text) || !text.slice(text.indexOf('@')).includes('.')) return start;
      this.appendLink(`mailto:${text}`, text);
      return start + text.length;
    }
    return start;
  }
}

function skipSpace(source: string, index: number): number {
  while (index < source.length && /[ \t\n]/.test(source[index]!)) index += 1;
  return index;
}

// What of a bare URL's tail is still the URL (marked's rule, so links end where they did): runs of
// ordinary characters, balanced (…) groups, an & that does not start a final entity, and
// punctuation only when something follows it.
const autolinkBody = /(?:[^?!.,:;*_'"~()&]+|\([^)]*\)|&(?![a-zA-Z0-9]+;$)|[?!.,:;*_'"~)]+(?!$))+/;

/** Trailing punctuation is not part of a bare URL, nor is a `)` without its `(`. */
function trimAutolinkEnd(url: string): string {
  // Each pass of autolinkBody drops one trailing character, so a long tail of punctuation would
  // take a pass per character. All but the last of such a run come off before the passes: the
  // passes would drop them one by one, and the URL before them reads the same while one of them
  // still follows. `;` and `)` count only where the URL has no `&` or `(` (an entity or a (…)
  // group may end with them).
  const trailing = url.includes('(') || url.includes('&') ? `?!.,:*_'"~` : `?!.,:;*_'"~)`;
  let end = url.length;
  while (end > 1 && trailing.includes(url[end - 1]!) && trailing.includes(url[end - 2]!)) end -= 1;
  let text = url.slice(0, end);
  for (;;) {
    const before = text;
    text = autolinkBody.exec(text)?.[0] ?? '';
    if (text === before) return text;
  }
}

/** Backslash escapes and entities of link titles and destinations, as characters. */
function unescapeText(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])|&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g, (match, escaped: string | undefined) => escaped ?? decodeEntity(match) ?? match);
}

/**
 * A destination as the href it becomes: escapes and entities resolved, then percent-encoded like
 * marked does (so `jav&#x61;script:` is checked as the `javascript:` it is). Undefined when it
 * cannot be encoded (a lone surrogate).
 */
function cleanDestination(destination: string, unescape = true): string | undefined {
  const text = unescape ? unescapeText(destination) : destination;
  try {
    return encodeURI(text).replace(/%25/g, '%');
  } catch {
    return undefined;
  }
}
