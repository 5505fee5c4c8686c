import { AskseamError, UserQuestionError } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { ClarifyError } from './errors.js';

// What another copy of this package (same version) and an older version put on their errors.
const brand = Symbol.for('askseam.ClarifyError');
const oldBrand = Symbol.for('askseam.clarify.error');

/** The check an older copy of this package runs (its brand, and a string code). */
function olderCopyRecognises(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[oldBrand] === true && typeof (value as { code?: unknown }).code === 'string';
}

describe('ClarifyError', () => {
  it('is an AskseamError with its code, message, cause and name', () => {
    const cause = new Error('underneath');
    const error = new ClarifyError('ANSWER_MISMATCH', 'It went wrong.', { cause });

    expect(error).toBeInstanceOf(AskseamError);
    expect(AskseamError.isInstance(error)).toBe(true);
    expect(error.code).toBe('ANSWER_MISMATCH');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('ClarifyError: It went wrong.');
  });

  it('recognises an error of another copy by its askseam.ClarifyError brand', () => {
    expect(ClarifyError.isInstance({ [brand]: true, code: 'ANSWER_MISMATCH' })).toBe(true);
  });

  it('recognises an error of an older version by its old brand, and is recognised by it', () => {
    expect(ClarifyError.isInstance({ [oldBrand]: true, code: 'ANSWER_MISMATCH' })).toBe(true);
    expect(AskseamError.isInstance({ [oldBrand]: true, code: 'ANSWER_MISMATCH' })).toBe(true);
    expect(olderCopyRecognises(new ClarifyError('ANSWER_MISMATCH', 'x'))).toBe(true);
  });

  it('does not take another package\'s error, or a brand without a code, for its own', () => {
    expect(ClarifyError.isInstance(new UserQuestionError('ASK_ABORTED', 'x'))).toBe(false);
    expect(ClarifyError.isInstance({ [brand]: true })).toBe(false);
    expect(ClarifyError.isInstance(Object.assign(new Error('x'), { code: 'ANSWER_MISMATCH' }))).toBe(false);
  });
});
