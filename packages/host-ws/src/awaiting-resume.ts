import type { ListRecordsOptions, QuestionRecord, QuestionStore } from '@askseam/store';

/**
 * The settled records still awaiting their resume that this node reads at start and at each
 * reconcile. Every node reads them all today (a scan of the store's awaiting-resume index, small:
 * an answer leaves it once handed over). The one place to switch to a scan each node runs over a
 * part of the keyspace, when the store can split it (docs/scaling.md, "Limits").
 */
export function readAwaitingResume(store: QuestionStore, options: ListRecordsOptions): Promise<QuestionRecord[]> {
  return store.listAwaitingResume(options);
}
