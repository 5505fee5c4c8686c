import { createInterface, type Interface } from 'node:readline';

/**
 * Lines from a stream, one at a time, shared by every ask of one provider: a pipe may deliver the
 * replies to several asks in one chunk, and a reader per ask would lose what it read ahead.
 */
export class LineReader {
  readonly #lines: string[] = [];
  readonly #waiters = new Set<(line: string | undefined) => void>();
  readonly #readline: Interface;
  #ended = false;

  constructor(input: NodeJS.ReadableStream) {
    this.#readline = createInterface({ input, terminal: false, crlfDelay: Infinity });
    this.#readline.on('line', (line) => {
      const waiter = this.#waiters.values().next().value;
      if (waiter === undefined) this.#lines.push(line);
      else {
        this.#waiters.delete(waiter);
        waiter(line);
      }
      this.#idle();
    });
    this.#readline.on('close', () => {
      this.#ended = true;
      for (const waiter of this.#waiters) waiter(undefined);
      this.#waiters.clear();
    });
    this.#idle();
  }

  /** The next line, or undefined at the end of the input. Rejects with the signal's reason on abort. */
  next(signal?: AbortSignal): Promise<string | undefined> {
    const queued = this.#lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.#ended) return Promise.resolve(undefined);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#waiters.delete(waiter);
        this.#idle();
        reject(signal?.reason);
      };
      const waiter = (line: string | undefined) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(line);
      };
      this.#waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#readline.resume();
    });
  }

  close(): void {
    this.#readline.close();
  }

  // Paused while nobody waits, so an open stdin does not keep the process alive between questions.
  #idle(): void {
    if (this.#waiters.size === 0 && !this.#ended) this.#readline.pause();
  }
}
