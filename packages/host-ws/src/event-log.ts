import type { NewQuestionEvent, QuestionStore } from '@askseam/store';
import type { HostLogger } from './logger.js';

/**
 * Appends the host's events to the store's per-session log, in the order they happened, without
 * ever holding up a question: an append that fails is logged and the question goes on (an audit
 * gap is bad; a question lost to an audit failure is worse).
 *
 * Events appended together (up to the next microtask checkpoint: the events of one frame, one
 * burst of asks) are written together: with a store that has `appendEvents`, in one call (one
 * transaction, one round trip) instead of one each; with any other, one after another.
 */
export class EventLog {
  #tail: Promise<void> = Promise.resolve();
  /** Events appended since the last write was scheduled, not yet handed to the store. */
  #batch: NewQuestionEvent[] = [];

  constructor(
    private readonly store: QuestionStore,
    private readonly logger: HostLogger,
  ) {}

  append(event: NewQuestionEvent): void {
    this.#batch.push(event);
    // The first event of a batch schedules the write; whatever is appended before it runs joins it.
    if (this.#batch.length === 1) queueMicrotask(() => this.#flush());
  }

  /** Resolves once every event appended so far has been written (or failed). */
  drain(): Promise<void> {
    this.#flush();
    return this.#tail;
  }

  #flush(): void {
    if (this.#batch.length === 0) return;
    const events = this.#batch;
    this.#batch = [];
    // Chained, not fired side by side: a networked store could otherwise reorder them.
    this.#tail = this.#tail.then(() => this.#write(events));
  }

  async #write(events: NewQuestionEvent[]): Promise<void> {
    // One event goes through appendEvents too: appendEvent would return a copy nobody reads.
    if (this.store.appendEvents !== undefined) {
      try {
        await this.store.appendEvents(events);
        return;
      } catch (error) {
        // All or none: nothing of the batch was kept. One by one, so that one bad event costs only itself.
        this.logger.debug('appending a batch of events failed; appending them one by one', { count: events.length, error: String(error) });
      }
    }
    for (const event of events) {
      try {
        await this.store.appendEvent(event);
      } catch (error) {
        this.logger.error('could not append to the event log', { event: event.type, rpcId: event.rpcId, error: String(error) });
      }
    }
  }
}
