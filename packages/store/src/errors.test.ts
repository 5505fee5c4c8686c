import { AskseamError, UserQuestionError } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { QuestionStoreError } from './errors.js';

// What another copy of this package puts on its errors, and the brand of a pre-release scheme that never shipped.
const brand = Symbol.for('askseam.QuestionStoreError');
const preReleaseBrand = Symbol.for('askseam.store.error');

describe('QuestionStoreError', () => {
  it('is an AskseamError with its code, message, cause and name', () => {
    const cause = new Error('underneath');
    const error = new QuestionStoreError('STORE_CLOSED', 'It went wrong.', { cause });

    expect(error).toBeInstanceOf(AskseamError);
    expect(AskseamError.isInstance(error)).toBe(true);
    expect(error.code).toBe('STORE_CLOSED');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('QuestionStoreError: It went wrong.');
  });

  it('says whether an unavailable store\'s command may have reached its server (sent), and says nothing by default', () => {
    const cause = new Error('isn\'t writeable');
    const notSent = new QuestionStoreError('STORE_UNAVAILABLE', 'Down.', { cause, sent: false });
    expect(notSent.sent).toBe(false);
    expect(notSent.cause).toBe(cause);
    expect(new QuestionStoreError('STORE_UNAVAILABLE', 'Down.', { sent: true }).sent).toBe(true);
    expect(new QuestionStoreError('STORE_UNAVAILABLE', 'Down.').sent).toBeUndefined();
  });

  it('recognises an error of another copy by its askseam.QuestionStoreError brand', () => {
    expect(QuestionStoreError.isInstance({ [brand]: true, code: 'STORE_CLOSED' })).toBe(true);
  });

  it('does not take an object carrying only the never-published pre-release brand for its error', () => {
    expect(QuestionStoreError.isInstance({ [preReleaseBrand]: true, code: 'STORE_CLOSED' })).toBe(false);
    expect(AskseamError.isInstance({ [preReleaseBrand]: true, code: 'STORE_CLOSED' })).toBe(false);
    expect((new QuestionStoreError('STORE_CLOSED', 'x') as unknown as Record<symbol, unknown>)[preReleaseBrand]).toBeUndefined();
  });

  it('does not take another package\'s error, or a brand without a code, for its own', () => {
    expect(QuestionStoreError.isInstance(new UserQuestionError('ASK_ABORTED', 'x'))).toBe(false);
    expect(QuestionStoreError.isInstance({ [brand]: true })).toBe(false);
    expect(QuestionStoreError.isInstance(Object.assign(new Error('x'), { code: 'STORE_CLOSED' }))).toBe(false);
  });
});
