import { describe, expect, it } from 'vitest';
import { RejectionBudget } from './rejection-budget.js';

describe('RejectionBudget', () => {
  it('lets each principal log maxPerWindow rejections per window, says once when it starts dropping, and starts afresh in the next window', () => {
    const budget = new RejectionBudget(2, 1000);
    const takes = (principalId: string, at: number, count: number) => Array.from({ length: count }, () => budget.take(principalId, at));
    expect(takes('ann', 0, 4)).toEqual([
      { log: true, firstDropped: false },
      { log: true, firstDropped: false },
      { log: false, firstDropped: true },
      { log: false, firstDropped: false },
    ]);
    // Another principal has a budget of its own.
    expect(budget.take('bob', 500)).toEqual({ log: true, firstDropped: false });
    expect(budget.take('ann', 999).log).toBe(false);
    expect(takes('ann', 1000, 3).map((taken) => taken.log)).toEqual([true, true, false]);
  });

  it('logs nothing with a budget of 0', () => {
    expect(new RejectionBudget(0, 1000).take('ann', 0)).toEqual({ log: false, firstDropped: true });
  });
});
