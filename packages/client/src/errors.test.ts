import { AskseamError, UserQuestionError } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { QuestionClientError } from './errors.js';

// What another copy of this package puts on its errors, and the brand of a pre-release scheme that never shipped.
const brand = Symbol.for('askseam.QuestionClientError');
const preReleaseBrand = Symbol.for('askseam.client.error');

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

  it('does not take an object carrying only the never-published pre-release brand for its error', () => {
    expect(QuestionClientError.isInstance({ [preReleaseBrand]: true, code: 'not-pending' })).toBe(false);
    expect(AskseamError.isInstance({ [preReleaseBrand]: true, code: 'not-pending' })).toBe(false);
    expect((new QuestionClientError('not-pending', 'x') as unknown as Record<symbol, unknown>)[preReleaseBrand]).toBeUndefined();
  });

  it('does not take another package\'s error, or a brand without a code, for its own', () => {
    expect(QuestionClientError.isInstance(new UserQuestionError('ASK_ABORTED', 'x'))).toBe(false);
    expect(QuestionClientError.isInstance({ [brand]: true })).toBe(false);
    expect(QuestionClientError.isInstance(Object.assign(new Error('x'), { code: 'not-pending' }))).toBe(false);
  });
});
