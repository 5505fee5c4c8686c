// The tab title while questions wait in a hidden page: "(2) Your app". One title for the whole
// document, shared by every element on it, so two elements add up their counts instead of
// prefixing the title twice.

const counts = new Map<object, number>();
/** The title the page had before ours, and the one we wrote (to notice the page changing it). */
let applied: { base: string; written: string } | undefined;

/**
 * `owner`'s count of waiting requests to show in the title (0: none). The title shows the sum,
 * worded by `format`; at 0 the page's own title comes back.
 */
export function setTitleCount(owner: object, count: number, format: (count: number, title: string) => string): void {
  if (count > 0) counts.set(owner, count);
  else counts.delete(owner);
  let total = 0;
  for (const each of counts.values()) total += each;
  // The page set a title of its own while ours was up: that is the title to decorate and restore.
  const base = applied !== undefined && document.title === applied.written ? applied.base : document.title;
  if (total === 0) {
    if (applied !== undefined && document.title === applied.written) document.title = applied.base;
    applied = undefined;
    return;
  }
  const written = format(total, base);
  applied = { base, written };
  if (document.title !== written) document.title = written;
}
