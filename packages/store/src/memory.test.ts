import { UserQuestions, sealReceivedAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { MemoryQuestionStore } from './memory.js';
// Not a declared devDependency: store-testing depends on store, and the build graph must stay acyclic.
// The test alias and tsconfig.test.json paths resolve it to its sources.
import { describeQuestionStoreContract, sampleQuestionRecord } from '@askseam/store-testing';

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

describeQuestionStoreContract('MemoryQuestionStore', () => new MemoryQuestionStore());

describe('MemoryQuestionStore', () => {
  it('keeps its questions for as long as the object lives, across users of the same instance', async () => {
    const store = new MemoryQuestionStore();
    const record = sampleQuestionRecord();
    await store.save(record);
    const sameStoreLater: MemoryQuestionStore = store;
    expect(await sameStoreLater.listPending('all')).toEqual([record]);
  });

  it('forgets the oldest finished records beyond retainFinished, but never a pending one or one awaiting its resume', async () => {
    const store = new MemoryQuestionStore({ retainFinished: 2 });
    const [pending, awaiting, first, second, third] = [1, 2, 3, 4, 5].map(() => sampleQuestionRecord());
    for (const record of [pending!, awaiting!, first!, second!, third!]) await store.save(record);
    await store.claim(awaiting!.rpcId, 'answered', yes);
    await store.claim(first!.rpcId, 'aborted');
    await store.claim(second!.rpcId, 'answered', yes);
    await store.markResumed(second!.rpcId);
    await store.claim(third!.rpcId, 'timed_out');
    expect(await store.get(first!.rpcId)).toBeUndefined();
    expect((await store.get(second!.rpcId))?.resumedAt).toBeDefined();
    expect((await store.get(third!.rpcId))?.outcome).toBe('timed_out');
    expect(await store.listPending('all')).toEqual([pending]);
    expect((await store.listAwaitingResume()).map((record) => record.rpcId)).toEqual([awaiting!.rpcId]);
  });

  it('keeps every other session\'s log when one session floods its own with 1000 events', async () => {
    const store = new MemoryQuestionStore();
    const forbidden = { type: 'response_rejected', sessionId: 'b', rpcId: 'rb', data: { reason: 'forbidden', principalId: 'mallory', channel: 'websocket' } } as const;
    const asked = await store.appendEvent({ type: 'timed_out', sessionId: 'b', rpcId: 'rb', data: {} });
    const attempt = await store.appendEvent(forbidden);
    for (let sent = 0; sent < 1000; sent++) {
      await store.appendEvent({ type: 'response_rejected', sessionId: 'a', rpcId: 'ra', data: { reason: 'bad-response', principalId: 'mallory', channel: 'websocket' } });
    }
    expect(await store.readEvents('b')).toEqual([asked, attempt]);
    // The flood pushed out only its own session's oldest events.
    expect(await store.readEvents('a')).toHaveLength(998);
  });

  it('keeps at most retainEventsPerSession events of one session, its own oldest forgotten first', async () => {
    const store = new MemoryQuestionStore({ retainEventsPerSession: 2 });
    await store.appendEvent({ type: 'timed_out', sessionId: 'a', rpcId: 'r1', data: {} });
    const b1 = await store.appendEvent({ type: 'timed_out', sessionId: 'b', rpcId: 'r2', data: {} });
    const a2 = await store.appendEvent({ type: 'timed_out', sessionId: 'a', rpcId: 'r3', data: {} });
    const a3 = await store.appendEvent({ type: 'timed_out', sessionId: 'a', rpcId: 'r4', data: {} });
    expect(await store.readEvents('a')).toEqual([a2, a3]);
    expect(await store.readEvents('b')).toEqual([b1]);
  });

  it('forgets the oldest events beyond retainEvents, from the session that holds the most', async () => {
    const store = new MemoryQuestionStore({ retainEvents: 2 });
    const a1 = await store.appendEvent({ type: 'timed_out', sessionId: 'a', rpcId: 'r1', data: {} });
    const b1 = await store.appendEvent({ type: 'timed_out', sessionId: 'b', rpcId: 'r2', data: {} });
    const a2 = await store.appendEvent({ type: 'timed_out', sessionId: 'a', rpcId: 'r3', data: {} });
    expect(await store.readEvents('a')).toEqual([a2]);
    expect(await store.readEvents('b')).toEqual([b1]);
    expect(a1.id).toBeLessThan(a2.id);
  });

  it('takes a batch the seam sealed as it is, and still hands out copies that can be changed', async () => {
    const sealed = await sealedBatchFromSeam();
    const store = new MemoryQuestionStore();
    const record = sampleQuestionRecord({ questions: sealed });
    await store.save(record);
    await store.appendEvent({ type: 'human_input_requested', sessionId: record.sessionId, rpcId: record.rpcId, data: { askedBy: 'a', mode: 'blocking', questions: sealed } });
    const [listed] = await store.listPending('all');
    const [event] = await store.readEvents(record.sessionId);
    expect(listed?.questions).toEqual(sealed);
    expect(listed?.questions).not.toBe(sealed);
    listed!.questions[0]!.question = 'changed';
    expect(event?.type === 'human_input_requested' && event.data.questions).toEqual(sealed);
    expect((await store.claim(record.rpcId, 'answered', yes))?.questions).toEqual(sealed);
  });

  it('hands out a settled record of sealed parts as it is (frozen), and any other as a copy that can be changed', async () => {
    const sealed = await sealedBatchFromSeam();
    const checked = sealReceivedAnswer(sealed, { answers: [{ id: 'deploy', selected: ['Yes'] }] });
    if (!checked.ok) throw new Error('expected the answer to fit');
    const store = new MemoryQuestionStore();
    const shared = sampleQuestionRecord({ rpcId: 'shared', questions: sealed });
    const copied = sampleQuestionRecord({ rpcId: 'copied', questions: sealed });
    await store.save(shared);
    await store.save(copied);

    // The host's sealed answer: kept by reference, and the whole record shared frozen.
    const settled = await store.claim('shared', 'answered', checked.answer);
    expect(settled).toMatchObject({ rpcId: 'shared', outcome: 'answered', answer: { answers: [{ id: 'deploy', selected: ['Yes'] }] } });
    expect(Object.isFrozen(settled)).toBe(true);
    expect(settled?.answer).toBe(checked.answer);
    expect(() => {
      (settled as { outcome: string }).outcome = 'cancelled';
    }).toThrow(TypeError);
    expect((await store.get('shared'))?.outcome).toBe('answered');

    // An answer the host did not seal: checked and copied as before, and the record handed out is a copy.
    const plain = { answers: [{ id: 'deploy', selected: ['Yes'] }] };
    const other = await store.claim('copied', 'answered', plain);
    expect(Object.isFrozen(other)).toBe(false);
    expect(other?.answer).not.toBe(plain);
    other!.answer!.answers[0]!.selected.push('No');
    expect((await store.get('copied'))?.answer).toEqual(plain);
  });

  it('shares a settled record whose trace context is frozen, and copies one whose trace context is not', async () => {
    const sealed = await sealedBatchFromSeam();
    const checked = sealReceivedAnswer(sealed, { answers: [{ id: 'deploy', selected: ['Yes'] }] });
    if (!checked.ok) throw new Error('expected the answer to fit');
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const store = new MemoryQuestionStore();
    // As the host saves it: the record frozen, with the seam's frozen trace context.
    await store.save(Object.freeze(sampleQuestionRecord({ rpcId: 'traced', questions: sealed, traceContext: Object.freeze({ traceparent }) })));
    const mutable = { traceparent };
    await store.save(Object.freeze(sampleQuestionRecord({ rpcId: 'loose', questions: sealed, traceContext: mutable })));

    const shared = await store.claim('traced', 'answered', checked.answer);
    expect(Object.isFrozen(shared)).toBe(true);
    expect(shared?.traceContext).toEqual({ traceparent });
    expect(() => {
      (shared!.traceContext as { traceparent: string }).traceparent = 'changed';
    }).toThrow(TypeError);

    // The caller kept a reference it can still change: what the store hands out is its own copy.
    const copied = await store.claim('loose', 'answered', checked.answer);
    expect(Object.isFrozen(copied)).toBe(false);
    mutable.traceparent = 'changed';
    expect((await store.get('loose'))?.traceContext).toEqual({ traceparent });
    expect(copied?.traceContext).toEqual({ traceparent });
  });

  it('refuses a retention that is not a whole number', () => {
    expect(() => new MemoryQuestionStore({ retainEvents: -1 })).toThrow(/retainEvents/);
    expect(() => new MemoryQuestionStore({ retainEventsPerSession: 1.5 })).toThrow(/retainEventsPerSession/);
  });
});

/** The sample questions exactly as a provider (the host) receives them from the seam: checked and frozen. */
async function sealedBatchFromSeam(): Promise<AskUserQuestionItem[]> {
  let sealed: AskUserQuestionItem[] | undefined;
  const seam = new UserQuestions();
  seam.registerProvider({
    ask: async ({ questions }) => {
      sealed = questions;
      return { answers: [{ id: 'deploy', selected: ['Yes'] }] };
    },
  });
  await seam.ask({ questions: sampleQuestionRecord().questions });
  if (sealed === undefined) throw new Error('the seam never asked the provider');
  return sealed;
}
