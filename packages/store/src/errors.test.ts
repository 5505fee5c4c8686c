import { AskseamError, UserQuestionError } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { QuestionStoreError } from './errors.js';

// What another copy of this package (same version) and an older version put on their errors.
const brand = Symbol.for('askseam.QuestionStoreError');
const oldBrand = Symbol.for('askseam.store.error');

/** The check an older copy of this package runs (its brand, and a string code). */
function olderCopyRecognises(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[oldBrand] === true && typeof (value as { code?: unknown }).code === 'string';
}

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

  it('recognises an error of an older version by its old brand, and is recognised by it', () => {
    expect(QuestionStoreError.isInstance({ [oldBrand]: true, code: 'STORE_CLOSED' })).toBe(true);
    expect(AskseamError.isInstance({ [oldBrand]: true, code: 'STORE_CLOSED' })).toBe(true);
    expect(olderCopyRecognises(new QuestionStoreError('STORE_CLOSED', 'x'))).toBe(true);
  });

  it('does not take another package\'s error, or a brand without a code, for its own', () => {
    expect(QuestionStoreError.isInstance(new UserQuestionError('ASK_ABORTED', 'x'))).toBe(false);
    expect(QuestionStoreError.isInstance({ [brand]: true })).toBe(false);
    expect(QuestionStoreError.isInstance(Object.assign(new Error('x'), { code: 'STORE_CLOSED' }))).toBe(false);
  });
});
