import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTerminalExample } from './build-example.js';
import { requireTmux, resultIn, TmuxSession } from './tmux.js';

// examples/approve-in-terminal.ts: askApproval with the terminal provider, in a real
// pseudo-terminal (tmux) driven by keys, and as a process whose stdin is a pipe.

let script = '';
let dir = '';
let session: TmuxSession | undefined;

beforeAll(async () => {
  requireTmux();
  script = await buildTerminalExample('approve-in-terminal');
});

afterEach(() => {
  session?.kill();
  session = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function start(): { tty: TmuxSession; result: string } {
  dir = mkdtempSync(join(tmpdir(), 'askseam-approval-'));
  const result = join(dir, 'result.json');
  session = new TmuxSession(`node ${script} ${result}`);
  return { tty: session, result };
}

describe('an approval at a TTY', () => {
  it('shows the tool, its keys and the arguments as indented JSON, then what it does and why as the agent\'s words, and approves with Enter', async () => {
    const { tty, result } = start();
    const screen = await tty.waitFor('❯ Approve');
    expect(screen).toContain(
      '[Tool approval]\nTool: deploy\nArgument names (3): service, version, canary\nArguments:\n  {\n    "service": "api",\n    "version": "1.4.0",\n    "canary": true\n  }\n' +
        'The agent says (unverified):\n  What it does: Deploys a service to production.\n  Why:\n    All checks passed on main.',
    );
    expect(screen).toContain('Allow the agent to run deploy?');
    tty.keys(['Enter']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({ approved: true });
  });

  it('denies with the Deny entry', async () => {
    const { tty, result } = start();
    await tty.waitFor('❯ Approve');
    tty.keys(['Down', 'Enter']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({ approved: false });
  });

  it('denies with a reason typed after "Deny, and say why"', async () => {
    const { tty, result } = start();
    await tty.waitFor('❯ Approve');
    tty.keys(['Down', 'Down', 'Enter']);
    await tty.waitFor('Your reason:');
    tty.type('The freeze is on until Monday.');
    tty.keys(['Enter']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({ approved: false, reason: 'The freeze is on until Monday.' });
  });

  it('reports a dismissal (Ctrl+C) as ASK_CANCELLED, not as a denial', async () => {
    const { tty, result } = start();
    await tty.waitFor('❯ Approve');
    tty.keys(['C-c']);
    await tty.waitFor('EXITED');
    expect(resultIn(result)).toEqual({ error: 'ASK_CANCELLED' });
  });
});

describe('an approval over a pipe', () => {
  function run(stdin: string) {
    const child = spawnSync(process.execPath, [script], { input: stdin, encoding: 'utf8', timeout: 20_000 });
    const lines = child.stdout.trimEnd().split('\n');
    return { screen: child.stdout, result: JSON.parse(lines.at(-1)!.replace(/^> /, '')) as unknown };
  }

  it('prints the approval as text and reads "deny: …" as a denial with that reason', () => {
    const { screen, result } = run('deny: not before the release notes are out\n');
    expect(screen).toContain('Tool: deploy\nArgument names (3): service, version, canary\nArguments:\n');
    expect(screen).toContain('\nThe agent says (unverified):\n  What it does: Deploys a service to production.\n');
    expect(screen).toContain('Reply "approve" (or 1) to run it');
    expect(result).toEqual({ approved: false, reason: 'not before the release notes are out' });
  });

  it('asks again after a reply that is neither approve nor deny, then approves', () => {
    const { screen, result } = run('sure, go ahead\napprove\n');
    expect(screen).toContain('! Reply "approve" to run the tool, or "deny" to stop it');
    expect(result).toEqual({ approved: true });
  });
});
