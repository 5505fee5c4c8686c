import { idStep } from './scripts.js';

/**
 * Where a store's next save numbers and event ids start: clock ticks above every tick it has given
 * out or seen, and not below the time in ms, so numbers from different nodes follow time when they
 * do not meet in one bucket (where the bucket's own clock orders them). A tick gives id
 * `tick × idStep + bucket` in a bucket (scripts.ts).
 */
export class IdClock {
  #tick = 0;

  /** The first of `count` ticks, reserved for this caller. */
  reserve(count: number): number {
    const first = Math.max(this.#tick + 1, Date.now());
    this.#tick = first + count - 1;
    return first;
  }

  /** The lowest id a tick gives in a bucket. */
  floor(tick: number, bucket: number): number {
    return tick * idStep + bucket;
  }

  /** An id Redis handed out: later reservations lie above it. */
  observe(id: number): void {
    const tick = Math.floor(id / idStep);
    if (tick > this.#tick) this.#tick = tick;
  }
}
