import type { QuestionRecord, QuestionStore } from '@askseam/store';
import type { HostLogger } from './logger.js';

export type ResumeHandler = (record: QuestionRecord) => void | Promise<void>;

/**
 * Hands settled records whose asker is not waiting in this process (detached asks, and blocking
 * asks whose process died) to the app's resume handler, and marks them resumed in the store once
 * the handler has finished. A record is handed over at most once per process; one that was never
 * marked (no handler, a handler that threw, a crash in between) is handed over again by the next
 * host that starts on the store.
 */
export class Resumer {
  readonly #inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly store: QuestionStore,
    private readonly onResume: ResumeHandler | undefined,
    private readonly logger: HostLogger,
    /** With several nodes: take the record's lease first, so that one node at a time hands it over. */
    private readonly lease?: (rpcId: string) => Promise<boolean>,
  ) {}

  resume(record: QuestionRecord): void {
    if (this.#inFlight.has(record.rpcId)) return;
    const handler = this.onResume;
    if (handler === undefined) {
      this.logger.warn('a question was settled but no onResume handler is registered; it stays in the store for the next host that has one', {
        rpcId: record.rpcId,
        outcome: record.outcome,
      });
      return;
    }
    const done = this.#deliver(handler, record).finally(() => this.#inFlight.delete(record.rpcId));
    this.#inFlight.set(record.rpcId, done);
  }

  /** Resolves once every handler started so far has finished and been recorded. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
  }

  async #deliver(handler: ResumeHandler, record: QuestionRecord): Promise<void> {
    if (this.lease !== undefined) {
      let mine: boolean;
      try {
        mine = await this.lease(record.rpcId);
      } catch (error) {
        this.logger.error('could not take the resume lease; the record is tried again at the next reconcile', { rpcId: record.rpcId, error: String(error) });
        return;
      }
      if (!mine) {
        this.logger.debug('another node is handing this record to its resume handler', { rpcId: record.rpcId });
        return;
      }
    }
    try {
      // A fresh copy each time: the handler may keep or change it.
      await handler(structuredClone(record));
    } catch (error) {
      this.logger.error('onResume threw; the record stays unresumed and is handed over again when a host next starts on this store', {
        rpcId: record.rpcId,
        error: String(error),
      });
      return;
    }
    try {
      await this.store.markResumed(record.rpcId);
    } catch (error) {
      this.logger.error('could not mark a record resumed; a restarted host will hand it to onResume again', { rpcId: record.rpcId, error: String(error) });
    }
  }
}
