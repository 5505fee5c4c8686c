import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutageGrace } from './outage-grace.js';

describe('OutageGrace', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('grants no grace before any outage, nor after a drop shorter than a third of the ttl', () => {
    const grace = new OutageGrace(900);
    expect(grace.active).toBe(false);
    grace.lost();
    vi.advanceTimersByTime(299);
    grace.reached();
    expect(grace.active).toBe(false);
  });

  it('after an outage of a third of the ttl or more, grants one ttl from when the server answered again', () => {
    const grace = new OutageGrace(900);
    grace.lost();
    vi.advanceTimersByTime(200);
    // Failures during the outage do not move its start.
    grace.lost();
    vi.advanceTimersByTime(100);
    grace.reached();
    expect(grace.active).toBe(true);
    vi.advanceTimersByTime(899);
    // Successes during the grace do not extend it.
    grace.reached();
    expect(grace.active).toBe(true);
    vi.advanceTimersByTime(1);
    expect(grace.active).toBe(false);
  });

  it('grants nothing while the server is still unreachable (calls fail then)', () => {
    const grace = new OutageGrace(900);
    grace.lost();
    vi.advanceTimersByTime(10_000);
    expect(grace.active).toBe(false);
  });
});
