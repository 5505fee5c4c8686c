import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTerminalExample } from './build-example.js';

// examples/ask-in-terminal.ts as a real process whose stdin is a pipe: no TTY, so text mode.

let script = '';
beforeAll(async () => {
  script = await buildTerminalExample();
});

function run(stdin: string) {
  const child = spawnSync(process.execPath, [script], { input: stdin, encoding: 'utf8', timeout: 20_000 });
  const lines = child.stdout.trimEnd().split('\n');
  return { status: child.status, screen: child.stdout, result: JSON.parse(lines.at(-1)!.replace(/^> /, '')) as unknown };
}

describe('the terminal provider with piped stdin', () => {
  it('prints the questions as text, reads the piped reply, and ends', () => {
    const { status, screen, result } = run('1: 2\n2: 1 3\n3: demo\n4: no\n\n');
    expect(status).toBe(0);
    expect(screen).toContain('1. [Framework] Which framework should the project use?\n   1) React (Recommended) — The team knows it best.');
    expect(result).toEqual({
      answers: [
        { id: 'framework', selected: ['Vue'] },
        { id: 'features', selected: ['Lint', 'CI'] },
        { id: 'name', selected: [], custom: 'demo' },
        { id: 'git', selected: [], custom: 'false' },
      ],
    });
  });

  it('reports a cancelled ask when the pipe closes without a usable reply', () => {
    const { status, result } = run('3: demo, but way too long for forty characters in all\n');
    expect(status).toBe(0);
    expect(result).toEqual({ error: 'ASK_CANCELLED' });
  });
});
