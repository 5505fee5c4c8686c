import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { Marked } from 'marked';

// Sanitising policy (README "Sanitising"): text written by a model can never run script or load
// anything. Two independent layers, so that a gap in one is not a hole:
//  1. Rendering: raw HTML in the Markdown is shown as text, images become their alt text, and task
//     list checkboxes become characters. marked therefore emits only plain formatting tags.
//  2. Sanitising: DOMPurify keeps an explicit allow-list of those tags and attributes. Links keep
//     their href only when it is absolute http(s) or mailto; they open in a new tab with
//     rel="noopener noreferrer" and send no referrer. Anything else loses its href and is inert.

const allowedTags = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'del', 's', 'code', 'pre',
  'blockquote', 'ul', 'ol', 'li', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span',
];
const allowedAttributes = ['href', 'title', 'start', 'align'];
// Absolute http(s) and mailto only: no javascript:, data:, protocol-relative //host or relative
// links that would navigate the host page.
const allowedLinkTarget = /^(?:https?:\/\/|mailto:)/i;

const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ text }) => (text === '' ? '' : `<span>${escapeHtml(text)}</span>`),
    checkbox: ({ checked }) => (checked ? '☑ ' : '☐ '),
  },
});

const purifyConfig: Config = {
  ALLOWED_TAGS: allowedTags,
  ALLOWED_ATTR: allowedAttributes,
  ALLOWED_URI_REGEXP: allowedLinkTarget,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

let purifier: DOMPurify | undefined;

/**
 * Markdown from a model, as HTML that is safe to put into the page: no script, no event handlers,
 * nothing that loads from anywhere. Browser only (DOMPurify needs a DOM).
 */
export function renderMarkdown(source: string): string {
  const html = markdown.parse(source, { async: false });
  return sanitizer().sanitize(html, purifyConfig);
}

function sanitizer(): DOMPurify {
  if (purifier) return purifier;
  // An instance of our own, so that our hook never touches a DOMPurify the host page also uses.
  const instance = createDOMPurify(window);
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    if (href === null || !allowedLinkTarget.test(href)) {
      node.removeAttribute('href');
      return;
    }
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
    node.setAttribute('referrerpolicy', 'no-referrer');
    // Show where a link goes before anyone follows it.
    if (!node.hasAttribute('title')) node.setAttribute('title', href);
  });
  purifier = instance;
  return instance;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
