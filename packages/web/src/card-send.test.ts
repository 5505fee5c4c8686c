import { QuestionClientError } from '@askseam/client';
import { describe, expect, it } from 'vitest';
import { misfitOf, refusalText } from './card-send.js';
import { stringsFor } from './i18n.js';

const mismatch = { rule: 'too-long', questionId: 'name', message: 'Question "name" takes at most 5 characters; the answer has 14.' } as const;

describe('misfitOf', () => {
  it("reads the mismatch of the client's invalid-answer rejection", () => {
    const error = new QuestionClientError('invalid-answer', 'does not fit', { rpcId: 'rpc-1', detail: mismatch.message, mismatch });
    expect(misfitOf(error)).toEqual(mismatch);
  });

  it('finds no misfit in any other refusal, nor in an invalid-answer from a client copy that carries none', () => {
    expect(misfitOf(new QuestionClientError('bad-response', 'refused', { rpcId: 'rpc-1', detail: 'stale session' }))).toBeUndefined();
    expect(misfitOf(new QuestionClientError('invalid-answer', 'does not fit', { rpcId: 'rpc-1', detail: mismatch.message }))).toBeUndefined();
    expect(misfitOf(new Error('boom'))).toBeUndefined();
  });
});

describe('refusalText', () => {
  const en = stringsFor('en');

  it("words the host's and the client's reasons in the element's language, with their detail", () => {
    expect(refusalText(en, new QuestionClientError('bad-response', 'refused', { detail: 'stale session' }))).toBe(en.errors['bad-response']('stale session'));
    expect(refusalText(en, new QuestionClientError('invalid-answer', 'x', { detail: mismatch.message }))).toBe(en.errors['invalid-answer'](mismatch.message));
    expect(refusalText(stringsFor('zh'), new QuestionClientError('not-connected', 'x'))).toBe(stringsFor('zh').errors['not-connected']);
  });

  it('falls back to the message of anything that is not a client error', () => {
    expect(refusalText(en, new Error('socket exploded'))).toBe(en.errors.unknown('socket exploded'));
    expect(refusalText(en, 'plain text')).toBe(en.errors.unknown('plain text'));
  });
});
