import { UserQuestionError, type AskUserQuestionAnswer } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { Waiters } from './hand-over.js';

const answer: AskUserQuestionAnswer = { answers: [{ id: 'q', selected: ['Yes'] }] };

/** A blocking asker as the host keeps one without a signal: its promise's resolve only. */
function asker(waiters: Waiters, rpcId: string): Promise<AskUserQuestionAnswer> {
  return new Promise((resolve) => waiters.setResolver(rpcId, resolve));
}

describe('Waiters kept as a resolve function', () => {
  it('resolves the asker with the answer', async () => {
    const waiters = new Waiters();
    const asked = asker(waiters, 'r1');
    expect(waiters.has('r1')).toBe(true);
    waiters.take('r1')!.resolve(answer);
    await expect(asked).resolves.toBe(answer);
    expect(waiters.has('r1')).toBe(false);
  });

  it('rejects the asker with the very error given, by get, take or takeAll; a second settlement changes nothing and raises nothing', async () => {
    const waiters = new Waiters();
    const errors = ['r1', 'r2', 'r3'].map((rpcId) => new UserQuestionError('ASK_ABORTED', `aborted ${rpcId}`));
    const [first, second, third] = ['r1', 'r2', 'r3'].map((rpcId) => asker(waiters, rpcId));
    waiters.get('r1')!.reject(errors[0]);
    waiters.take('r2')!.reject(errors[1]);
    // r1 was only looked at (get): it is still there, already rejected, and is rejected again here.
    const rest = waiters.takeAll();
    expect(rest).toHaveLength(2);
    for (const waiter of rest) waiter.reject(errors[2]);
    await expect(first).rejects.toBe(errors[0]);
    await expect(second).rejects.toBe(errors[1]);
    await expect(third).rejects.toBe(errors[2]);
  });

  it('keeps a waiter object given with set as it is', () => {
    const waiters = new Waiters();
    const waiter = { resolve: () => {}, reject: () => {} };
    waiters.set('r1', waiter);
    expect(waiters.take('r1')).toBe(waiter);
  });
});
