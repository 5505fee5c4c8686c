import type { NewQuestionEvent, QuestionStore } from '@askseam/store';
import type { HostLogger } from './logger.js';

/**
 * Appends the host's events to the store's per-session log, one after another in the order they
 * happened, without ever holding up a question: an append that fails is logged and the question
 * goes on (an audit gap is bad; a question lost to an audit failure is worse).
 */
export class EventLog {
  #tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: QuestionStore,
    private readonly logger: HostLogger,
  ) {}

  append(event: NewQuestionEvent): void {
    // Chained, not fired side by side: a networked store could otherwise reorder them.
    this.#tail = this.#tail.then(
      () =>
        this.store.appendEvent(event).then(
          () => {},
          (error: unknown) => this.logger.error('could not append to the event log', { event: event.type, rpcId: event.rpcId, error: String(error) }),
        ),
    );
  }

  /** Resolves once every event appended so far has been written (or failed). */
  drain(): Promise<void> {
    return this.#tail;
  }
}
