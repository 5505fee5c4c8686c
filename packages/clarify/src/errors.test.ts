import { AskseamError, UserQuestionError } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { ClarifyError } from './errors.js';

// What another copy of this package puts on its errors, and the brand of a pre-release scheme that never shipped.
const brand = Symbol.for('askseam.ClarifyError');
const preReleaseBrand = Symbol.for('askseam.clarify.error');

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

  it('does not take an object carrying only the never-published pre-release brand for its error', () => {
    expect(ClarifyError.isInstance({ [preReleaseBrand]: true, code: 'ANSWER_MISMATCH' })).toBe(false);
    expect(AskseamError.isInstance({ [preReleaseBrand]: true, code: 'ANSWER_MISMATCH' })).toBe(false);
    expect((new ClarifyError('ANSWER_MISMATCH', 'x') as unknown as Record<symbol, unknown>)[preReleaseBrand]).toBeUndefined();
  });

  it('does not take another package\'s error, or a brand without a code, for its own', () => {
    expect(ClarifyError.isInstance(new UserQuestionError('ASK_ABORTED', 'x'))).toBe(false);
    expect(ClarifyError.isInstance({ [brand]: true })).toBe(false);
    expect(ClarifyError.isInstance(Object.assign(new Error('x'), { code: 'ANSWER_MISMATCH' }))).toBe(false);
  });
});
