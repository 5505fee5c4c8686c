/**
 * Since when this node's liveness key has been in Redis without a gap, as this process can prove it
 * from its own refreshes (`QuestionBus.livenessUnbrokenSince`). A `SET … PX ttl` sent at `sent`
 * keeps the key until at least `sent + ttl` (Redis sets it after it was sent). The stretch goes on
 * while each refresh is confirmed before the key the previous one set can have expired; a refresh
 * confirmed later starts a new stretch at its confirmation. Times are `performance.now()`.
 */
export class LivenessStretch {
  readonly #ttlMs: number;
  /** Not trusted this close to the end of the key: another node's check takes time to reach Redis, and clocks drift. */
  readonly #marginMs: number;
  #since: number | undefined;
  /** Until when the key is certainly there (the latest confirmed refresh's send time + ttl). */
  #until = Number.NEGATIVE_INFINITY;

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
    this.#marginMs = ttlMs / 4;
  }

  /** A refresh sent at `sent` was confirmed at `confirmed`. */
  refreshed(sent: number, confirmed: number): void {
    if (this.#since === undefined || confirmed >= this.#until - this.#marginMs) this.#since = confirmed;
    this.#until = Math.max(this.#until, sent + this.#ttlMs);
  }

  /** The start of the current stretch, or undefined when the key may be gone now (or was never set). */
  since(): number | undefined {
    return performance.now() < this.#until - this.#marginMs ? this.#since : undefined;
  }
}
