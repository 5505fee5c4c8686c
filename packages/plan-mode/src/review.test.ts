import { describe, expect, it } from 'vitest';
import { isPlanApproved } from './review.js';

describe('isPlanApproved', () => {
  it('is consent for exactly one answer selecting only "Approve" with no text', () => {
    expect(isPlanApproved({ answers: [{ id: 'plan-review', selected: ['Approve'] }] })).toBe(true);
  });

  it('is not consent when the user also wrote something', () => {
    expect(isPlanApproved({ answers: [{ id: 'plan-review', selected: ['Approve'], custom: 'but later' }] })).toBe(false);
  });

  it('is not consent for another label, a skip, or no answer at all', () => {
    expect(isPlanApproved({ answers: [{ id: 'plan-review', selected: ['Keep planning'] }] })).toBe(false);
    expect(isPlanApproved({ answers: [{ id: 'plan-review', selected: [] }] })).toBe(false);
    expect(isPlanApproved({ answers: [] })).toBe(false);
  });

  it('is not consent when "Approve" comes with a second selection or a second answer', () => {
    expect(isPlanApproved({ answers: [{ id: 'plan-review', selected: ['Approve', 'Keep planning'] }] })).toBe(false);
    expect(
      isPlanApproved({
        answers: [
          { id: 'plan-review', selected: ['Approve'] },
          { id: 'other', selected: [] },
        ],
      }),
    ).toBe(false);
  });

  it('matches the label exactly', () => {
    expect(isPlanApproved({ answers: [{ id: 'plan-review', selected: ['approve'] }] })).toBe(false);
    expect(isPlanApproved({ answers: [{ id: 'plan-review', selected: ['Approve (Recommended)'] }] })).toBe(false);
  });
});
