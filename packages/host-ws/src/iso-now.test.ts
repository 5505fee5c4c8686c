import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoNow } from './iso-now.js';

describe('isoNow', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the ISO time of now, and a new string for each new millisecond', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    expect(isoNow()).toBe('2026-01-02T03:04:05.006Z');
    expect(isoNow()).toBe('2026-01-02T03:04:05.006Z');
    vi.setSystemTime(Date.UTC(2026, 0, 2, 3, 4, 5, 7));
    expect(isoNow()).toBe('2026-01-02T03:04:05.007Z');
    // Back in time (a clock step): still the time of now, not the last one seen.
    vi.setSystemTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    expect(isoNow()).toBe('2026-01-02T03:04:05.006Z');
  });
});
