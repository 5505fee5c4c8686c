import { describe, expect, it } from 'vitest';
import { BadResponseCounter } from './bad-responses.js';

describe('BadResponseCounter', () => {
  it('refuses a sender after max bad responses within the window, not another sender, and lets it back once they age out', () => {
    let now = 0;
    const counter = new BadResponseCounter(2, 1000, () => now);
    counter.count('ann@10.0.0.1');
    now = 400;
    counter.count('ann@10.0.0.1');
    expect(counter.isOver('ann@10.0.0.1')).toBe(true);
    expect(counter.isOver('ann@10.0.0.2')).toBe(false);
    // Sliding: the first one ages out at 1000, the second at 1400.
    now = 1000;
    expect(counter.isOver('ann@10.0.0.1')).toBe(false);
    counter.count('ann@10.0.0.1');
    expect(counter.isOver('ann@10.0.0.1')).toBe(true);
  });

  it('sweeps out senders whose window has passed, so the map holds only the last window\'s senders', () => {
    let now = 0;
    const counter = new BadResponseCounter(10, 1000, () => now);
    for (let sender = 0; sender < 500; sender++) counter.count(`token@10.0.${sender >> 8}.${sender & 255}`);
    expect(counter.size).toBe(500);
    now = 999;
    counter.count('late');
    expect(counter.size).toBe(501);
    // A window later, the next use sweeps: only `late` (and the new sender) are still recent.
    now = 1500;
    counter.count('new');
    expect(counter.size).toBe(2);
    now = 3000;
    counter.sweep();
    expect(counter.size).toBe(0);
  });
});
