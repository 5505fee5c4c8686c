import type { QuestionRecord, QuestionStore } from '@askseam/store';

/** The numbers behind the console's charts, over one window of time cut into equal buckets. */
export interface ConsoleStats {
  from: string;
  to: string;
  bucketMs: number;
  /** Per bucket (by settle time), the answered questions' time to answer: median and 90th percentile, in ms. */
  timeToAnswer: { at: string; count: number; p50Ms?: number; p90Ms?: number }[];
  /** Questions pending at the end of each bucket. */
  pending: { at: string; count: number }[];
  /** Rejected responses in the window by reason (`not-pending`, `bad-response`, `forbidden`), from the sessions' event logs. */
  rejections: { reason: string; count: number }[];
  /** What was read: a window with more than the caps is shown from its newest part only (`complete: false`). */
  sample: { settled: number; sessions: number; complete: boolean };
}

export const statsLimits = { buckets: 24, maxSettled: 5000, maxSessions: 50, eventsPerSession: 1000 } as const;

/**
 * Read the store and count. Reads at most `maxSettled` settled records (newest asked first) and the
 * event logs of at most `maxSessions` of their sessions: an operator asks for a picture, and one
 * request must not walk a store of millions. The store, not this node's memory, so every node and
 * every restart draws the same charts.
 */
export async function consoleStats(store: QuestionStore, { now, windowMs }: { now: number; windowMs: number }): Promise<ConsoleStats> {
  const from = now - windowMs;
  const bucketMs = Math.ceil(windowMs / statsLimits.buckets);
  const pending = await store.listPending('all', { onUnreadable: () => {} });
  const settled: QuestionRecord[] = [];
  let complete = true;
  if (store.listSettled !== undefined) {
    let cursor: string | undefined;
    walk: do {
      const page = await store.listSettled({ limit: 500, onUnreadable: () => {}, ...(cursor === undefined ? {} : { cursor }) });
      for (const record of page.records) {
        // Newest asked first: once asks are older than the window, what is left settled before it too (all but long waits).
        if (Date.parse(record.askedAt) < from - windowMs) break walk;
        settled.push(record);
        if (settled.length >= statsLimits.maxSettled) {
          complete = page.next === undefined;
          break walk;
        }
      }
      cursor = page.next;
    } while (cursor !== undefined);
  } else complete = false;

  const bucketEnds = Array.from({ length: statsLimits.buckets }, (_, index) => from + (index + 1) * bucketMs);
  // Each record's times parsed once: read per bucket they were 24 Date.parse calls per record, most
  // of a 5,000-record request's time (bench section 12).
  const took: number[][] = bucketEnds.map(() => []);
  const all = [...pending, ...settled];
  const asked = new Float64Array(all.length);
  const ended = new Float64Array(all.length);
  all.forEach((record, index) => {
    asked[index] = Date.parse(record.askedAt);
    ended[index] = record.settledAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(record.settledAt);
    if (record.outcome !== 'answered' || record.settledAt === undefined) return;
    // The bucket whose (end - bucketMs, end] holds the settle time.
    const bucket = Math.ceil((ended[index]! - from) / bucketMs) - 1;
    if (bucket >= 0 && bucket < took.length) took[bucket]!.push(ended[index]! - asked[index]!);
  });
  const timeToAnswer = bucketEnds.map((end, bucket) => {
    const times = took[bucket]!.sort((a, b) => a - b);
    return { at: new Date(end).toISOString(), count: times.length, ...(times.length === 0 ? {} : { p50Ms: percentile(times, 0.5), p90Ms: percentile(times, 0.9) }) };
  });
  const pendingOverTime = bucketEnds.map((end) => {
    let count = 0;
    for (let index = 0; index < all.length; index++) if (asked[index]! <= end && ended[index]! > end) count++;
    return { at: new Date(end).toISOString(), count };
  });

  const sessions = [...new Set(all.map((record) => record.sessionId))];
  if (sessions.length > statsLimits.maxSessions) complete = false;
  const rejections = new Map<string, number>();
  for (const sessionId of sessions.slice(0, statsLimits.maxSessions)) {
    const events = await store.readEvents(sessionId, { limit: statsLimits.eventsPerSession });
    if (events.length === statsLimits.eventsPerSession) complete = false;
    for (const event of events) {
      if (event.type !== 'response_rejected' || Date.parse(event.at) < from) continue;
      rejections.set(event.data.reason, (rejections.get(event.data.reason) ?? 0) + 1);
    }
  }
  return {
    from: new Date(from).toISOString(),
    to: new Date(now).toISOString(),
    bucketMs,
    timeToAnswer,
    pending: pendingOverTime,
    rejections: [...rejections].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
    sample: { settled: settled.length, sessions: Math.min(sessions.length, statsLimits.maxSessions), complete },
  };
}

/** The nearest-rank percentile of sorted numbers. */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1]!;
}
