// The second, independent layer of the Markdown policy: whatever the renderer built, this pass
// walks the finished fragment and keeps only the allow-listed elements and attributes. It does
// not trust the renderer, so a renderer bug cannot put a script, a handler or a live link on the
// page. It walks with an explicit stack (no recursion), and flattens anything nested deeper than
// `maxDepth` so a pathological input cannot build a tree that is slow to lay out.

const allowedTags = new Set([
  'P', 'BR', 'HR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'STRONG', 'EM', 'DEL', 'S', 'CODE', 'PRE',
  'BLOCKQUOTE', 'UL', 'OL', 'LI', 'A', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'SPAN',
]);
/** Attributes each tag may keep (anything else, `on…`, `style`, `class` included, goes). */
const allowedAttributes: Record<string, readonly string[]> = { A: ['href', 'title'], OL: ['start'], TH: ['align'], TD: ['align'] };
const allowedAlign = /^(?:left|center|right)$/;
/** Absolute http(s) and mailto only: no javascript:, data:, protocol-relative //host or relative links. */
export const allowedLinkTarget = /^(?:https?:\/\/|mailto:)/i;
/** Elements deeper than this are replaced by their content. */
export const maxDepth = 64;

export function enforceAllowList(root: DocumentFragment): void {
  const stack: [Node, number][] = [...root.childNodes].map((node) => [node, 1]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node.nodeType === Node.TEXT_NODE) continue;
    if (node.nodeType !== Node.ELEMENT_NODE) {
      node.parentNode?.removeChild(node);
      continue;
    }
    const element = node as Element;
    const children = [...element.childNodes];
    if (!allowedTags.has(element.tagName) || element.namespaceURI !== 'http://www.w3.org/1999/xhtml' || depth > maxDepth) {
      // The element goes; its content stays in its place (and is checked in turn).
      element.replaceWith(...children);
      for (const child of children) stack.push([child, depth]);
      continue;
    }
    const keep = allowedAttributes[element.tagName] ?? [];
    for (const name of element.getAttributeNames()) if (!keep.includes(name)) element.removeAttribute(name);
    const align = element.getAttribute('align');
    if (align !== null && !allowedAlign.test(align)) element.removeAttribute('align');
    const start = element.getAttribute('start');
    if (start !== null && !/^\d{1,9}$/.test(start)) element.removeAttribute('start');
    if (element.tagName === 'A') secureLink(element);
    for (const child of children) stack.push([child, depth + 1]);
  }
}

/** A link keeps its target only when absolute http(s) or mailto, and then opens apart from the page. */
function secureLink(link: Element): void {
  const href = link.getAttribute('href');
  if (href === null || !allowedLinkTarget.test(href)) {
    link.removeAttribute('href');
    return;
  }
  link.setAttribute('target', '_blank');
  link.setAttribute('rel', 'noopener noreferrer nofollow');
  link.setAttribute('referrerpolicy', 'no-referrer');
  // Show where a link goes before anyone follows it.
  if (!link.hasAttribute('title')) link.setAttribute('title', href);
}
