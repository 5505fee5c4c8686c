import { parseBlocks, type LinkDefinitions } from './markdown-blocks.js';
import { appendBlocks } from './markdown-dom.js';
import { enforceAllowList } from './markdown-allow-list.js';

// Sanitising policy (README "Sanitising"): text written by a model can never run script or load
// anything. Two independent layers, so that a gap in one is not a hole:
//  1. Rendering (markdown-blocks.ts, markdown-inline.ts, markdown-dom.ts): our own renderer for
//     the GFM subset plans use builds DOM nodes with createElement/createTextNode/setAttribute; it
//     never parses HTML and never assigns innerHTML. Raw HTML in the Markdown is shown as text,
//     images become their alt text, task list checkboxes become ☑/☐ characters, and only plain
//     formatting tags are made. Nesting is capped (markdown-blocks.ts maxNesting).
//  2. Allow-list (markdown-allow-list.ts): a separate pass over the finished fragment removes every
//     element and attribute outside the allow-list. Links keep their href only when it is absolute
//     http(s) or mailto; they open in a new tab with rel="noopener noreferrer nofollow" and send no
//     referrer. Anything else loses its href and is inert.

/**
 * Markdown from a model, as DOM nodes that are safe to put into the page: no script, no event
 * handlers, nothing that loads from anywhere. Browser only (it builds nodes with `doc`).
 */
export function renderMarkdown(source: string, doc: Document = document): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  const definitions: LinkDefinitions = new Map();
  appendBlocks(fragment, parseBlocks(source, definitions), definitions);
  enforceAllowList(fragment);
  return fragment;
}
