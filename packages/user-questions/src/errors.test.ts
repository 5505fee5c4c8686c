import { describe, expect, it } from 'vitest';
import { AskseamError, hasUserQuestionErrorCode, UserQuestionError, userQuestionErrorCodes } from './errors.js';

// The brands of a pre-release scheme, never published: nothing may recognise or carry them.
const preReleaseBrands = ['askseam.error', 'askseam.store.error', 'askseam.host-ws.error', 'askseam.client.error', 'askseam.clarify.error', 'askseam.demo.error'];

describe('UserQuestionError', () => {
  it('carries its code, message, cause and name', () => {
    const cause = new Error('socket closed');
    const error = new UserQuestionError('ASK_ABORTED', 'The question was aborted.', { cause });

    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('ASK_ABORTED');
    expect(error.message).toBe('The question was aborted.');
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('UserQuestionError');
    expect(String(error)).toBe('UserQuestionError: The question was aborted.');
  });

  it('has no cause unless one is given', () => {
    expect('cause' in new UserQuestionError('NO_PROVIDER', 'No provider.')).toBe(false);
  });
});

describe('UserQuestionError.isInstance', () => {
  it('recognises its own errors', () => {
    expect(UserQuestionError.isInstance(new UserQuestionError('BAD_ANSWER', 'misfit'))).toBe(true);
  });

  it('recognises an error from another copy of the package by its registry-symbol marker', () => {
    // What a second installed copy's class produces: a different class, the same Symbol.for marker.
    const otherCopyMarker: unique symbol = Symbol.for('askseam.UserQuestionError') as never;
    class OtherCopyError extends Error {
      readonly [otherCopyMarker] = true;
      readonly code = 'ASK_CANCELLED';
    }
    const lookAlike = { [Symbol.for('askseam.UserQuestionError')]: true, code: 'ASK_TIMEOUT', message: 'late' };

    expect(UserQuestionError.isInstance(new OtherCopyError('dismissed'))).toBe(true);
    expect(new OtherCopyError('dismissed') instanceof UserQuestionError).toBe(false);
    expect(UserQuestionError.isInstance(lookAlike)).toBe(true);
  });

  it.each([
    ['a plain Error', new Error('nope')],
    ['an Error with a code but no marker', Object.assign(new Error('nope'), { code: 'ASK_ABORTED' })],
    ['a marker that is not true', { [Symbol.for('askseam.UserQuestionError')]: 'yes', code: 'ASK_ABORTED' }],
    ['a marker without a code', { [Symbol.for('askseam.UserQuestionError')]: true }],
    ['a module-local symbol of the same name', { [Symbol('askseam.UserQuestionError')]: true, code: 'ASK_ABORTED' }],
    ['the never-published pre-release brand askseam.error', { [Symbol.for('askseam.error')]: true, code: 'ASK_ABORTED' }],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'ASK_ABORTED'],
  ])('rejects %s', (_name, value) => {
    expect(UserQuestionError.isInstance(value)).toBe(false);
  });
});

describe('UserQuestionError brands', () => {
  it('recognises an error of another copy by its askseam.UserQuestionError brand', () => {
    expect(UserQuestionError.isInstance({ [Symbol.for('askseam.UserQuestionError')]: true, code: 'ASK_TIMEOUT' })).toBe(true);
  });

  it('carries only its own brand and the base brand, no pre-release one', () => {
    const error = new UserQuestionError('ASK_CANCELLED', 'dismissed');
    expect(Object.getOwnPropertySymbols(error).map((symbol) => Symbol.keyFor(symbol)).sort()).toEqual(['askseam.AskseamError', 'askseam.UserQuestionError']);
  });

  it('does not take another package\'s askseam error for its own', () => {
    expect(UserQuestionError.isInstance({ [Symbol.for('askseam.QuestionStoreError')]: true, code: 'STORE_CLOSED' })).toBe(false);
    expect(UserQuestionError.isInstance(new AskseamError('ASK_ABORTED', 'a bare base error'))).toBe(false);
  });
});

describe('AskseamError', () => {
  it('carries its code, message, cause and name', () => {
    const cause = new Error('disk full');
    const error = new AskseamError('SOMETHING_FAILED', 'It failed.', { cause });

    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('SOMETHING_FAILED');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('AskseamError: It failed.');
    expect('cause' in new AskseamError('X', 'no cause')).toBe(false);
  });

  it('is the base of UserQuestionError', () => {
    const error = new UserQuestionError('NO_PROVIDER', 'No provider.');
    expect(error).toBeInstanceOf(AskseamError);
    expect(AskseamError.isInstance(error)).toBe(true);
  });

  it('recognises any package\'s error from another copy, by the base brand', () => {
    expect(AskseamError.isInstance({ [Symbol.for('askseam.AskseamError')]: true, code: 'STORE_CLOSED' })).toBe(true);
  });

  it.each(preReleaseBrands)('does not recognise an error carrying only the never-published brand %s', (brand) => {
    expect(AskseamError.isInstance(Object.assign(new Error('old'), { [Symbol.for(brand)]: true, code: 'ANY_CODE' }))).toBe(false);
  });

  it.each([
    ['a plain Error', new Error('nope')],
    ['an Error with a code but no brand', Object.assign(new Error('nope'), { code: 'ASK_ABORTED' })],
    ['a brand that is not true', { [Symbol.for('askseam.AskseamError')]: 1, code: 'X' }],
    ['a brand without a code', { [Symbol.for('askseam.AskseamError')]: true }],
    ['an unknown askseam brand', { [Symbol.for('askseam.other.error')]: true, code: 'X' }],
    ['null', null],
  ])('rejects %s', (_name, value) => {
    expect(AskseamError.isInstance(value)).toBe(false);
  });
});

describe('hasUserQuestionErrorCode', () => {
  it('is true only for a UserQuestionError with that code', () => {
    const cancelled = new UserQuestionError('ASK_CANCELLED', 'dismissed');
    expect(hasUserQuestionErrorCode(cancelled, 'ASK_CANCELLED')).toBe(true);
    expect(hasUserQuestionErrorCode(cancelled, 'ASK_ABORTED')).toBe(false);
    expect(hasUserQuestionErrorCode(Object.assign(new Error('x'), { code: 'ASK_CANCELLED' }), 'ASK_CANCELLED')).toBe(false);
  });
});

describe('userQuestionErrorCodes', () => {
  // Copied by hand from docs/design.md ("Error codes"): the seam's ten, then the two raised by hosts.
  const designCodes = [
    'ASK_ABORTED',
    'EMPTY_QUESTIONS',
    'INVALID_QUESTIONS',
    'CALLER_NOT_LIVE',
    'DELEGATED_CALLER',
    'BAD_INTENT',
    'NO_PROVIDER',
    'DUPLICATE_PROVIDER',
    'BAD_ANSWER',
    'ASK_TIMEOUT',
    'ASK_MISSING_AGENT',
    'ASK_CANCELLED',
  ];

  it('lists exactly the codes of docs/design.md, each once', () => {
    expect([...userQuestionErrorCodes].sort()).toEqual([...designCodes].sort());
    expect(new Set(userQuestionErrorCodes).size).toBe(userQuestionErrorCodes.length);
  });
});
