// The one docs-as-code mechanism: code shown in Markdown is a named region of a file that is
// compiled and tested, copied in by `pnpm docs:sync` and checked by `pnpm lint`.
//
// In the source file (any comment style: `//`, `#`, `<!-- … -->`):
//     // #region connect
//     const bus = await connectRedisBus({ url });
//     // #endregion connect
// In the Markdown, a marker line right above the fenced block (without `#name`: the whole file):
//     <!-- snippet: packages/bus-redis/examples/connect.ts#connect -->
//     ```ts
//     const bus = await connectRedisBus({ url });
//     ```
// A region's text is its lines without the common indentation and without region marker lines,
// so regions may nest and a whole-file snippet never shows them.
//
//   node scripts/docs-snippets.mjs check [--root dir]   list every difference; exit 1 if any
//   node scripts/docs-snippets.mjs sync  [--root dir]   rewrite the blocks from their regions
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const markerPattern = /^<!-- snippet: (\S+?)(?:#([\w-]+))? -->$/;
const regionStartPattern = /^\s*(?:\/\/|#|<!--)\s*#region\s+([\w-]+)\s*(?:-->)?\s*$/;
const regionEndPattern = /^\s*(?:\/\/|#|<!--)\s*#endregion(?:\s+([\w-]+))?\s*(?:-->)?\s*$/;
const fencePattern = /^(`{3,})(\S*)\s*$/;
// A block of code in one of these languages must come from a snippet marker, or say why not with
// `<!-- not-a-snippet: reason -->` right above it (a sketch with placeholder names, say).
const codeLanguages = new Set(['ts', 'tsx', 'js', 'html', 'vue']);
const optOutPattern = /^<!-- not-a-snippet: .+ -->$/;
// Directories that hold no hand-written docs (build output, dependencies, release notes in waiting).
const skippedDirectories = new Set(['node_modules', '.git', 'dist', '.turbo', 'coverage', '.changeset']);
const fenceLanguages = { '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.sh': 'sh', '.html': 'html', '.vue': 'vue' };

/**
 * The named regions of a source file, and the file without its region markers (`''` key).
 * Problems (an unclosed or unopened region, a name used twice) are returned, not thrown, so one
 * run reports all of them.
 */
export function readRegions(source, path) {
  const lines = source.replace(/\n$/, '').split('\n');
  const regions = new Map();
  const problems = [];
  const open = [];
  for (const [index, line] of lines.entries()) {
    const start = regionStartPattern.exec(line);
    if (start) {
      const name = start[1];
      if (regions.has(name) || open.some((region) => region.name === name)) problems.push(`${path}:${index + 1}: region "${name}" is defined twice`);
      open.push({ name, lines: [] });
      continue;
    }
    const end = regionEndPattern.exec(line);
    if (end) {
      const region = open.pop();
      if (region === undefined) problems.push(`${path}:${index + 1}: #endregion without a #region`);
      else if (end[1] !== undefined && end[1] !== region.name) problems.push(`${path}:${index + 1}: #endregion ${end[1]} closes region "${region.name}"`);
      else regions.set(region.name, dedent(region.lines));
      continue;
    }
    for (const region of open) region.lines.push(line);
  }
  for (const region of open) problems.push(`${path}: region "${region.name}" is never closed (#endregion ${region.name})`);
  const whole = lines.filter((line) => !regionStartPattern.test(line) && !regionEndPattern.test(line));
  regions.set('', whole.join('\n'));
  return { regions, problems };
}

function dedent(lines) {
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)[0].length);
  const common = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => line.slice(common).trimEnd()).join('\n');
}

/** The code blocks (ts, tsx, js, html, vue) with neither a snippet marker nor a not-a-snippet reason above them: their line numbers. */
export function unmarkedCodeBlocks(markdown) {
  const lines = markdown.split('\n');
  const unmarked = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = fencePattern.exec(lines[index]);
    if (!fence) continue;
    const above = (lines[index - 1] ?? '').trim();
    if (codeLanguages.has(fence[2]) && !markerPattern.test(above) && !optOutPattern.test(above)) unmarked.push(index + 1);
    const close = lines.findIndex((candidate, at) => at > index && candidate.trimEnd() === fence[1]);
    if (close === -1) break;
    index = close;
  }
  return unmarked;
}

/** Every snippet marker of a Markdown text: where it is, what it names, and the block under it (if any). */
export function findSnippets(markdown) {
  const lines = markdown.split('\n');
  const snippets = [];
  for (const [index, line] of lines.entries()) {
    const marker = markerPattern.exec(line.trim());
    if (!marker) continue;
    const snippet = { line: index + 1, path: marker[1], region: marker[2] ?? '', block: undefined };
    const fence = fencePattern.exec(lines[index + 1] ?? '');
    if (fence) {
      const close = lines.findIndex((candidate, at) => at > index + 1 && candidate.trimEnd() === fence[1]);
      if (close !== -1) snippet.block = { lang: fence[2], fence: fence[1], start: index + 1, end: close, code: lines.slice(index + 2, close).join('\n') };
    }
    snippets.push(snippet);
  }
  return snippets;
}

/** Every hand-written Markdown file under `root` (release notes and build output left out). */
export function markdownFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!skippedDirectories.has(entry.name)) walk(join(dir, entry.name));
      } else if (entry.name.endsWith('.md') && entry.name !== 'CHANGELOG.md') {
        files.push(join(dir, entry.name));
      }
    }
  };
  walk(root);
  return files.sort();
}

const snippetName = (snippet) => (snippet.region === '' ? snippet.path : `${snippet.path}#${snippet.region}`);

/**
 * Check (or, with `write`, sync) every snippet under `root`. Returns the problems left (each one
 * line naming the Markdown file and line, and the region) and the files rewritten.
 */
export function processDocs(root, { write }) {
  const problems = [];
  const written = [];
  const sources = new Map();
  const regionsOf = (path) => {
    if (!sources.has(path)) {
      const file = join(root, path);
      if (!existsSync(file)) sources.set(path, undefined);
      else {
        const read = readRegions(readFileSync(file, 'utf8'), path);
        problems.push(...read.problems);
        sources.set(path, read.regions);
      }
    }
    return sources.get(path);
  };

  for (const file of markdownFiles(root)) {
    const name = relative(root, file).split(sep).join('/');
    const markdown = readFileSync(file, 'utf8');
    const lines = markdown.split('\n');
    for (const line of unmarkedCodeBlocks(markdown)) {
      problems.push(`${name}:${line}: a code block without a snippet marker; show code from a compiled, tested file (<!-- snippet: path#region -->) or say why not (<!-- not-a-snippet: reason -->)`);
    }
    // Later blocks first, so rewriting one never moves the line numbers of those still to do.
    const snippets = findSnippets(markdown).reverse();
    let changed = false;
    for (const snippet of snippets) {
      const where = `${name}:${snippet.line}`;
      const regions = regionsOf(snippet.path);
      if (regions === undefined) {
        problems.push(`${where}: the snippet marker names ${snippet.path}, which does not exist`);
        continue;
      }
      const code = regions.get(snippet.region);
      if (code === undefined) {
        problems.push(`${where}: ${snippet.path} has no region "${snippet.region}" (add // #region ${snippet.region} … // #endregion ${snippet.region})`);
        continue;
      }
      if (snippet.block?.code === code) continue;
      if (!write) {
        const what = snippet.block === undefined ? 'no fenced code block follows the snippet marker of' : 'the code block differs from';
        problems.push(`${where}: ${what} ${snippetName(snippet)}; run pnpm docs:sync`);
        continue;
      }
      const fence = snippet.block?.fence ?? '```';
      const lang = snippet.block?.lang ?? fenceLanguages[extname(snippet.path)] ?? '';
      const replaced = [`${fence}${lang}`, ...(code === '' ? [] : code.split('\n')), fence];
      if (snippet.block === undefined) lines.splice(snippet.line, 0, ...replaced);
      else lines.splice(snippet.block.start, snippet.block.end - snippet.block.start + 1, ...replaced);
      changed = true;
    }
    if (changed) {
      writeFileSync(file, lines.join('\n'));
      written.push(name);
    }
  }
  return { problems, written };
}

function main(argv) {
  const [command, ...rest] = argv;
  const rootFlag = rest.indexOf('--root');
  const root = rootFlag === -1 ? process.cwd() : rest[rootFlag + 1];
  if ((command !== 'check' && command !== 'sync') || root === undefined) {
    console.error('usage: node scripts/docs-snippets.mjs check|sync [--root dir]');
    return 2;
  }
  const { problems, written } = processDocs(root, { write: command === 'sync' });
  for (const name of written) console.log(`synced ${name}`);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`docs-snippets: ${problems.length} problem${problems.length === 1 ? '' : 's'} (see docs/decisions.md, "One docs-as-code mechanism").`);
    return 1;
  }
  if (command === 'check') console.log('docs-snippets: every snippet matches its region');
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(main(process.argv.slice(2)));
