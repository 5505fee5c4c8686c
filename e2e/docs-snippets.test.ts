// The docs-as-code checker (scripts/docs-snippets.mjs), run as `pnpm lint` and `pnpm docs:sync` run
// it: a real process over a real directory of Markdown and example files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const script = new URL('../scripts/docs-snippets.mjs', import.meta.url).pathname;
let root: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function run(command: 'check' | 'sync'): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [script, command, '--root', root], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const example = [
  "import { greet } from './greet.js';",
  '',
  'export function main(): void {',
  '  // #region call',
  "  greet('Ada');",
  '  // #endregion call',
  '}',
  '',
].join('\n');

const page = (block: string, marker = '<!-- snippet: pkg/examples/main.ts#call -->') => `# Use it\n\nCall it:\n\n${marker}\n\`\`\`ts\n${block}\n\`\`\`\n\nMore prose.\n`;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'askseam-docs-snippets-'));
  write('pkg/examples/main.ts', example);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('check', () => {
  it('passes when every block is its region, dedented', () => {
    write('docs/use.md', page("greet('Ada');"));
    expect(run('check')).toMatchObject({ status: 0, output: expect.stringContaining('every snippet matches its region') });
  });

  it('fails on a block that differs, naming the Markdown file, its line and the region', () => {
    write('docs/use.md', page("greet('Grace');"));
    const { status, output } = run('check');
    expect(status).toBe(1);
    expect(output).toContain('docs/use.md:5: the code block differs from pkg/examples/main.ts#call; run pnpm docs:sync');
  });

  it('fails on a marker whose region does not exist', () => {
    write('docs/use.md', page("greet('Ada');", '<!-- snippet: pkg/examples/main.ts#missing -->'));
    const { status, output } = run('check');
    expect(status).toBe(1);
    expect(output).toContain('docs/use.md:5: pkg/examples/main.ts has no region "missing"');
  });

  it('fails on a marker whose file does not exist', () => {
    write('docs/use.md', page("greet('Ada');", '<!-- snippet: pkg/examples/gone.ts#call -->'));
    const { status, output } = run('check');
    expect(status).toBe(1);
    expect(output).toContain('docs/use.md:5: the snippet marker names pkg/examples/gone.ts, which does not exist');
  });

  it('fails on a code block with no marker, and accepts one that says why it is not a snippet', () => {
    write('README.md', '# Pkg\n\n```ts\nconst x = 1;\n```\n');
    expect(run('check')).toMatchObject({ status: 1, output: expect.stringContaining('README.md:3: a code block without a snippet marker') });
    write('README.md', '# Pkg\n\n<!-- not-a-snippet: a sketch -->\n```ts\nconst x = 1;\n```\n\n```sh\npnpm install\n```\n');
    expect(run('check').status).toBe(0);
  });

  it('fails on a region that is never closed, naming the source file', () => {
    write('pkg/examples/main.ts', example.replace('  // #endregion call\n', ''));
    write('docs/use.md', page("greet('Ada');"));
    const { status, output } = run('check');
    expect(status).toBe(1);
    expect(output).toContain('pkg/examples/main.ts: region "call" is never closed');
  });

  it('leaves CHANGELOG.md and node_modules alone', () => {
    write('CHANGELOG.md', page('stale'));
    write('node_modules/dep/README.md', page('stale'));
    expect(run('check').status).toBe(0);
  });
});

describe('sync', () => {
  it('rewrites a stale block from its region, touching nothing else, after which check passes', () => {
    write('docs/use.md', page("greet('Grace');\ngreet('Linus');"));
    expect(run('sync')).toMatchObject({ status: 0, output: expect.stringContaining('synced docs/use.md') });
    expect(read('docs/use.md')).toBe(page("greet('Ada');"));
    expect(run('check').status).toBe(0);
  });

  it('shows a whole file without its region markers, and fills in a block that was missing', () => {
    write('docs/use.md', '# Whole\n\n<!-- snippet: pkg/examples/main.ts -->\n\nAfter.\n');
    expect(run('sync').status).toBe(0);
    expect(read('docs/use.md')).toBe(
      "# Whole\n\n<!-- snippet: pkg/examples/main.ts -->\n```ts\nimport { greet } from './greet.js';\n\nexport function main(): void {\n  greet('Ada');\n}\n```\n\nAfter.\n",
    );
    expect(run('check').status).toBe(0);
  });

  it('cannot sync a marker that points nowhere, and says so', () => {
    write('docs/use.md', page('x', '<!-- snippet: pkg/examples/main.ts#missing -->'));
    const { status, output } = run('sync');
    expect(status).toBe(1);
    expect(output).toContain('has no region "missing"');
    expect(read('docs/use.md')).toBe(page('x', '<!-- snippet: pkg/examples/main.ts#missing -->'));
  });
});
