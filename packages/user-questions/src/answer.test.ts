import { describe, expect, it } from 'vitest';
import { copyAnswer } from './answer.js';
import type { AskUserQuestionAnswer } from './schemas.js';

describe('copyAnswer', () => {
  it('keeps only the contract fields', () => {
    const answer = { answers: [{ id: 'a', selected: ['Yes'], custom: 'why not', extra: 1 }], meta: true } as unknown as AskUserQuestionAnswer;
    expect(copyAnswer(answer)).toStrictEqual({ answers: [{ id: 'a', selected: ['Yes'], custom: 'why not' }] });
  });

  it('shares no array with the original', () => {
    const answer: AskUserQuestionAnswer = { answers: [{ id: 'a', selected: ['Yes'] }] };
    const copy = copyAnswer(answer);
    answer.answers[0]?.selected.push('No');
    answer.answers.push({ id: 'b', selected: [] });
    expect(copy).toStrictEqual({ answers: [{ id: 'a', selected: ['Yes'] }] });
  });

  it('omits a custom field that is present but undefined', () => {
    const copy = copyAnswer({ answers: [{ id: 'a', selected: [], custom: undefined }] });
    expect('custom' in (copy.answers[0] ?? {})).toBe(false);
  });
});
