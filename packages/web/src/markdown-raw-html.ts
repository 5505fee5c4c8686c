// Where inline raw HTML that starts at a `<` ends (CommonMark's kinds: tags, closing tags,
// comments, processing instructions, declarations, CDATA). The renderer shows it as the characters
// the model wrote, whole, so nothing inside it is parsed. Comments and the like end at a marker
// that may be far away or missing: `<!--<!--<!--…` must not read the rest of the input at every
// `<!--`, so the marker comes from a remembered search (markdown-scan.ts).
import type { Searches } from './markdown-scan.js';

// A tag's own text ends before the next `<` unless a quoted attribute value holds one, and then at
// that value's closing quote: bounded, whatever follows.
const tag = /<(?:[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|\/[A-Za-z][A-Za-z0-9-]*\s*>)/y;

/** The end of the raw HTML starting at `index` (a `<`), or undefined when none starts there. */
export function rawHtmlEnd(source: string, find: Searches, index: number): number | undefined {
  tag.lastIndex = index;
  const match = tag.exec(source);
  if (match) return index + match[0].length;
  if (source.startsWith('<!--', index)) {
    // `<!-->` and `<!--->` are whole (empty) comments.
    if (source.startsWith('>', index + 4)) return index + 5;
    if (source.startsWith('->', index + 4)) return index + 6;
    return after(find(/-->/, index + 4), 3);
  }
  if (source.startsWith('<?', index)) return after(find(/\?>/, index + 2), 2);
  if (source.startsWith('<![CDATA[', index)) return after(find(/\]\]>/, index + 9), 3);
  if (/^<![A-Za-z]/.test(source.slice(index, index + 3))) return after(find(/>/, index + 3), 1);
  return undefined;
}

function after(found: number, length: number): number | undefined {
  return found < 0 ? undefined : found + length;
}
