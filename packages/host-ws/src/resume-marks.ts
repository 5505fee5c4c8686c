import type { QuestionStore } from '@askseam/store';
import type { HostLogger } from './logger.js';

const firstRetryMs = 100;
const maxRetryMs = 2_000;

/**
 * Records in the store that a settled question reached its asker or its resume handler, and keeps
 * trying while the store cannot be reached: a mark that is dropped leaves the record awaiting its
 * resume, so a later reconcile, another node or a restarted host would hand the same answer over
 * again. Retries end only when the mark lands or the host closes (`stop`).
 */
export class ResumeMarks {
  #stopped = false;
  readonly #wakers = new Set<() => void>();

  constructor(
    private readonly store: QuestionStore,
    private readonly logger: HostLogger,
  ) {}

  /** Mark `rpcId` resumed, retrying on failure. Never rejects. */
  async mark(rpcId: string): Promise<void> {
    for (let delay = firstRetryMs; ; delay = Math.min(delay * 2, maxRetryMs)) {
      try {
        await this.store.markResumed(rpcId);
        return;
      } catch (error) {
        if (this.#stopped) {
          this.logger.error('could not mark a record resumed before the host closed; a host started later may hand it to onResume again', { rpcId, error: String(error) });
          return;
        }
        this.logger.warn('could not mark a record resumed; trying again', { rpcId, error: String(error) });
        await this.#pause(delay);
      }
    }
  }

  /** The host is closing: every mark still failing gets one last try now, then is given up. */
  stop(): void {
    this.#stopped = true;
    for (const wake of this.#wakers) wake();
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wakers.add(wake);
    });
  }
}
