import { MemoryQuestionStore, type NewQuestionEvent, type QuestionStore } from '@askseam/store';
import { describe, expect, it } from 'vitest';
import { EventLog } from './event-log.js';
import { silentLogger } from './logger.js';

const timedOut = (rpcId: string): NewQuestionEvent => ({ type: 'timed_out', sessionId: 's', rpcId, data: {} });
const broken = { type: 'aborted', sessionId: 's', rpcId: 'bad', data: { by: 'magic' } } as never as NewQuestionEvent;

/** A memory store that records how it was written to. */
function countingStore(withBatches: boolean) {
  const inner = new MemoryQuestionStore();
  const calls: string[] = [];
  const store: QuestionStore = {
    save: (record) => inner.save(record),
    claim: (rpcId, outcome, answer) => inner.claim(rpcId, outcome, answer),
    get: (rpcId) => inner.get(rpcId),
    listPending: (sessions) => inner.listPending(sessions),
    listAwaitingResume: () => inner.listAwaitingResume(),
    markResumed: (rpcId) => inner.markResumed(rpcId),
    appendEvent: (event) => {
      calls.push(`one:${event.rpcId}`);
      return inner.appendEvent(event);
    },
    readEvents: (sessionId, options) => inner.readEvents(sessionId, options),
    ...(withBatches
      ? {
          appendEvents: (events: readonly NewQuestionEvent[]) => {
            calls.push(`batch:${events.map((event) => event.rpcId).join(',')}`);
            return inner.appendEvents(events);
          },
        }
      : {}),
  };
  return { store, calls, inner };
}

describe('EventLog', () => {
  it('writes the events of one tick in one appendEvents call, in order', async () => {
    const { store, calls, inner } = countingStore(true);
    const log = new EventLog(store, silentLogger);
    log.append(timedOut('a'));
    log.append(timedOut('b'));
    log.append(timedOut('c'));
    await log.drain();
    expect(calls).toEqual(['batch:a,b,c']);
    expect((await inner.readEvents('s')).map((event) => event.rpcId)).toEqual(['a', 'b', 'c']);
  });

  it('writes a later tick after the earlier one, never before it', async () => {
    const { store, calls, inner } = countingStore(true);
    const log = new EventLog(store, silentLogger);
    log.append(timedOut('a'));
    log.append(timedOut('b'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    log.append(timedOut('c'));
    log.append(timedOut('d'));
    await log.drain();
    expect(calls).toEqual(['batch:a,b', 'batch:c,d']);
    expect((await inner.readEvents('s')).map((event) => event.rpcId)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('loses only the bad event of a refused batch: the others are appended one by one', async () => {
    const { store, calls, inner } = countingStore(true);
    const log = new EventLog(store, silentLogger);
    log.append(timedOut('a'));
    log.append(broken);
    log.append(timedOut('c'));
    await log.drain();
    expect(calls).toEqual(['batch:a,bad,c', 'one:a', 'one:bad', 'one:c']);
    expect((await inner.readEvents('s')).map((event) => event.rpcId)).toEqual(['a', 'c']);
  });

  it('appends one by one, in order, to a store without appendEvents', async () => {
    const { store, calls, inner } = countingStore(false);
    const log = new EventLog(store, silentLogger);
    log.append(timedOut('a'));
    log.append(timedOut('b'));
    await log.drain();
    expect(calls).toEqual(['one:a', 'one:b']);
    expect((await inner.readEvents('s')).map((event) => event.rpcId)).toEqual(['a', 'b']);
  });

  it('writes what is still queued when drained in the same tick', async () => {
    const { store, inner } = countingStore(true);
    const log = new EventLog(store, silentLogger);
    log.append(timedOut('a'));
    // No tick has passed: drain must flush the batch itself rather than wait for the scheduled write.
    const drained = log.drain();
    await drained;
    expect((await inner.readEvents('s')).map((event) => event.rpcId)).toEqual(['a']);
  });
  it('writes a lone event with appendEvents too: appendEvent would hand back a copy nobody reads', async () => {
    const { store, calls, inner } = countingStore(true);
    const log = new EventLog(store, silentLogger);
    log.append(timedOut('a'));
    await log.drain();
    expect(calls).toEqual(['batch:a']);
    expect((await inner.readEvents('s')).map((event) => event.rpcId)).toEqual(['a']);
  });

  it('still logs a lone event the store refuses as an error, once, and goes on', async () => {
    const { store, calls, inner } = countingStore(true);
    const errors: string[] = [];
    const log = new EventLog(store, { ...silentLogger, error: (message: string) => errors.push(message) });
    log.append(broken);
    await log.drain();
    log.append(timedOut('b'));
    await log.drain();
    expect(calls).toEqual(['batch:bad', 'one:bad', 'batch:b']);
    expect(errors).toEqual(['could not append to the event log']);
    expect((await inner.readEvents('s')).map((event) => event.rpcId)).toEqual(['b']);
  });
});
