import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryQuestionStore } from './memory.js';

/**
 * The retention rule written the slow, obvious way: after each append, while the logs hold more
 * than `retainEvents`, drop the oldest event of the longest log (of two as long, the one whose
 * oldest event is older). The store must keep exactly what this keeps.
 */
function referenceRetention(appends: readonly string[], retainEvents: number, retainEventsPerSession: number): Map<string, number[]> {
  const logs = new Map<string, number[]>();
  let count = 0;
  appends.forEach((sessionId, index) => {
    const id = index + 1;
    const log = logs.get(sessionId) ?? [];
    logs.set(sessionId, log);
    log.push(id);
    count++;
    if (log.length > retainEventsPerSession) {
      log.shift();
      count--;
      if (log.length === 0) logs.delete(sessionId);
    }
    while (count > retainEvents) {
      let largest: [string, number[]] | undefined;
      for (const entry of logs) {
        const current = largest?.[1];
        if (current === undefined || entry[1].length > current.length || (entry[1].length === current.length && entry[1][0]! < current[0]!)) largest = entry;
      }
      const [session, trimmed] = largest!;
      trimmed.shift();
      count--;
      if (trimmed.length === 0) logs.delete(session);
    }
  });
  return logs;
}

describe('MemoryQuestionStore event retention (the largest log is found without a scan)', () => {
  it('keeps exactly the events a full scan of every session would keep', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 300 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 8 }),
        async (appends, retainEvents, retainEventsPerSession) => {
          const store = new MemoryQuestionStore({ retainEvents, retainEventsPerSession });
          const ids: number[] = [];
          for (const sessionId of appends) ids.push((await store.appendEvent({ type: 'timed_out', sessionId, rpcId: `r${ids.length}`, data: {} })).id);
          const expected = referenceRetention(appends, retainEvents, retainEventsPerSession);
          for (const sessionId of new Set(appends)) {
            const kept = (await store.readEvents(sessionId)).map((event) => ids.indexOf(event.id) + 1);
            expect(kept).toEqual(expected.get(sessionId) ?? []);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('still trims the right session after many sessions came and went (the heap is rebuilt)', async () => {
    const store = new MemoryQuestionStore({ retainEvents: 50, retainEventsPerSession: 1000 });
    const appends: string[] = [];
    // Many one-event sessions push their own out; then one long session must lose its oldest first.
    for (let index = 0; index < 400; index++) appends.push(`s${index}`);
    for (let index = 0; index < 30; index++) appends.push('long');
    for (let index = 0; index < 40; index++) appends.push(`t${index % 7}`);
    const ids: number[] = [];
    for (const sessionId of appends) ids.push((await store.appendEvent({ type: 'timed_out', sessionId, rpcId: `r${ids.length}`, data: {} })).id);
    const expected = referenceRetention(appends, 50, 1000);
    for (const sessionId of new Set(appends)) {
      const kept = (await store.readEvents(sessionId)).map((event) => ids.indexOf(event.id) + 1);
      expect(kept).toEqual(expected.get(sessionId) ?? []);
    }
  });
});
