// Autolinks: `<scheme:…>` and `<address@host>`, and GFM's bare ones (https://…, http://…,
// ftp://…, www.… and e-mail addresses) where they end as marked ends them. Each is found from the
// position it starts at and reads at most its own length (a bare URL at most 4,096 characters).

export interface Autolink {
  href: string;
  text: string;
  /** Where the source continues after the link. */
  end: number;
}

const angleAutolink = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/y;
const angleEmail = /<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+)>/y;
// A bare URL is at most 4,096 characters (like a link destination; the rest is text), so finding
// and trimming one is bounded whatever follows it.
const bareUrl = /(?:https?:\/\/|ftp:\/\/|www\.)[A-Za-z0-9-][^\s<]{0,4096}/iy;
const wwwStart = /www\./iy;
const bareEmail = /[A-Za-z0-9._+-]+@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+/y;

/** `<https://…>` or `<a@b.c>` at `index` (a `<`), with the href it links to before cleaning. */
export function angleAutolinkAt(source: string, index: number): Autolink | undefined {
  for (const [pattern, scheme] of [
    [angleAutolink, ''],
    [angleEmail, 'mailto:'],
  ] as const) {
    pattern.lastIndex = index;
    const match = pattern.exec(source);
    if (match) return { href: scheme + match[1]!, text: match[1]!, end: index + match[0].length };
  }
  return undefined;
}

/**
 * A GFM autolink literal starting at `start`. `inLinkText`: inside link text, a `]` that closes it
 * (`](` or `][` follows) ends the URL too.
 */
export function bareAutolinkAt(source: string, start: number, inLinkText: boolean): Autolink | undefined {
  const before = source[start - 1] ?? ' ';
  // As marked: a URL with a scheme may start anywhere, even inside a word; www. and an address
  // start their word.
  // Checked before matching: matching first would scan the rest of the word at every `www.` of
  // `xwww.axwww.a…` only to throw the match away.
  wwwStart.lastIndex = start;
  if (/[A-Za-z0-9]/.test(before) && wwwStart.test(source)) return undefined;
  bareUrl.lastIndex = start;
  const url = bareUrl.exec(source);
  if (url) {
    const closing = inLinkText ? /\][([]/.exec(url[0]) : null;
    const text = trimAutolinkEnd(closing ? url[0].slice(0, closing.index) : url[0]);
    return { href: /^www\./i.test(text) ? `http://${text}` : text, text, end: start + text.length };
  }
  bareEmail.lastIndex = start;
  const email = /[\w.!#$%&'*+/=?`{|}~-]/.test(before) ? null : bareEmail.exec(source);
  if (!email) return undefined;
  let text = email[0];
  while (text.endsWith('.')) text = text.slice(0, -1);
  if (/[-_]$/.test(text) || !text.slice(text.indexOf('@')).includes('.')) return undefined;
  return { href: `mailto:${text}`, text, end: start + text.length };
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
