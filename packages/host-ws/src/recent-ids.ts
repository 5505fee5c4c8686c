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
