import { numberAnswerProblem, parseDecimalAnswer } from '@askseam/user-questions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainDecimalText } from './number-text.js';

describe('plainDecimalText', () => {
  it.each([
    ['42', '42'],
    ['-3.5', '-3.5'],
    ['12.50', '12.50'],
    ['007', '007'],
    ['.5', '0.5'],
    ['-.5', '-0.5'],
    ['1.', '1'],
    ['1e3', '1000'],
    ['1E3', '1000'],
    ['2.5e-3', '0.0025'],
    ['-1.50e1', '-15'],
    ['1e+21', '1000000000000000000000'],
    ['123e-2', '1.23'],
    ['0e5', '0'],
  ])('writes %j as the plain decimal %j', (typed, plain) => {
    expect(plainDecimalText(typed)).toBe(plain);
  });

  it.each(['', '-', '.', 'e3', '1e', '1.2.3', '+5', ' 5', '0x10', 'Infinity', 'NaN', '1e401'])('reads %j as no number at all', (typed) => {
    expect(plainDecimalText(typed)).toBeUndefined();
  });

  it('turns every finite JavaScript number, as a browser would print it, into a plain decimal of exactly that value', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const plain = plainDecimalText(String(value));
        expect(plain).toBeDefined();
        expect(parseDecimalAnswer(plain!)).toBeDefined();
        expect(numberAnswerProblem({}, plain!)).toBeUndefined();
        expect(Number(plain)).toBe(value === 0 ? 0 : value); // String(-0) is "0"
      }),
    );
  });
});
