import type { ListRecordsOptions, QuestionRecord, QuestionStore } from '@askseam/store';

/** How many parts the nodes of a cluster split the records awaiting their resume into. */
export const AWAITING_RESUME_PARTS = 16;

/** Reads the settled records still awaiting their resume (a reconcile's third read). */
export type AwaitingResumeReader = (options: ListRecordsOptions) => Promise<QuestionRecord[]>;

/** Every record awaiting its resume: what a node reads at start, and at each reconcile unless it shares the scan. */
export function readAwaitingResume(store: QuestionStore, options: ListRecordsOptions): Promise<QuestionRecord[]> {
  return store.listAwaitingResume(options);
}

/**
 * A reconcile's read of the records awaiting their resume, shared among the nodes when the store
 * can split it (`partitionsAwaitingResume`): each of `AWAITING_RESUME_PARTS` parts is read by the
 * node that takes its lease (`takeLease`, held for about one `reconcileMs`), so the cluster reads
 * each record about once per `reconcileMs` instead of once per node. A part whose lease another
 * node holds is that node's to read; a node that dies lets its leases expire, and the next
 * reconcile anywhere reads its parts. Any other store: every record, on every node.
 */
export function sharedAwaitingResumeReader(store: QuestionStore, takeLease: (part: number) => Promise<boolean>): AwaitingResumeReader {
  if (store.partitionsAwaitingResume !== true) return (options) => readAwaitingResume(store, options);
  return async (options) => {
    const parts = await Promise.all(
      Array.from({ length: AWAITING_RESUME_PARTS }, async (_, index) => {
        // No lease (taken by another node, or the bus is away): not ours this round.
        const mine = await takeLease(index).catch(() => false);
        return mine ? store.listAwaitingResume({ ...options, partition: { index, count: AWAITING_RESUME_PARTS } }) : [];
      }),
    );
    return parts.flat();
  };
}
