/**
 * Bad POSTs (unreadable, or a rejected response other than `not-pending`) per sender within a
 * sliding window: the HTTP side of the socket's `maxBadFrames`, which closes one connection.
 * A sender is whoever the transport names (a principal from one client address), never a whole
 * principal: the shared token, anonymous access and one link are many people, and one of them
 * sending garbage must not refuse the others' correct answers.
 *
 * Senders whose window has passed are swept out (at most once a window, on use), so the map is
 * bounded by the senders of the last window, not of the process's life.
 */
export class BadResponseCounter {
  /** When each sender's recent bad responses came (ms), oldest first; never more than `max`. */
  readonly #times = new Map<string, number[]>();
  #sweptAt: number;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#sweptAt = now();
  }

  /** How many senders are remembered (for tests and metrics). */
  get size(): number {
    return this.#times.size;
  }

  /** True when `sender` has sent `max` bad responses within the window: refuse before reading the body. */
  isOver(sender: string): boolean {
    const now = this.#tick();
    return this.#recent(sender, now).length >= this.max;
  }

  /** Count one bad response of `sender`. */
  count(sender: string): void {
    const now = this.#tick();
    const times = this.#recent(sender, now);
    times.push(now);
    if (times.length > this.max) times.shift();
    this.#times.set(sender, times);
  }

  /** Forget senders with nothing recent; once a window, so the cost is spread over the requests. */
  sweep(now = this.now()): void {
    this.#sweptAt = now;
    for (const [sender, times] of this.#times) if (now - (times.at(-1) ?? -Infinity) >= this.windowMs) this.#times.delete(sender);
  }

  #tick(): number {
    const now = this.now();
    if (now - this.#sweptAt >= this.windowMs) this.sweep(now);
    return now;
  }

  /** The sender's times still in the window (the stored list, trimmed in place); empty when none. */
  #recent(sender: string, now: number): number[] {
    const times = this.#times.get(sender);
    if (times === undefined) return [];
    while (times.length > 0 && now - times[0]! >= this.windowMs) times.shift();
    if (times.length === 0) this.#times.delete(sender);
    return times;
  }
}
