/**
 * Where the host is in its life, as one value (several booleans could disagree):
 * - `loading`: subscribed to the bus (if any), reading the store's pending questions; bus news waits.
 * - `starting`: the store is read; the listener is being opened.
 * - `running`: serving.
 * - `closing`: close() (or a failed start) began; nothing new is accepted, work in flight finishes.
 * - `closed`: close() has finished.
 * Asks are taken from `loading` on: the seam may call the provider as soon as it is registered.
 */
export type HostState = 'loading' | 'starting' | 'running' | 'closing' | 'closed';

export class Lifecycle {
  #state: HostState = 'loading';

  get state(): HostState {
    return this.#state;
  }

  /** True from the moment close() (or a failed start) began: nothing new may start. */
  get ended(): boolean {
    return this.#state === 'closing' || this.#state === 'closed';
  }

  /** Move on; never back (a closing host does not become running again). */
  enter(next: HostState): void {
    if (order[next] > order[this.#state]) this.#state = next;
  }
}

const order: Record<HostState, number> = { loading: 0, starting: 1, running: 2, closing: 3, closed: 4 };

/**
 * Work the host started and close() must wait for (store writes, judgements, hand-overs). Each
 * promise is kept until it settles; `track` never rejects on its own.
 */
export class BackgroundWork {
  readonly #inFlight = new Set<Promise<unknown>>();

  /** Keep `work` until it settles, so that close() can wait for it. It must not reject. */
  track(work: Promise<unknown>): void {
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work));
  }

  /** Resolves once nothing tracked is in flight, including work started by work that finished meanwhile. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }
}
