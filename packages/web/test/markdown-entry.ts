// Bundled by the Markdown tests (scripts/bundle.mjs, like the element) and run in Chromium: our
// renderer, and marked (a devDependency, never in the element's bundle) as the reference for the
// differential test. Both outputs go through the same normalisation so only the renderers differ.
import { Marked } from 'marked';
import { enforceAllowList } from '../src/markdown-allow-list.js';
import { renderMarkdown } from '../src/markdown.js';

// marked configured as the element had it until perf/markdown: raw HTML escaped to text, images as
// their alt text in a <span>, task boxes as characters.
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ text }) => (text === '' ? '' : `<span>${escapeHtml(text)}</span>`),
    checkbox: ({ checked }) => (checked ? '☑ ' : '☐ '),
  },
});

/** What marked + the old DOMPurify policy showed, as a fragment (parsed inertly, off the page). */
function renderWithMarked(source: string): DocumentFragment {
  const parsed = new DOMParser().parseFromString(`<!doctype html><body>${marked.parse(source, { async: false })}`, 'text/html');
  const fragment = document.createDocumentFragment();
  fragment.append(...[...parsed.body.childNodes].map((node) => document.importNode(node, true)));
  enforceAllowList(fragment);
  return fragment;
}

/** Tag tree, attributes and text, with layout-only whitespace between blocks removed. */
function normalise(fragment: DocumentFragment): string {
  const parts: string[] = [];
  const visit = (node: Node, inPre: boolean): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = (node as Text).data.replace(/[&<>]/g, (char) => `&#${char.charCodeAt(0)};`);
      parts.push(inPre ? text.replace(/ /g, '·').replace(/\n/g, '⏎') : text.replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    const tag = element.localName;
    const attributes = element
      .getAttributeNames()
      .sort()
      .map((name) => ` ${name}="${element.getAttribute(name)}"`)
      .join('');
    parts.push(`<${tag}${attributes}>`);
    for (const child of element.childNodes) visit(child, inPre || tag === 'pre');
    if (tag !== 'br' && tag !== 'hr') parts.push(`</${tag}>`);
  };
  for (const child of fragment.childNodes) visit(child, false);
  const blockTag = /\s*(<\/?(?!(?:strong|em|del|s|code|a|span)\b)[a-z0-9]+(?: [^>]*)?>)\s*/g;
  return parts.join('').replace(blockTag, '$1').trim();
}

/** Hostile-input checks: every element and attribute the renderer left, for the property tests. */
function inventory(fragment: DocumentFragment): { tags: string[]; attributes: string[]; hrefs: string[]; text: string; depth: number } {
  const tags: string[] = [];
  const attributes: string[] = [];
  const hrefs: string[] = [];
  let depth = 0;
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_ALL);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) continue;
    if (node.nodeType !== Node.ELEMENT_NODE) {
      tags.push(`#${node.nodeName}`);
      continue;
    }
    const element = node as Element;
    tags.push(element.localName);
    let level = 0;
    for (let up: Node | null = element; up && up !== fragment; up = up.parentNode) level += 1;
    depth = Math.max(depth, level);
    for (const name of element.getAttributeNames()) attributes.push(`${element.localName}[${name}]`);
    const href = element.getAttribute('href');
    if (href !== null) hrefs.push(href);
  }
  return { tags, attributes, hrefs, text: fragment.textContent ?? '', depth };
}

/** The allow-list pass alone, on markup parsed here (test only): what layer 2 leaves of anything. */
function allowListOnly(html: string): { normalised: string; inventory: ReturnType<typeof inventory> } {
  const parsed = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  const fragment = document.createDocumentFragment();
  fragment.append(...[...parsed.body.childNodes].map((node) => document.importNode(node, true)));
  enforceAllowList(fragment);
  return { normalised: normalise(fragment), inventory: inventory(fragment) };
}

/** Every node a fragment holds (elements and text), for the output-size bound. */
function countNodes(fragment: DocumentFragment): number {
  let nodes = 0;
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_ALL);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes += 1;
  return nodes;
}

/**
 * The shortest of `runs` renders of each source, taken in turns (every source once, then again) so
 * that a busy moment of the machine falls on all of them alike; and the nodes each made. For the
 * linearity test, which compares such times with each other, never with a number: interference
 * only ever adds time, so the shortest run is the closest to the renderer's own cost.
 */
function measure(sources: readonly string[], runs: number): { milliseconds: number; nodes: number }[] {
  const results = sources.map(() => ({ milliseconds: Number.POSITIVE_INFINITY, nodes: 0 }));
  for (let run = 0; run < runs; run += 1) {
    sources.forEach((source, index) => {
      const start = performance.now();
      const fragment = renderMarkdown(source);
      const result = results[index]!;
      result.milliseconds = Math.min(result.milliseconds, performance.now() - start);
      result.nodes = countNodes(fragment);
    });
  }
  return results;
}

const markdownTest = {
  measure,
  ours: (source: string): string => normalise(renderMarkdown(source)),
  marked: (source: string): string => normalise(renderWithMarked(source)),
  inventory: (source: string) => inventory(renderMarkdown(source)),
  allowListOnly,
};
Object.assign(globalThis, { markdownTest });
