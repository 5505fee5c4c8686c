import { AskseamError, UserQuestionError } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { WebSocketHostError } from './errors.js';

// What another copy of this package puts on its errors, and the brand of a pre-release scheme that never shipped.
const brand = Symbol.for('askseam.WebSocketHostError');
const preReleaseBrand = Symbol.for('askseam.host-ws.error');

describe('WebSocketHostError', () => {
  it('is an AskseamError with its code, message, cause and name', () => {
    const cause = new Error('underneath');
    const error = new WebSocketHostError('STORE_FAILED', 'It went wrong.', { cause });

    expect(error).toBeInstanceOf(AskseamError);
    expect(AskseamError.isInstance(error)).toBe(true);
    expect(error.code).toBe('STORE_FAILED');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('WebSocketHostError: It went wrong.');
  });

  it('recognises an error of another copy by its askseam.WebSocketHostError brand', () => {
    expect(WebSocketHostError.isInstance({ [brand]: true, code: 'STORE_FAILED' })).toBe(true);
  });

  it('does not take an object carrying only the never-published pre-release brand for its error', () => {
    expect(WebSocketHostError.isInstance({ [preReleaseBrand]: true, code: 'STORE_FAILED' })).toBe(false);
    expect(AskseamError.isInstance({ [preReleaseBrand]: true, code: 'STORE_FAILED' })).toBe(false);
    expect((new WebSocketHostError('STORE_FAILED', 'x') as unknown as Record<symbol, unknown>)[preReleaseBrand]).toBeUndefined();
  });

  it('does not take another package\'s error, or a brand without a code, for its own', () => {
    expect(WebSocketHostError.isInstance(new UserQuestionError('ASK_ABORTED', 'x'))).toBe(false);
    expect(WebSocketHostError.isInstance({ [brand]: true })).toBe(false);
    expect(WebSocketHostError.isInstance(Object.assign(new Error('x'), { code: 'STORE_FAILED' }))).toBe(false);
  });
});
