/**
 * How many rejected responses each principal may still write to the event log in the current
 * window. Rejections are the one kind of event a client can cause at will (every other event
 * needs a question asked or a person's accepted answer), so without a bound one principal could
 * grow a durable store without end, over WebSocket and HTTP alike.
 *
 * A fixed window per principal (`windowMs` from its first rejection), not a sliding one: a count
 * and a start time per principal, and principals whose window has passed are swept out once the
 * map is large, so the bookkeeping itself cannot be grown by many principals.
 */
export class RejectionBudget {
  readonly #windows = new Map<string, { startedAt: number; logged: number; dropped: number }>();

  constructor(
    private readonly maxPerWindow: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Spend one rejection of `principalId`'s budget. `log` says whether it may be written; `firstDropped`
   * is true for the first one of the window that may not (the moment to say so, once).
   */
  take(principalId: string, now = Date.now()): { log: boolean; firstDropped: boolean } {
    let window = this.#windows.get(principalId);
    if (window === undefined || now - window.startedAt >= this.windowMs) {
      if (window === undefined && this.#windows.size >= sweepAbove) this.#sweep(now);
      window = { startedAt: now, logged: 0, dropped: 0 };
      this.#windows.set(principalId, window);
    }
    if (window.logged < this.maxPerWindow) {
      window.logged++;
      return { log: true, firstDropped: false };
    }
    window.dropped++;
    return { log: false, firstDropped: window.dropped === 1 };
  }

  #sweep(now: number): void {
    for (const [principalId, window] of this.#windows) if (now - window.startedAt >= this.windowMs) this.#windows.delete(principalId);
  }
}

/** Above this many principals with a window, passed windows are swept out before a new one is opened. */
const sweepAbove = 1024;
