import { AskseamError, UserQuestionError } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { DemoError } from './errors.js';

// What another copy of this package puts on its errors, and the brand of a pre-release scheme that never shipped.
const brand = Symbol.for('askseam.DemoError');
const preReleaseBrand = Symbol.for('askseam.demo.error');

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

  it('does not take an object carrying only the never-published pre-release brand for its error', () => {
    expect(DemoError.isInstance({ [preReleaseBrand]: true, code: 'MODEL_HTTP' })).toBe(false);
    expect(AskseamError.isInstance({ [preReleaseBrand]: true, code: 'MODEL_HTTP' })).toBe(false);
    expect((new DemoError('MODEL_HTTP', 'x') as unknown as Record<symbol, unknown>)[preReleaseBrand]).toBeUndefined();
  });

  it('does not take another package\'s error, or a brand without a code, for its own', () => {
    expect(DemoError.isInstance(new UserQuestionError('ASK_ABORTED', 'x'))).toBe(false);
    expect(DemoError.isInstance({ [brand]: true })).toBe(false);
    expect(DemoError.isInstance(Object.assign(new Error('x'), { code: 'MODEL_HTTP' }))).toBe(false);
  });
});
