// Reading fenced blocks out of Markdown, for the tests that check data shown in the docs (the JSON
// frames of docs/protocol.md). Code blocks are checked by `pnpm lint` instead (scripts/docs-snippets.mjs).

export interface MarkdownBlock {
  lang: string;
  code: string;
}

export function blocksOf(markdown: string): MarkdownBlock[] {
  const pattern = /```(\w*)\n([\s\S]*?)\n```/g;
  return [...markdown.matchAll(pattern)].map((match) => ({ lang: match[1] ?? '', code: match[2] ?? '' }));
}
