// The install lines of the adapters whose peers a bare `npm install <peer>` gets wrong: on Node 20,
// npm resolves `ai` to 6 (the newest whose engines fit) and `@openai/agents` to its newest
// release, both outside the peer range, with only a warning. Their lines must name the peer's
// version, in the README and the docs page alike.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const repoRoot = new URL('../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, repoRoot), 'utf8');

const adapters = [
  { dir: 'packages/ai-sdk', docs: 'docs/ai-sdk.md', peer: 'ai' },
  { dir: 'packages/openai-agents', docs: 'docs/openai-agents.md', peer: '@openai/agents' },
];

/** The version a caret or tilde peer range fixes: `^7.0.0` → `7`, `~0.20.0` → `0.20`. */
function fixedPart(range: string): string {
  const match = /^([~^])(\d+)\.(\d+)\.\d+$/.exec(range);
  if (match === null) throw new Error(`unexpected peer range ${range}`);
  const [, kind, major, minor] = match;
  return kind === '^' && major !== '0' ? major! : `${major}.${minor}`;
}

function installLines(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('npm install '));
}

describe.each(adapters)('$dir', ({ dir, docs, peer }) => {
  const manifest = JSON.parse(read(`${dir}/package.json`)) as { peerDependencies: Record<string, string> };
  const wanted = `${peer}@${fixedPart(manifest.peerDependencies[peer]!)}`;

  it.each([`${dir}/README.md`, docs])(`%s installs the peer at the version its range fixes`, (document) => {
    const lines = installLines(read(document));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const named = line.split(/\s+/).filter((word) => word === peer || word.startsWith(`${peer}@`));
      expect(named, line).toEqual([wanted]);
    }
  });

  it.each([`${dir}/README.md`, docs])('%s says the peer needs Node ≥ 22', (document) => {
    expect(read(document)).toMatch(/needs? Node ≥ 22/);
  });
});
