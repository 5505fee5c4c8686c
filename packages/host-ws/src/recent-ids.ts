/**
 * How many settled rpcIds a node on a bus remembers. Only news from other nodes can come late or
 * twice, and it comes within seconds (a bus hop, a reconcile every `reconcileMs`): far fewer than
 * ten thousand questions settle in that time, and the bound keeps a long-lived node's memory flat.
 */
export const SETTLED_IDS_REMEMBERED_ON_A_BUS = 10_000;

/**
 * A bounded set of ids that forgets the oldest first: remembers what was seen recently without
 * growing with the host's lifetime.
 */
export class RecentIds {
  readonly #ids = new Set<string>();

  constructor(private readonly capacity: number) {}

  add(id: string): void {
    if (this.capacity === 0) return;
    this.#ids.delete(id);
    this.#ids.add(id);
    // A Set iterates in insertion order, so its first value is the oldest.
    if (this.#ids.size > this.capacity) this.#ids.delete(this.#ids.values().next().value as string);
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }
}
