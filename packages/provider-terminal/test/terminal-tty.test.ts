import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTerminalExample } from './build-example.js';
import { requireTmux, resultIn, TmuxSession } from './tmux.js';

// examples/ask-in-terminal.ts in a real pseudo-terminal (tmux), driven by keys as a person would.
// Its four questions: framework (choice), features (several), name (required text), git (checkbox).

let script = '';
let dir = '';
let session: TmuxSession | undefined;

beforeAll(async () => {
  requireTmux();
  script = await buildTerminalExample();
});

afterEach(() => {
  session?.kill();
  session = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string> = {}): { tty: TmuxSession; result: string } {
  dir = mkdtempSync(join(tmpdir(), 'askseam-tty-'));
  const result = join(dir, 'result.json');
  session = new TmuxSession(`node ${script} ${result}`, env);
  return { tty: session, result };
}

describe('the terminal provider at a TTY', () => {
  it('answers with arrow keys, checkboxes, typed text and a yes', async () => {
    const { tty, result } = start();
    await tty.waitFor('❯ React (Recommended)');
    expect(tty.screen()).toContain('(1/4) [Framework]');
    expect(tty.screen()).toContain('The team knows it best.');
    tty.keys(['Down', 'Enter']);
    await tty.waitFor('Which extras?');
    tty.keys(['Space', 'Down', 'Down', 'Space', 'Enter']);
    await tty.waitFor('Project name? (required)');
    tty.type('demo');
    tty.keys(['Enter']);
    await tty.waitFor('Initialise Git?');
    tty.keys(['Enter']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({
      answers: [
        { id: 'framework', selected: ['Vue'] },
        { id: 'features', selected: ['Lint', 'CI'] },
        { id: 'name', selected: [], custom: 'demo' },
        { id: 'git', selected: [], custom: 'true' },
      ],
    });
  });

  it('picks by number, takes the person\'s own words, and skips', async () => {
    const { tty, result } = start();
    await tty.waitFor('❯ React (Recommended)');
    tty.keys(['4', 'Enter']);
    await tty.waitFor('Your answer:');
    tty.type('Solid');
    tty.keys(['Enter']);
    await tty.waitFor('Which extras?');
    tty.keys(['Up', 'Space', 'Enter']);
    await tty.waitFor('Your answer:');
    tty.type('Docs');
    tty.keys(['Enter']);
    await tty.waitFor('Project name?');
    tty.type('demo');
    tty.keys(['Enter']);
    await tty.waitFor('Initialise Git?');
    tty.keys(['3', 'Enter']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({
      answers: [
        { id: 'framework', selected: [], custom: 'Solid' },
        { id: 'features', selected: [], custom: 'Docs' },
        { id: 'name', selected: [], custom: 'demo' },
        { id: 'git', selected: [] },
      ],
    });
  });

  it('does not take invisible characters as the person\'s own words', async () => {
    const { tty, result } = start();
    await tty.waitFor('❯ React (Recommended)');
    tty.keys(['4', 'Enter']);
    await tty.waitFor('Your answer:');
    tty.type('\u200b\u2060');
    tty.keys(['Enter']);
    await tty.waitFor('Please type an answer.');
    tty.keys(['C-u']);
    tty.type('Solid');
    tty.keys(['Enter']);
    await tty.waitFor('Which extras?');
    tty.keys(['Enter']);
    await tty.waitFor('Project name?');
    tty.type('demo');
    tty.keys(['Enter']);
    await tty.waitFor('Initialise Git?');
    tty.keys(['Enter']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({
      answers: [
        { id: 'framework', selected: [], custom: 'Solid' },
        { id: 'features', selected: [] },
        { id: 'name', selected: [], custom: 'demo' },
        { id: 'git', selected: [], custom: 'true' },
      ],
    });
  });

  it('keeps a required question open and says why, until it gets a fitting answer', async () => {
    const { tty, result } = start();
    await tty.waitFor('❯ React (Recommended)');
    tty.keys(['Enter']);
    await tty.waitFor('Which extras?');
    tty.keys(['Enter']);
    await tty.waitFor('Project name?');
    tty.keys(['Enter']);
    await tty.waitFor('This question is required; please answer it.');
    tty.type('x'.repeat(41));
    tty.keys(['Enter']);
    await tty.waitFor('at most 40 characters');
    tty.keys(['C-u']);
    tty.type('demo');
    tty.keys(['Enter']);
    await tty.waitFor('Initialise Git?');
    tty.keys(['Down', 'Enter']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({
      answers: [
        { id: 'framework', selected: ['React (Recommended)'] },
        { id: 'features', selected: [] },
        { id: 'name', selected: [], custom: 'demo' },
        { id: 'git', selected: [], custom: 'false' },
      ],
    });
  });

  it('cancels the whole request on Ctrl+C', async () => {
    const { tty, result } = start();
    await tty.waitFor('❯ React (Recommended)');
    tty.keys(['C-c']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({ error: 'ASK_CANCELLED' });
  });

  it('cancels the whole request from the Cancel entry of a list', async () => {
    const { tty, result } = start();
    await tty.waitFor('❯ React (Recommended)');
    tty.keys(['Up', 'Enter']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({ error: 'ASK_CANCELLED' });
  });

  it('stops prompting when the seam\'s timeout aborts the question, so the program can end', async () => {
    const { tty, result } = start({ ASK_TIMEOUT_MS: '1500' });
    // Nothing is typed: the prompt must give the terminal back by itself, or "EXITED" never shows.
    const screen = await tty.waitFor('EXITED');
    expect(screen).toContain('Which framework should the project use?');
    expect(resultIn(result)).toEqual({ error: 'ASK_TIMEOUT' });
  });
});
