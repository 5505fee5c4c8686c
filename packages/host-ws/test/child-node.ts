// A host node in a child process, as the multi-process tests drive it: commands go in on stdin as
// JSON lines, and the node reports on stdout one JSON line per thing that happened.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** One host node in a child process: send it commands, wait for what it reports. */
export class ChildNode<Line> {
  readonly lines: Line[] = [];
  readonly #waiters = new Set<() => void>();
  stderr = '';
  readonly exited: Promise<void>;

  constructor(
    readonly nodeId: string,
    readonly child: ChildProcess,
    /** How long `wait` waits when the caller does not say. */
    readonly waitMs: number,
  ) {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      this.lines.push(JSON.parse(text) as Line);
      for (const wake of this.#waiters) wake();
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** Close its stdin (the child closes its host and exits); killed if it has not exited within 5 s. Nothing to do once it has exited. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin!.end();
    const gone = await Promise.race([this.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 5_000))]);
    if (!gone) this.child.kill('SIGKILL');
  }

  send(command: Record<string, unknown>): void {
    this.child.stdin!.write(`${JSON.stringify(command)}\n`);
  }

  /** The first line (seen so far or still to come) that `pick` accepts. */
  wait<T>(pick: (line: Line) => T | undefined, what: string, ms = this.waitMs): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (const line of this.lines) {
          const found = pick(line);
          if (found !== undefined) {
            this.#waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        // Everything the node said, and whether it still runs: what a timed-out multi-process test needs to be read.
        reject(new Error(`node ${this.nodeId}: no ${what} within ${ms} ms; exit code ${this.child.exitCode} signal ${this.child.signalCode}; lines ${JSON.stringify(this.lines)}; stderr ${this.stderr}`));
      }, ms);
      this.#waiters.add(check);
      check();
    });
  }
}
