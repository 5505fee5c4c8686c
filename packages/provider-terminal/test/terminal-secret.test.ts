import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTerminalExample } from './build-example.js';
import { requireTmux, resultIn, TmuxSession } from './tmux.js';

// examples/ask-secret-in-terminal.ts in a real pseudo-terminal (tmux): a sensitive question.

let script = '';
let dir = '';
let session: TmuxSession | undefined;

beforeAll(async () => {
  requireTmux();
  script = await buildTerminalExample('ask-secret-in-terminal');
});

afterEach(() => {
  session?.kill();
  session = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a sensitive question at a TTY', () => {
  it('echoes the typed secret as stars and hands the asker the real value', async () => {
    dir = mkdtempSync(join(tmpdir(), 'askseam-secret-'));
    const result = join(dir, 'result.json');
    session = new TmuxSession(`node ${script} ${result}`);
    await session.waitFor('Passphrase of the deploy key?');
    session.type('hunter2-correct-horse');
    await session.waitFor('*********************');
    expect(session.screen()).not.toContain('hunter2');
    session.keys(['Enter']);
    await session.waitFor('EXITED');
    expect(session.screen()).not.toContain('hunter2');
    expect(resultIn(result)).toEqual({ answers: [{ id: 'passphrase', selected: [], custom: 'hunter2-correct-horse' }] });
  });
});
