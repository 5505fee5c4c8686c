import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** Fail loudly, never skip: these tests are the only proof the TTY prompts work. */
export function requireTmux(): void {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'pipe' });
  } catch {
    throw new Error('The terminal tests drive a real pseudo-terminal with tmux, which is not installed. Install it (apt-get install -y tmux) and run the tests again.');
  }
}

let sessions = 0;

/** A program running in its own tmux server (its own socket), 100×40, whose screen can be read and keys sent. */
export class TmuxSession {
  readonly socket = `askseam-test-${process.pid}-${++sessions}`;

  constructor(command: string, env: Record<string, string> = {}) {
    const exports = Object.entries(env).map(([name, value]) => `${name}=${value} `).join('');
    // "; echo EXITED" shows on the screen when the program has ended, and keeps the pane open to read.
    this.#tmux('new-session', '-d', '-s', 'main', '-x', '100', '-y', '40', `${exports}${command}; echo EXITED; sleep 60`);
  }

  screen(): string {
    return this.#tmux('capture-pane', '-p', '-t', 'main');
  }

  /** Named keys (Enter, Down, Space, C-c) or, with `literal`, text typed as is. */
  keys(keys: string[], literal = false): void {
    this.#tmux('send-keys', '-t', 'main', ...(literal ? ['-l'] : []), ...keys);
  }

  type(text: string): void {
    this.keys([text], true);
  }

  /** Wait until the screen shows `pattern`; fail with the screen as it is when it does not in time. */
  async waitFor(pattern: RegExp | string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`The screen never showed ${String(pattern)}. It shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  kill(): void {
    try {
      this.#tmux('kill-server');
    } catch {
      // Already gone.
    }
  }

  #tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }
}

/** The JSON a finished run wrote to `file`. */
export function resultIn(file: string): unknown {
  if (!existsSync(file)) throw new Error(`The program wrote no result to ${file}.`);
  return JSON.parse(readFileSync(file, 'utf8'));
}
