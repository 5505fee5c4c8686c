import { AskseamError, UserQuestionError } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { QuestionClientError } from './errors.js';

// What another copy of this package (same version) and an older version put on their errors.
const brand = Symbol.for('askseam.QuestionClientError');
const oldBrand = Symbol.for('askseam.client.error');

/** The check an older copy of this package runs (its brand, and a string code). */
function olderCopyRecognises(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[oldBrand] === true && typeof (value as { code?: unknown }).code === 'string';
}

describe('QuestionClientError', () => {
  it('is an AskseamError with its code, message, cause and name', () => {
    const cause = new Error('underneath');
    const error = new QuestionClientError('not-pending', 'It went wrong.', { cause });

    expect(error).toBeInstanceOf(AskseamError);
    expect(AskseamError.isInstance(error)).toBe(true);
    expect(error.code).toBe('not-pending');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('QuestionClientError: It went wrong.');
  });

  it('recognises an error of another copy by its askseam.QuestionClientError brand', () => {
    expect(QuestionClientError.isInstance({ [brand]: true, code: 'not-pending' })).toBe(true);
  });

  it('recognises an error of an older version by its old brand, and is recognised by it', () => {
    expect(QuestionClientError.isInstance({ [oldBrand]: true, code: 'not-pending' })).toBe(true);
    expect(AskseamError.isInstance({ [oldBrand]: true, code: 'not-pending' })).toBe(true);
    expect(olderCopyRecognises(new QuestionClientError('not-pending', 'x'))).toBe(true);
  });

  it('does not take another package\'s error, or a brand without a code, for its own', () => {
    expect(QuestionClientError.isInstance(new UserQuestionError('ASK_ABORTED', 'x'))).toBe(false);
    expect(QuestionClientError.isInstance({ [brand]: true })).toBe(false);
    expect(QuestionClientError.isInstance(Object.assign(new Error('x'), { code: 'not-pending' }))).toBe(false);
  });
});
