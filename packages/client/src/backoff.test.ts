import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

const options = { initialDelayMs: 100, maxDelayMs: 1_000 };

describe('backoffDelay', () => {
  it('doubles the window with each attempt until the cap', () => {
    const ceilings = [0, 1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, options, () => 1));
    expect(ceilings).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('jitters within the upper half of the window', () => {
    expect(backoffDelay(2, options, () => 0)).toBe(200);
    expect(backoffDelay(2, options, () => 0.5)).toBe(300);
  });

  it('stays at the cap for very large attempt numbers', () => {
    expect(backoffDelay(5_000, options, () => 1)).toBe(1_000);
  });
});
