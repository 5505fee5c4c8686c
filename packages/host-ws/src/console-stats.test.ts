// The console's chart numbers from a real in-memory store, on a fixed clock: which bucket an answer
// falls in, its percentiles, how many were waiting at the end of each bucket, and the rejections
// inside the window only.
import { MemoryQuestionStore, type NewQuestionRecord } from '@askseam/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleStats } from './console-stats.js';

afterEach(() => {
  vi.useRealTimers();
});

const now = Date.parse('2026-03-01T12:00:00.000Z');
const windowMs = 3_600_000;
const from = now - windowMs;
/** One hour in 24 buckets. */
const bucketMs = 150_000;
const at = (seconds: number) => from + seconds * 1000;
const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

function record(rpcId: string, askedSecond: number): NewQuestionRecord {
  return {
    rpcId,
    sessionId: `session-${rpcId}`,
    askedBy: 'agent-a',
    askedAt: new Date(at(askedSecond)).toISOString(),
    questions: [{ id: 'deploy', question: 'Deploy?', options: [{ label: 'Yes' }, { label: 'No' }] }],
    mode: 'detached',
  };
}

describe('consoleStats', () => {
  it('puts each answer in the bucket of its settle time, counts what waited at each bucket end, and only rejections in the window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = new MemoryQuestionStore();
    for (const [rpcId, asked] of [['a', 10], ['b', 20], ['c', 200], ['d', 300], ['e', 50]] as const) await store.save(record(rpcId, asked));
    const settle = async (rpcId: string, second: number, outcome: 'answered' | 'cancelled') => {
      vi.setSystemTime(at(second));
      await store.claim(rpcId, outcome, outcome === 'answered' ? yes : undefined);
    };
    await settle('a', 100, 'answered'); // bucket 0, 90 s
    await settle('b', 150, 'answered'); // the last millisecond of bucket 0, 130 s
    await settle('c', 400, 'answered'); // bucket 2, 200 s
    await settle('d', 500, 'cancelled'); // not an answer: waited until then, no time to answer
    const reject = (second: number) => {
      vi.setSystemTime(at(second));
      return store.appendEvent({ type: 'response_rejected', sessionId: 'session-e', rpcId: 'e', data: { reason: 'bad-response', principalId: 'p', channel: 'websocket' } });
    };
    await reject(-10); // before the window
    await reject(60);
    await reject(61);

    const stats = await consoleStats(store, { now, windowMs });
    expect(stats.bucketMs).toBe(bucketMs);
    expect(stats.timeToAnswer).toHaveLength(24);
    expect(stats.timeToAnswer[0]).toEqual({ at: new Date(from + bucketMs).toISOString(), count: 2, p50Ms: 90_000, p90Ms: 130_000 });
    expect(stats.timeToAnswer[1]).toEqual({ at: new Date(from + 2 * bucketMs).toISOString(), count: 0 });
    expect(stats.timeToAnswer[2]).toEqual({ at: new Date(from + 3 * bucketMs).toISOString(), count: 1, p50Ms: 200_000, p90Ms: 200_000 });
    expect(stats.timeToAnswer.slice(3).every((bucket) => bucket.count === 0)).toBe(true);
    // e waits throughout; c and d were both waiting at 300 s (d asked that very millisecond); d until 500 s.
    expect(stats.pending.slice(0, 5).map((bucket) => bucket.count)).toEqual([1, 3, 2, 1, 1]);
    expect(stats.pending.at(-1)).toEqual({ at: new Date(now).toISOString(), count: 1 });
    expect(stats.rejections).toEqual([{ reason: 'bad-response', count: 2 }]);
    expect(stats.sample).toEqual({ settled: 4, sessions: 5, complete: true });
  });
});
