// Blocks (markdown-blocks.ts) as DOM nodes. Only document.createElement / createTextNode /
// setAttribute are used, with the tags listed in markdown-allow-list.ts: no string of the model's
// is ever parsed as HTML. Containers nest at most `maxNesting` deep (the block parser's cap).
import type { Block, LinkDefinitions, ListItem } from './markdown-blocks.js';
import { appendInlines } from './markdown-inline.js';

export function appendBlocks(parent: Node, blocks: readonly Block[], definitions: LinkDefinitions): void {
  const document = parent.ownerDocument ?? (parent as Document);
  for (const block of blocks) {
    switch (block.kind) {
      case 'paragraph':
        appendInlines(parent.appendChild(document.createElement('p')), block.text, definitions);
        break;
      case 'heading':
        appendInlines(parent.appendChild(document.createElement(`h${block.level}`)), block.text, definitions);
        break;
      case 'code': {
        const pre = parent.appendChild(document.createElement('pre'));
        // A code block ends with a newline, as marked writes it (invisible at the end of a <pre>).
        const code = pre.appendChild(document.createElement('code'));
        if (block.text !== '') code.appendChild(document.createTextNode(`${block.text}\n`));
        break;
      }
      case 'html':
        // Raw HTML the model wrote: its characters, as text.
        parent.appendChild(document.createTextNode(block.text));
        break;
      case 'quote':
        appendBlocks(parent.appendChild(document.createElement('blockquote')), block.children, definitions);
        break;
      case 'list': {
        const list = parent.appendChild(document.createElement(block.ordered ? 'ol' : 'ul'));
        if (block.ordered && block.start !== 1) list.setAttribute('start', String(block.start));
        for (const item of block.items) appendItem(list.appendChild(document.createElement('li')), item, block.loose, definitions);
        break;
      }
      case 'rule':
        parent.appendChild(document.createElement('hr'));
        break;
      case 'table':
        appendTable(parent, block, definitions);
        break;
    }
  }
}

function appendItem(item: HTMLElement, { task, children }: ListItem, loose: boolean, definitions: LinkDefinitions): void {
  const document = item.ownerDocument;
  // A task item's box is a character, never an <input>.
  const box = task === undefined ? undefined : document.createTextNode(task ? '☑ ' : '☐ ');
  const [first] = children;
  if (box) {
    if (loose && first?.kind === 'paragraph') {
      const paragraph = item.appendChild(document.createElement('p'));
      paragraph.appendChild(box);
      appendInlines(paragraph, first.text, definitions);
      appendBlocks(item, children.slice(1), definitions);
      return;
    }
    item.appendChild(box);
  }
  if (loose) {
    appendBlocks(item, children, definitions);
    return;
  }
  // A tight list shows its paragraphs as bare text.
  for (const child of children) {
    if (child.kind === 'paragraph') appendInlines(item, child.text, definitions);
    else appendBlocks(item, [child], definitions);
  }
}

function appendTable(parent: Node, block: Extract<Block, { kind: 'table' }>, definitions: LinkDefinitions): void {
  const document = parent.ownerDocument ?? (parent as Document);
  const table = parent.appendChild(document.createElement('table'));
  const row = (section: HTMLElement, cells: readonly string[], tag: 'th' | 'td'): void => {
    const tr = section.appendChild(document.createElement('tr'));
    cells.forEach((text, column) => {
      const cell = tr.appendChild(document.createElement(tag));
      const align = block.align[column];
      if (align) cell.setAttribute('align', align);
      appendInlines(cell, text, definitions);
    });
  };
  row(table.appendChild(document.createElement('thead')), block.head, 'th');
  if (block.rows.length === 0) return;
  const body = table.appendChild(document.createElement('tbody'));
  for (const cells of block.rows) row(body, cells, 'td');
}
