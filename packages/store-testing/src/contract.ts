// The behaviour every QuestionStore must have, as a vitest suite a store author runs against
// their own implementation: `describeQuestionStoreContract('redis', () => new RedisStore(…))`.
import { afterEach, describe, expect, it } from 'vitest';
import { QuestionStoreError, type NewQuestionEvent, type NewQuestionRecord, type QuestionStore } from '@askseam/store';
import { questionStoreErrorCode } from './error-code.js';
import { sampleQuestionRecord } from './sample.js';
import { describePendingIdsContract } from './pending-ids-contract.js';
import { describeVoteContract } from './vote-contract.js';

export { sampleQuestionRecord } from './sample.js';

export interface QuestionStoreContractOptions {
  /** Release a store made by `makeStore` (close a database, a connection) after each test. */
  dispose?: (store: QuestionStore) => void | Promise<void>;
}

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

function requested(record: NewQuestionRecord): NewQuestionEvent {
  return { type: 'human_input_requested', sessionId: record.sessionId, rpcId: record.rpcId, data: { askedBy: record.askedBy, mode: record.mode, questions: record.questions } };
}


/** Register the QuestionStore contract tests for the stores `makeStore` returns (a fresh, empty one per test). */
export function describeQuestionStoreContract(name: string, makeStore: () => QuestionStore | Promise<QuestionStore>, options: QuestionStoreContractOptions = {}): void {
  describe(`QuestionStore contract: ${name}`, () => {
    const made: QuestionStore[] = [];
    afterEach(async () => {
      for (const store of made.splice(0)) await options.dispose?.(store);
    });
    async function fresh(): Promise<QuestionStore> {
      const store = await makeStore();
      made.push(store);
      return store;
    }

    describe('save and get', () => {
      it('gives back a saved record as pending, with its state and urgency unchanged', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord({ mode: 'detached', urgency: 'high', state: { tool: 'deploy', args: { version: '1.2.3' }, missing: ['env'], n: 1.5, ok: null } });
        await store.save(record);
        expect(await store.get(record.rpcId)).toEqual(record);
      });

      it('keeps the node a blocking asker waits on (askedOn) through save, claim and the lists', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord({ askedOn: 'node-7' });
        await store.save(record);
        expect(await store.get(record.rpcId)).toEqual(record);
        expect((await store.listPending('all')).map((found) => found.askedOn)).toEqual(['node-7']);
        expect(await store.claim(record.rpcId, 'answered', yes)).toMatchObject({ askedOn: 'node-7', outcome: 'answered' });
        expect((await store.listAwaitingResume()).map((found) => found.askedOn)).toEqual(['node-7']);
      });

      it('keeps the trace context of the asking span (traceContext) through save, claim and the lists, and leaves it absent when not given', async () => {
        const store = await fresh();
        const traceContext = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'vendor=opaque' };
        const traced = sampleQuestionRecord({ traceContext });
        const plain = sampleQuestionRecord();
        await store.save(traced);
        await store.save(plain);
        expect(await store.get(traced.rpcId)).toEqual(traced);
        expect((await store.listPending('all')).map((found) => found.traceContext)).toEqual([traceContext, undefined]);
        expect(await store.claim(traced.rpcId, 'answered', yes)).toMatchObject({ traceContext, outcome: 'answered' });
        expect((await store.listAwaitingResume()).map((found) => found.traceContext)).toEqual([traceContext]);
        expect('traceContext' in (await store.get(plain.rpcId))!).toBe(false);
      });

      it('refuses a traceContext that is not a W3C traceparent, and stores nothing', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord({ traceContext: { traceparent: 'not-a-traceparent' } });
        expect(await questionStoreErrorCode(store.save(record))).toBe('INVALID_INPUT');
        expect(await store.get(record.rpcId)).toBeUndefined();
      });

      it('returns undefined for an unknown rpcId', async () => {
        const store = await fresh();
        expect(await store.get('nope')).toBeUndefined();
      });

      it('refuses a second record with the same rpcId and keeps the first', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord();
        await store.save(record);
        expect(await questionStoreErrorCode(store.save({ ...record, sessionId: 'other' }))).toBe('DUPLICATE_RPC_ID');
        expect((await store.get(record.rpcId))?.sessionId).toBe('session-a');
      });

      it('refuses a record without questions, or with a state that is not JSON', async () => {
        const store = await fresh();
        expect(await questionStoreErrorCode(store.save(sampleQuestionRecord({ questions: [] })))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.save(sampleQuestionRecord({ state: { when: new Date() } as never })))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.save({ ...sampleQuestionRecord(), outcome: 'answered' } as never))).toBe('INVALID_INPUT');
        expect(await store.listPending('all')).toEqual([]);
      });

      it('hands out copies: changing a saved input or a returned record changes nothing stored', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord({ state: { list: [1] } });
        await store.save(record);
        (record.state as { list: number[] }).list.push(2);
        const read = await store.get(record.rpcId);
        (read!.state as { list: number[] }).list.push(3);
        read!.questions[0]!.question = 'changed';
        expect((await store.get(record.rpcId))?.state).toEqual({ list: [1] });
        expect((await store.get(record.rpcId))?.questions[0]?.question).toBe('Deploy v1.2.3 to production?');
      });
    });

    describe('saveWithEvent (when the store has it)', () => {
      it('stores the record and appends its event in one step, the event id after earlier appends', async (context) => {
        const store = await fresh();
        if (store.saveWithEvent === undefined) return context.skip();
        const before = await store.appendEvent({ type: 'timed_out', sessionId: 'session-a', rpcId: 'earlier', data: {} });
        const record = sampleQuestionRecord({ mode: 'detached', urgency: 'low', state: { step: 1 } });
        await store.saveWithEvent(record, requested(record));
        expect(await store.get(record.rpcId)).toEqual(record);
        const events = await store.readEvents('session-a');
        expect(events).toEqual([before, { ...requested(record), id: expect.any(Number), at: expect.any(String) }]);
        expect(events[1]!.id).toBeGreaterThan(before.id);
      });

      it('appends nothing for a duplicate rpcId (DUPLICATE_RPC_ID)', async (context) => {
        const store = await fresh();
        if (store.saveWithEvent === undefined) return context.skip();
        const record = sampleQuestionRecord();
        await store.save(record);
        expect(await questionStoreErrorCode(store.saveWithEvent({ ...record, sessionId: 'other' }, requested({ ...record, sessionId: 'other' })))).toBe('DUPLICATE_RPC_ID');
        expect(await store.readEvents('other')).toEqual([]);
        expect((await store.get(record.rpcId))?.sessionId).toBe('session-a');
      });

      it('stores neither for a bad event, a bad record, or an event of another question (INVALID_INPUT)', async (context) => {
        const store = await fresh();
        if (store.saveWithEvent === undefined) return context.skip();
        const record = sampleQuestionRecord();
        const other = sampleQuestionRecord();
        const badEvent = { ...requested(record), data: { askedBy: 'agent-a', mode: 'sideways', questions: record.questions } } as never;
        expect(await questionStoreErrorCode(store.saveWithEvent(record, badEvent))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.saveWithEvent({ ...record, questions: [] }, requested(record)))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.saveWithEvent(record, requested(other)))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.saveWithEvent(record, requested({ ...record, sessionId: 'session-b' })))).toBe('INVALID_INPUT');
        expect(await store.listPending('all')).toEqual([]);
        expect(await store.readEvents('session-a')).toEqual([]);
        expect(await store.readEvents('session-b')).toEqual([]);
      });
    });

    describe('claim', () => {
      it('settles a pending record and returns it with the outcome, the answer and settledAt', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord({ state: { step: 3 } });
        await store.save(record);
        const claimed = await store.claim(record.rpcId, 'answered', yes);
        expect(claimed).toEqual({ ...record, outcome: 'answered', answer: yes, settledAt: expect.any(String) });
        expect(new Date(claimed!.settledAt!).toISOString()).toBe(claimed!.settledAt);
        expect(await store.get(record.rpcId)).toEqual(claimed);
      });

      it('hands a record to exactly one of many concurrent claims', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord();
        await store.save(record);
        const outcomes = ['answered', 'cancelled', 'aborted', 'timed_out'] as const;
        const claims = await Promise.all(
          Array.from({ length: 24 }, (_, i) => {
            const outcome = outcomes[i % outcomes.length]!;
            return store.claim(record.rpcId, outcome, outcome === 'answered' ? yes : undefined);
          }),
        );
        const winners = claims.filter((claim) => claim !== undefined);
        expect(winners).toHaveLength(1);
        expect((await store.get(record.rpcId))?.outcome).toBe(winners[0]?.outcome);
      });

      it('returns undefined for an unknown rpcId and for a record that is already settled', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord();
        await store.save(record);
        expect(await store.claim('nope', 'cancelled')).toBeUndefined();
        await store.claim(record.rpcId, 'cancelled');
        expect(await store.claim(record.rpcId, 'answered', yes)).toBeUndefined();
        expect((await store.get(record.rpcId))?.outcome).toBe('cancelled');
      });

      it('refuses an answered claim without an answer, and an answer on any other outcome, leaving the record pending', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord();
        await store.save(record);
        expect(await questionStoreErrorCode(store.claim(record.rpcId, 'answered'))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.claim(record.rpcId, 'cancelled', yes))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.claim(record.rpcId, 'answered', { answers: 'yes' } as never))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.claim(record.rpcId, 'lost' as never))).toBe('INVALID_INPUT');
        expect((await store.get(record.rpcId))?.outcome).toBeUndefined();
      });

      it('keeps who answered (answeredBy) with a person\'s claim, in get, listAwaitingResume and the claim itself', async () => {
        const store = await fresh();
        const answered = sampleQuestionRecord();
        const dismissed = sampleQuestionRecord();
        await store.save(answered);
        await store.save(dismissed);
        const alex = { principalId: 'alice', via: 'slack', user: 'U0ALEX', destination: 'slack:C0123' };
        const claimed = await store.claim(answered.rpcId, 'answered', yes, { answeredBy: alex });
        expect(claimed).toEqual({ ...answered, outcome: 'answered', answer: yes, answeredBy: alex, settledAt: expect.any(String) });
        expect((await store.claim(dismissed.rpcId, 'cancelled', undefined, { answeredBy: { principalId: 'bob', via: 'websocket' } }))?.answeredBy).toEqual({ principalId: 'bob', via: 'websocket' });
        expect(await store.get(answered.rpcId)).toEqual(claimed);
        expect((await store.listAwaitingResume()).map((record) => record.answeredBy)).toEqual([alex, { principalId: 'bob', via: 'websocket' }]);
      });

      it('leaves answeredBy absent on a claim without it, and refuses it on an asker\'s outcome or in a bad shape, leaving the record pending', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord();
        await store.save(record);
        expect(await questionStoreErrorCode(store.claim(record.rpcId, 'aborted', undefined, { answeredBy: { principalId: 'p', via: 'websocket' } }))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.claim(record.rpcId, 'answered', yes, { answeredBy: { principalId: 'p', via: 'Not A Name' } }))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.claim(record.rpcId, 'answered', yes, { answeredBy: { principalId: 'p', via: 'http', extra: 1 } as never }))).toBe('INVALID_INPUT');
        expect((await store.get(record.rpcId))?.outcome).toBeUndefined();
        expect(await store.claim(record.rpcId, 'timed_out')).not.toHaveProperty('answeredBy');
      });
    });

    describe('vote (when the store has it)', () => {
      describeVoteContract(fresh);
    });

    describe('listPending', () => {
      it('lists the pending records of the given sessions in save order, without settled ones', async () => {
        const store = await fresh();
        const records = [
          sampleQuestionRecord({ sessionId: 'b' }),
          sampleQuestionRecord({ sessionId: 'a' }),
          sampleQuestionRecord({ sessionId: 'c' }),
          sampleQuestionRecord({ sessionId: 'b' }),
          sampleQuestionRecord({ sessionId: 'a' }),
        ];
        for (const record of records) await store.save(record);
        await store.claim(records[4]!.rpcId, 'cancelled');
        const ids = (list: { rpcId: string }[]) => list.map((record) => record.rpcId);
        expect(ids(await store.listPending(['a', 'b']))).toEqual(ids([records[0]!, records[1]!, records[3]!]));
        expect(ids(await store.listPending(new Set(['c'])))).toEqual(ids([records[2]!]));
        expect(ids(await store.listPending('all'))).toEqual(ids(records.slice(0, 4)));
        expect(await store.listPending(['unknown'])).toEqual([]);
        expect(await store.listPending([])).toEqual([]);
      });

      describePendingIdsContract(fresh);
    });

    describe('listSettled (when the store has it)', () => {
      const ids = (list: { rpcId: string }[]) => list.map((record) => record.rpcId);

      it('lists settled records newest asked first, with every outcome and filter, and never a pending one', async () => {
        const store = await fresh();
        if (store.listSettled === undefined) return;
        const records = [
          sampleQuestionRecord({ sessionId: 's1', askedBy: 'planner' }),
          sampleQuestionRecord({ sessionId: 's2', askedBy: 'coder' }),
          sampleQuestionRecord({ sessionId: 's1', askedBy: 'planner' }),
          sampleQuestionRecord({ sessionId: 's2', askedBy: 'planner' }),
          sampleQuestionRecord({ sessionId: 's1', askedBy: 'coder' }),
        ];
        for (const record of records) await store.save(record);
        await store.claim(records[0]!.rpcId, 'answered', yes);
        await store.claim(records[1]!.rpcId, 'cancelled');
        await store.claim(records[2]!.rpcId, 'aborted');
        await store.claim(records[3]!.rpcId, 'timed_out');
        // records[4] stays pending; a resumed record is still history.
        await store.markResumed(records[0]!.rpcId);

        const all = await store.listSettled();
        expect(ids(all.records)).toEqual(ids([records[3]!, records[2]!, records[1]!, records[0]!]));
        expect(all.next).toBeUndefined();
        expect(all.records[3]).toMatchObject({ outcome: 'answered', answer: yes, settledAt: expect.any(String) });
        expect(ids((await store.listSettled({ sessionId: 's1' })).records)).toEqual(ids([records[2]!, records[0]!]));
        expect(ids((await store.listSettled({ askedBy: 'planner' })).records)).toEqual(ids([records[3]!, records[2]!, records[0]!]));
        expect(ids((await store.listSettled({ outcome: 'cancelled' })).records)).toEqual(ids([records[1]!]));
        expect(ids((await store.listSettled({ askedBy: 'planner', sessionId: 's2', outcome: 'timed_out' })).records)).toEqual(ids([records[3]!]));
        expect((await store.listSettled({ sessionId: 'nobody' })).records).toEqual([]);
      });

      it('pages with the cursor it hands out: every settled record once, in order, then no next', async () => {
        const store = await fresh();
        if (store.listSettled === undefined) return;
        const records = Array.from({ length: 7 }, () => sampleQuestionRecord());
        for (const record of records) {
          await store.save(record);
          await store.claim(record.rpcId, 'cancelled');
        }
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await store.listSettled({ limit: 3, ...(cursor === undefined ? {} : { cursor }) });
          expect(page.records.length).toBeLessThanOrEqual(3);
          seen.push(...ids(page.records));
          cursor = page.next;
          pages++;
        } while (cursor !== undefined && pages < 10);
        expect(seen).toEqual(ids(records).reverse());
      });

      it('refuses a bad limit or outcome with INVALID_INPUT', async () => {
        const store = await fresh();
        if (store.listSettled === undefined) return;
        for (const bad of [{ limit: 0 }, { limit: 1001 }, { limit: 1.5 }, { outcome: 'won' as never }]) {
          expect(await questionStoreErrorCode(store.listSettled(bad))).toBe('INVALID_INPUT');
        }
      });
    });

    describe('resume bookkeeping', () => {
      it('lists settled records a person chose the outcome of until they are marked resumed', async () => {
        const store = await fresh();
        const [answered, cancelled, aborted, timedOut, pending] = [1, 2, 3, 4, 5].map(() => sampleQuestionRecord());
        for (const record of [answered!, cancelled!, aborted!, timedOut!, pending!]) await store.save(record);
        await store.claim(answered!.rpcId, 'answered', yes);
        await store.claim(cancelled!.rpcId, 'cancelled');
        await store.claim(aborted!.rpcId, 'aborted');
        await store.claim(timedOut!.rpcId, 'timed_out');
        expect((await store.listAwaitingResume()).map((record) => record.rpcId)).toEqual([answered!.rpcId, cancelled!.rpcId]);

        expect(await store.markResumed(answered!.rpcId)).toBe(true);
        const remaining = await store.listAwaitingResume();
        expect(remaining.map((record) => record.rpcId)).toEqual([cancelled!.rpcId]);
        expect((await store.get(answered!.rpcId))?.resumedAt).toEqual(expect.any(String));
      });

      it('marks a settled record resumed once, and never a pending or unknown one', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord();
        await store.save(record);
        expect(await store.markResumed(record.rpcId)).toBe(false);
        expect(await store.markResumed('nope')).toBe(false);
        await store.claim(record.rpcId, 'answered', yes);
        expect(await store.markResumed(record.rpcId)).toBe(true);
        expect(await store.markResumed(record.rpcId)).toBe(false);
      });

      it('lists each awaiting record in exactly one partition, and refuses a partition out of range (when the store partitions)', async (context) => {
        const store = await fresh();
        if (store.partitionsAwaitingResume !== true) return context.skip();
        const records = Array.from({ length: 24 }, (_, index) => sampleQuestionRecord({ sessionId: `session-${index % 5}` }));
        for (const record of records) {
          await store.save(record);
          await store.claim(record.rpcId, 'answered', yes);
        }
        const parts = await Promise.all([0, 1, 2].map((index) => store.listAwaitingResume({ partition: { index, count: 3 } })));
        const listed = parts.flat().map((record) => record.rpcId);
        expect(listed.sort()).toEqual(records.map((record) => record.rpcId).sort());
        expect(await questionStoreErrorCode(store.listAwaitingResume({ partition: { index: 3, count: 3 } }))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.listAwaitingResume({ partition: { index: 0, count: 0 } }))).toBe('INVALID_INPUT');
      });
    });

    describe('events', () => {
      it('gives back a session\'s events in append order with growing ids and a timestamp', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord();
        const first = await store.appendEvent(requested(record));
        const second = await store.appendEvent({ type: 'delivered', sessionId: record.sessionId, rpcId: record.rpcId, data: { channel: 'websocket', connectionId: 'c1', replay: false } });
        const third = await store.appendEvent({ type: 'response_from_human', sessionId: record.sessionId, rpcId: record.rpcId, data: { answer: yes, principalId: 'p', channel: 'http' } });
        expect(second.id).toBeGreaterThan(first.id);
        expect(third.id).toBeGreaterThan(second.id);
        expect(new Date(first.at).toISOString()).toBe(first.at);
        expect(await store.readEvents(record.sessionId)).toEqual([first, second, third]);
        expect(third).toMatchObject({ type: 'response_from_human', data: { answer: yes } });
      });

      it('keeps sessions apart and reads after a cursor, up to a limit', async () => {
        const store = await fresh();
        const inA = sampleQuestionRecord({ sessionId: 'a' });
        const inB = sampleQuestionRecord({ sessionId: 'b' });
        const a1 = await store.appendEvent(requested(inA));
        const b1 = await store.appendEvent(requested(inB));
        const a2 = await store.appendEvent({ type: 'timed_out', sessionId: 'a', rpcId: inA.rpcId, data: {} });
        const a3 = await store.appendEvent({ type: 'aborted', sessionId: 'a', rpcId: inA.rpcId, data: { by: 'signal' } });
        expect(await store.readEvents('b')).toEqual([b1]);
        expect(await store.readEvents('a', { after: a1.id })).toEqual([a2, a3]);
        expect(await store.readEvents('a', { after: a1.id, limit: 1 })).toEqual([a2]);
        expect(await store.readEvents('a', { after: a3.id })).toEqual([]);
        expect(await store.readEvents('nobody')).toEqual([]);
      });

      it('refuses an event of an unknown type or with the wrong data, and a bad cursor', async () => {
        const store = await fresh();
        expect(await questionStoreErrorCode(store.appendEvent({ type: 'guessed', sessionId: 'a', rpcId: 'r', data: {} } as never))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.appendEvent({ type: 'aborted', sessionId: 'a', rpcId: 'r', data: { by: 'magic' } } as never))).toBe('INVALID_INPUT');
        expect(await questionStoreErrorCode(store.readEvents('a', { after: -1 }))).toBe('INVALID_INPUT');
        expect(await store.readEvents('a')).toEqual([]);
      });

      it('keeps an escalated event (a routed question reaching a later tier) as it was appended, and refuses tier 0', async () => {
        const store = await fresh();
        const record = sampleQuestionRecord({ sessionId: 'a' });
        const escalated: NewQuestionEvent = { type: 'escalated', sessionId: 'a', rpcId: record.rpcId, data: { tier: 1, reason: 'after', answerers: ['group:leads', 'agent:triage'] } };
        const stored = await store.appendEvent(escalated);
        expect(stored).toMatchObject(escalated);
        expect(await store.readEvents('a')).toEqual([stored]);
        expect(await questionStoreErrorCode(store.appendEvent({ ...escalated, data: { tier: 0, reason: 'after', answerers: [] } } as NewQuestionEvent))).toBe('INVALID_INPUT');
        expect(await store.readEvents('a')).toEqual([stored]);
      });

      it('appends a batch with appendEvents in order, ids growing after the single appends before it (when the store has it)', async (context) => {
        const store = await fresh();
        if (store.appendEvents === undefined) return context.skip();
        const record = sampleQuestionRecord({ sessionId: 'a' });
        const before = await store.appendEvent(requested(record));
        await store.appendEvents([
          { type: 'delivered', sessionId: 'a', rpcId: record.rpcId, data: { channel: 'websocket', connectionId: 'c1', replay: false } },
          requested(sampleQuestionRecord({ sessionId: 'b' })),
          { type: 'timed_out', sessionId: 'a', rpcId: record.rpcId, data: {} },
        ]);
        await store.appendEvents([]);
        const after = await store.appendEvent({ type: 'aborted', sessionId: 'a', rpcId: record.rpcId, data: { by: 'signal' } });
        const inA = await store.readEvents('a');
        expect(inA.map((event) => event.type)).toEqual(['human_input_requested', 'delivered', 'timed_out', 'aborted']);
        expect(inA.map((event) => event.id)).toEqual([...inA.map((event) => event.id)].sort((x, y) => x - y));
        expect(inA[0]).toEqual(before);
        expect(inA[3]).toEqual(after);
        expect((await store.readEvents('b')).map((event) => event.type)).toEqual(['human_input_requested']);
        const [inB] = await store.readEvents('b');
        expect(inB!.id).toBeGreaterThan(inA[1]!.id);
        expect(inB!.id).toBeLessThan(inA[2]!.id);
      });

      it('appends all of a batch or none: one bad event refuses it with INVALID_INPUT (when the store has appendEvents)', async (context) => {
        const store = await fresh();
        if (store.appendEvents === undefined) return context.skip();
        const good = { type: 'timed_out', sessionId: 'a', rpcId: 'r', data: {} } as const;
        const bad = { type: 'aborted', sessionId: 'a', rpcId: 'r', data: { by: 'magic' } } as never;
        expect(await questionStoreErrorCode(store.appendEvents([good, bad, good]))).toBe('INVALID_INPUT');
        expect(await store.readEvents('a')).toEqual([]);
      });

      it('keeps every optional field of an event', async () => {
        const store = await fresh();
        const event = {
          type: 'response_rejected',
          sessionId: 'a',
          rpcId: 'r',
          data: { reason: 'bad-response', detail: 'why', principalId: 'p', channel: 'slack', user: 'U0ALEX', destination: 'slack:C0123' },
        } as const;
        const stored = await store.appendEvent(event);
        expect((await store.readEvents('a'))[0]).toEqual({ ...event, id: stored.id, at: stored.at });
      });
    });
  });
}
