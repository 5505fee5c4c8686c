import { UserQuestionError, UserQuestions, userQuestionErrorCodes, type UserQuestionErrorCode } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { askToolErrorHints } from './hints.js';
import { answerText, errorResult, toolErrorResult } from './result.js';

async function seamRejection(ask: () => Promise<unknown>): Promise<unknown> {
  try {
    await ask();
  } catch (error) {
    return error;
  }
  throw new Error('expected the seam to reject');
}

describe('toolErrorResult', () => {
  it.each(userQuestionErrorCodes)('renders %s with its code, its message and its own hint', (code) => {
    const result = toolErrorResult(new UserQuestionError(code, `Something about ${code}.`));
    expect(result).toEqual({ isError: true, code, text: `Error: Something about ${code}.\n${askToolErrorHints[code]}` });
  });

  it('gives every code a different hint', () => {
    const hints = Object.values(askToolErrorHints);
    expect(new Set(hints).size).toBe(hints.length);
    expect(Object.keys(askToolErrorHints).sort()).toEqual([...userQuestionErrorCodes, 'INVALID_ARGUMENTS', 'PROVIDER_FAILED'].sort());
  });

  // Codes the tool itself never lets through (it checks its arguments first), rendered from the real seam.
  const fromTheSeam: Array<[UserQuestionErrorCode, () => Promise<unknown>]> = [
    ['EMPTY_QUESTIONS', () => new UserQuestions().ask({ questions: [] })],
    ['INVALID_QUESTIONS', () => new UserQuestions().ask({ questions: [{ id: 'a', question: ' ' }] })],
    [
      'BAD_INTENT',
      () =>
        new UserQuestions().ask({
          questions: [{ id: 'plan', question: 'Approve?', options: [{ label: 'Yes' }], intent: { kind: 'plan-review', approve: 'Approve' }, detail: '' }],
        }),
    ],
    [
      'DUPLICATE_PROVIDER',
      async () => {
        const seam = new UserQuestions();
        const provider = { ask: async () => ({ answers: [] }) };
        const dispose = seam.registerProvider(provider);
        try {
          seam.registerProvider(provider);
        } finally {
          dispose();
        }
      },
    ],
  ];

  it.each(fromTheSeam)('renders the seam’s own %s error with its code and hint', async (code, ask) => {
    const result = toolErrorResult(await seamRejection(ask));
    expect(result.code).toBe(code);
    expect(result.text.endsWith(`\n${askToolErrorHints[code]}`)).toBe(true);
  });

  it('recognises a UserQuestionError from another copy of the seam by its marker', () => {
    const foreign = Object.assign(new Error('Dismissed.'), { code: 'ASK_CANCELLED', [Symbol.for('askseam.UserQuestionError')]: true });
    expect(toolErrorResult(foreign)).toMatchObject({ code: 'ASK_CANCELLED', text: `Error: Dismissed.\n${askToolErrorHints.ASK_CANCELLED}` });
  });

  it('renders a seam error with a code it does not know as PROVIDER_FAILED, keeping the message', () => {
    const newer = Object.assign(new Error('Quota exceeded.'), { code: 'ASK_QUOTA', [Symbol.for('askseam.UserQuestionError')]: true });
    expect(toolErrorResult(newer)).toMatchObject({ code: 'PROVIDER_FAILED', text: expect.stringContaining('Quota exceeded.') });
  });

  it('renders a plain error as PROVIDER_FAILED, keeping its message', () => {
    expect(toolErrorResult(new TypeError('fetch failed'))).toEqual({
      isError: true,
      code: 'PROVIDER_FAILED',
      text: `Error: Asking the user failed: fetch failed\n${askToolErrorHints.PROVIDER_FAILED}`,
    });
  });
});

describe('errorResult', () => {
  it('puts the message after "Error: " and the hint on the next line', () => {
    expect(errorResult('NOT_IN_PLAN_MODE', 'Plan mode is off.', 'Just do the work.')).toEqual({
      isError: true,
      code: 'NOT_IN_PLAN_MODE',
      text: 'Error: Plan mode is off.\nJust do the work.',
    });
  });
});

describe('answerText', () => {
  it('writes id, selected and custom in that order and drops fields outside the contract', () => {
    const answer = { answers: [{ custom: 'Later', selected: [], id: 'when', extra: true } as { id: string; selected: string[]; custom: string }] };
    expect(answerText(answer)).toBe('{"answers":[{"id":"when","selected":[],"custom":"Later"}]}');
  });
});
