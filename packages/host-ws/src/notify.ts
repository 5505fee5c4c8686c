import type { QuestionRecord } from '@askseam/store';
import type { HostLogger } from './logger.js';
import type { Answerer } from './route.js';

/** What `notify` gets besides the question. */
export interface NotifyContext {
  /** A one-question link (the `linkBaseUrl` page with `?link=…`) to put in the message; absent without `linkBaseUrl`. */
  link?: string;
  /**
   * With a host `route`: the tier just reached (0 when the question is asked, then each later tier
   * as it is reached) and its answerers, so the message goes to them. Absent for an unrouted question.
   */
  tier?: number;
  answerers?: Answerer[];
}

export type Notifier = (record: QuestionRecord, context: NotifyContext) => void | Promise<void>;

/**
 * Tell the app a question was asked (to post it to Slack, send an email, …) without waiting for
 * it: the question is already saved and delivered, and a notifier that throws, rejects or hangs
 * must never hold it up or lose it.
 */
export function callNotifier(
  notify: Notifier | undefined,
  record: QuestionRecord,
  logger: HostLogger,
  linkFor?: (record: QuestionRecord) => string | undefined,
  route?: { tier: number; answerers: Answerer[] },
): void {
  if (notify === undefined) return;
  const failed = (error: unknown) => logger.error('notify failed; the question is still pending and deliverable', { rpcId: record.rpcId, error: String(error) });
  try {
    const link = linkFor?.(record);
    const result = notify(structuredClone(record), { ...(link === undefined ? {} : { link }), ...route });
    if (result !== undefined && typeof (result as Promise<void>).then === 'function') (result as Promise<void>).then(undefined, failed);
  } catch (error) {
    failed(error);
  }
}
