import { AskseamError, UserQuestionError } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { DemoError } from './errors.js';

// What another copy of this package (same version) and an older version put on their errors.
const brand = Symbol.for('askseam.DemoError');
const oldBrand = Symbol.for('askseam.demo.error');

/** The check an older copy of this package runs (its brand, and a string code). */
function olderCopyRecognises(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[oldBrand] === true && typeof (value as { code?: unknown }).code === 'string';
}

describe('DemoError', () => {
  it('is an AskseamError with its code, message, cause and name', () => {
    const cause = new Error('underneath');
    const error = new DemoError('MODEL_HTTP', 'It went wrong.', { cause });

    expect(error).toBeInstanceOf(AskseamError);
    expect(AskseamError.isInstance(error)).toBe(true);
    expect(error.code).toBe('MODEL_HTTP');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('DemoError: It went wrong.');
  });

  it('recognises an error of another copy by its askseam.DemoError brand', () => {
    expect(DemoError.isInstance({ [brand]: true, code: 'MODEL_HTTP' })).toBe(true);
  });

  it('recognises an error of an older version by its old brand, and is recognised by it', () => {
    expect(DemoError.isInstance({ [oldBrand]: true, code: 'MODEL_HTTP' })).toBe(true);
    expect(AskseamError.isInstance({ [oldBrand]: true, code: 'MODEL_HTTP' })).toBe(true);
    expect(olderCopyRecognises(new DemoError('MODEL_HTTP', 'x'))).toBe(true);
  });

  it('does not take another package\'s error, or a brand without a code, for its own', () => {
    expect(DemoError.isInstance(new UserQuestionError('ASK_ABORTED', 'x'))).toBe(false);
    expect(DemoError.isInstance({ [brand]: true })).toBe(false);
    expect(DemoError.isInstance(Object.assign(new Error('x'), { code: 'MODEL_HTTP' }))).toBe(false);
  });
});
