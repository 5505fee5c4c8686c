// Since when this node's liveness key has been in Redis without a gap, from its own refreshes. The
// clock (performance.now) is set by hand: ttl 1000 ms, so the key set by a refresh sent at `t` lasts
// until `t + 1000`, and the stretch is trusted until 250 ms (a quarter of the ttl) before that.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LivenessStretch } from './liveness-stretch.js';

let now = 0;
function at(time: number): void {
  now = time;
}

afterEach(() => {
  vi.restoreAllMocks();
});

function stretch(): LivenessStretch {
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  at(0);
  return new LivenessStretch(1000);
}

describe('LivenessStretch', () => {
  it('knows of no stretch before the first refresh was confirmed', () => {
    const alive = stretch();
    expect(alive.since()).toBeUndefined();
    at(5000);
    expect(alive.since()).toBeUndefined();
  });

  it('starts at the first confirmation and goes on while each refresh is confirmed in time', () => {
    const alive = stretch();
    alive.refreshed(0, 10);
    at(10);
    expect(alive.since()).toBe(10);
    // Refreshed every third of the ttl, each confirmed well before the previous key can have expired.
    for (let sent = 333; sent <= 3330; sent += 333) {
      alive.refreshed(sent, sent + 20);
      at(sent + 300);
      expect(alive.since()).toBe(10);
    }
  });

  it('keeps the stretch for a refresh confirmed just before the trusted end, and starts a new one at a confirmation after it', () => {
    const alive = stretch();
    alive.refreshed(0, 10);
    // The first key lasts until 1000, trusted until 750.
    alive.refreshed(300, 749);
    at(749);
    expect(alive.since()).toBe(10);
    // The second key lasts until 1300, trusted until 1050: a refresh confirmed at 1050 may come after a gap.
    alive.refreshed(600, 1050);
    at(1050);
    expect(alive.since()).toBe(1050);
    // And the new stretch goes on from there.
    alive.refreshed(1100, 1120);
    at(1200);
    expect(alive.since()).toBe(1050);
  });

  it('starts a new stretch when Redis was away longer than the ttl, even though the refresh itself was quick', () => {
    const alive = stretch();
    alive.refreshed(0, 10);
    alive.refreshed(5000, 5005);
    at(5005);
    expect(alive.since()).toBe(5005);
  });

  it('says nothing while the last refresh is overdue, and a new stretch once a refresh is confirmed again', () => {
    const alive = stretch();
    alive.refreshed(0, 10);
    at(749);
    expect(alive.since()).toBe(10);
    at(750);
    expect(alive.since()).toBeUndefined();
    at(2000);
    expect(alive.since()).toBeUndefined();
    // A refresh sent before the trusted end but confirmed after it: the key may have lapsed meanwhile.
    alive.refreshed(700, 800);
    at(800);
    expect(alive.since()).toBe(800);
  });

  it('keeps the furthest end when confirmations arrive out of order', () => {
    const alive = stretch();
    alive.refreshed(0, 10);
    alive.refreshed(600, 620);
    // An older refresh confirmed late does not pull the end back (the newer key lasts until 1600).
    alive.refreshed(300, 640);
    at(1349);
    expect(alive.since()).toBe(10);
    at(1350);
    expect(alive.since()).toBeUndefined();
  });

  it('scales its margin with the ttl', () => {
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const alive = new LivenessStretch(100);
    alive.refreshed(0, 1);
    at(74);
    expect(alive.since()).toBe(1);
    at(75);
    expect(alive.since()).toBeUndefined();
  });
});
