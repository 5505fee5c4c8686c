/**
 * When a bus node may take another node for gone, for `QuestionBus.isNodeAlive` implementations.
 *
 * Nodes refresh their liveness every third of the ttl, so a node's liveness expires only after it
 * missed refreshes for two thirds of the ttl or more. A node that was itself cut off from the bus's
 * server that long (a restart, every connection terminated) may find, once back, that the others'
 * liveness expired while they were cut off with it and before they could refresh: for one ttl after
 * it is back, it must not take them for gone ("alive" only defers a resume; "gone" hands a live
 * asker's answer to `onResume` elsewhere). A short drop (an idle connection closed by a proxy)
 * changes nothing, so a connection that drops often does not keep every node alive.
 */
export class OutageGrace {
  readonly #ttlMs: number;
  /** When (performance.now()) the server was first found unreachable; undefined while it is reachable. */
  #lostAt: number | undefined;
  #graceUntil = 0;

  constructor(livenessTtlMs: number) {
    this.#ttlMs = livenessTtlMs;
  }

  /** The server could not be reached: a lost connection, a command that failed for that reason. */
  lost(): void {
    this.#lostAt ??= performance.now();
  }

  /** The server answered again (a command succeeded, a connection was re-made). */
  reached(): void {
    const lostAt = this.#lostAt;
    if (lostAt === undefined) return;
    this.#lostAt = undefined;
    const now = performance.now();
    // Noticed up to a refresh interval late (a command fails only when one is sent): a third of the
    // ttl measured means others may have missed two thirds.
    if (now - lostAt >= this.#ttlMs / 3) this.#graceUntil = now + this.#ttlMs;
  }

  /** True while a node whose liveness expired may only have been cut off with this one. */
  get active(): boolean {
    return performance.now() < this.#graceUntil;
  }
}
