import { describe, expect, it } from 'vitest';
import { closeCodes } from './close-codes.js';

describe('closeCodes', () => {
  it('names every close code a host or client sends, with the numbers docs/protocol.md lists', () => {
    expect(closeCodes).toEqual({
      normal: 1000,
      goingAway: 1001,
      policyViolation: 1008,
      messageTooBig: 1009,
      internalError: 1011,
      heartbeatTimeout: 4000,
    });
  });

  it('gives each code one name', () => {
    const codes = Object.values(closeCodes);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
