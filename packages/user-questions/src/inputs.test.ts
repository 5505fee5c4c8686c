import { describe, expect, it } from 'vitest';
import { isCalendarDate, isMultiSelect, numberAnswerProblem, parseDecimalAnswer, textLength } from './inputs.js';

describe('parseDecimalAnswer', () => {
  it('reads a plain decimal exactly, however many digits it has', () => {
    expect(parseDecimalAnswer('-12.50')).toEqual({ units: -1250n, scale: 2 });
    expect(parseDecimalAnswer('123456789012345678901234567890')).toEqual({ units: 123456789012345678901234567890n, scale: 0 });
  });

  it('refuses every form a number can take besides plain decimal digits', () => {
    for (const text of ['1e3', '0x10', '0b1', '+1', '1.', '.1', '', '-', 'Infinity', '1 000', '١٢']) expect(parseDecimalAnswer(text), text).toBeUndefined();
  });
});

describe('numberAnswerProblem', () => {
  it('ignores a step of 0, -0 or less (the schemas refuse it) instead of throwing on unchecked questions', () => {
    for (const step of [0, -0, -1]) {
      expect(numberAnswerProblem({ step }, '1.5')).toBeUndefined();
      expect(numberAnswerProblem({ step, max: 1 }, '1.5')).toBe('out-of-range');
    }
  });

  it('compares with bounds that JavaScript prints with an exponent', () => {
    expect(numberAnswerProblem({ max: 1e21 }, '1000000000000000000000')).toBeUndefined();
    expect(numberAnswerProblem({ max: 1e21 }, '1000000000000000000001')).toBe('out-of-range');
    expect(numberAnswerProblem({ min: 1e-7 }, '0.0000001')).toBeUndefined();
    expect(numberAnswerProblem({ min: 1e-7 }, '0.00000009')).toBe('out-of-range');
  });

  it('counts steps in decimal, so 0.3 is three steps of 0.1', () => {
    expect(numberAnswerProblem({ step: 0.1 }, '0.3')).toBeUndefined();
    expect(numberAnswerProblem({ min: 0.1, step: 0.2 }, '0.7')).toBeUndefined();
    expect(numberAnswerProblem({ min: 0.1, step: 0.2 }, '0.6')).toBe('off-step');
  });

  it('takes any number within no bounds at all', () => {
    expect(numberAnswerProblem({}, '-99999999999999999999.99999')).toBeUndefined();
  });
});

describe('isCalendarDate', () => {
  it('knows the Gregorian leap years', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('2100-02-29')).toBe(false);
    expect(isCalendarDate('2023-02-29')).toBe(false);
  });

  it('knows the thirty-day months', () => {
    for (const month of ['04', '06', '09', '11']) {
      expect(isCalendarDate(`2026-${month}-30`)).toBe(true);
      expect(isCalendarDate(`2026-${month}-31`)).toBe(false);
    }
    expect(isCalendarDate('2026-12-31')).toBe(true);
  });
});

describe('isMultiSelect', () => {
  it('is true for multiSelect: true and for a multi_select input', () => {
    expect(isMultiSelect({ multiSelect: true })).toBe(true);
    expect(isMultiSelect({ input: { kind: 'multi_select' } })).toBe(true);
    expect(isMultiSelect({ input: { kind: 'select' } })).toBe(false);
    expect(isMultiSelect({})).toBe(false);
  });
});

describe('textLength', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(textLength('a👍中')).toBe(3);
  });
});
