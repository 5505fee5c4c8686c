// Reading code blocks out of Markdown, for the docs tests: a block shown under an
// `<!-- excerpt: path -->` line must be an excerpt of that (compiled and tested) file.

export interface MarkdownBlock {
  lang: string;
  code: string;
  /** The path named by an `<!-- excerpt: path -->` line right above the block. */
  excerptOf?: string;
}

export function blocksOf(markdown: string): MarkdownBlock[] {
  const pattern = /(?:<!-- excerpt: (\S+) -->\n)?```(\w*)\n([\s\S]*?)\n```/g;
  return [...markdown.matchAll(pattern)].map((match) => ({
    lang: match[2] ?? '',
    code: match[3] ?? '',
    ...(match[1] === undefined ? {} : { excerptOf: match[1] }),
  }));
}

const lines = (text: string) => text.split('\n').map((line) => line.trim());

/** True when `excerpt`'s lines appear one after another in `source` (indentation aside). */
export function isExcerpt(excerpt: string, source: string): boolean {
  const wanted = lines(excerpt);
  const have = lines(source);
  return have.some((_, start) => wanted.every((line, offset) => have[start + offset] === line));
}
