import type { QuestionRecord } from '@askseam/store';
import type { HostLogger } from './logger.js';

export type Notifier = (record: QuestionRecord) => void | Promise<void>;

/**
 * Tell the app a question was asked (to post it to Slack, send an email, …) without waiting for
 * it: the question is already saved and delivered, and a notifier that throws, rejects or hangs
 * must never hold it up or lose it.
 */
export function callNotifier(notify: Notifier | undefined, record: QuestionRecord, logger: HostLogger): void {
  if (notify === undefined) return;
  const failed = (error: unknown) => logger.error('notify failed; the question is still pending and deliverable', { rpcId: record.rpcId, error: String(error) });
  try {
    const result = notify(structuredClone(record));
    if (result !== undefined && typeof (result as Promise<void>).then === 'function') (result as Promise<void>).then(undefined, failed);
  } catch (error) {
    failed(error);
  }
}
