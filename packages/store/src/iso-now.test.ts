import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoNow } from './iso-now.js';

describe('isoNow', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is new Date().toISOString() at every moment, including when the clock moves on or back', () => {
    vi.useFakeTimers();
    for (const at of [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, Date.UTC(2026, 0, 1) + 1, Date.UTC(2025, 11, 31, 23, 59, 59, 999), Date.UTC(2026, 5, 1, 12)]) {
      vi.setSystemTime(at);
      expect(isoNow()).toBe(new Date().toISOString());
    }
  });

  it('follows the real clock', async () => {
    const before = Date.now();
    const stamp = isoNow();
    expect(Date.parse(stamp)).toBeGreaterThanOrEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(Date.parse(isoNow())).toBeGreaterThan(Date.parse(stamp));
  });
});
