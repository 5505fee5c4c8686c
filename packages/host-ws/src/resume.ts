import { humanOutcomes, type QuestionRecord, type QuestionStore } from '@askseam/store';
import type { HostLogger } from './logger.js';
import type { ResumeMarks } from './resume-marks.js';

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
    /** Marks a record resumed once its handler finished, retrying while the store is away. */
    private readonly marks: ResumeMarks,
    /** With several nodes: take the record's lease first, so that one node at a time hands it over. */
    private readonly lease?: (rpcId: string) => Promise<boolean>,
  ) {}

  /** `leased`: the caller already holds the record's resume lease (it took it to give the answer to an asker who then gave up). */
  resume(record: QuestionRecord, { leased = false }: { leased?: boolean } = {}): void {
    if (this.#inFlight.has(record.rpcId)) return;
    const handler = this.onResume;
    if (handler === undefined) {
      this.logger.warn('a question was settled but no onResume handler is registered; it stays in the store for the next host that has one', {
        rpcId: record.rpcId,
        outcome: record.outcome,
      });
      return;
    }
    const done = this.#deliver(handler, record, leased).finally(() => this.#inFlight.delete(record.rpcId));
    this.#inFlight.set(record.rpcId, done);
  }

  /** Resolves once every handler started so far has finished and been recorded. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
  }

  async #deliver(handler: ResumeHandler, record: QuestionRecord, leased: boolean): Promise<void> {
    if (this.lease !== undefined && !leased) {
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
    if (this.lease !== undefined) {
      // Under the lease, the store says whether it is still ours to hand over: the copy we were given
      // may predate another node's resume or the asker taking it (and its mark), or come from a bus message.
      let current: QuestionRecord | undefined;
      try {
        current = await this.store.get(record.rpcId);
      } catch (error) {
        this.logger.error('could not read a record before handing it to onResume; the next reconcile tries again once the lease expires', { rpcId: record.rpcId, error: String(error) });
        return;
      }
      if (current?.outcome === undefined || current.resumedAt !== undefined || !humanOutcomes.includes(current.outcome)) return;
      record = current;
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
    // Retried until it lands: until then this record stays in #inFlight here, and under our lease elsewhere.
    await this.marks.mark(record.rpcId);
  }
}
