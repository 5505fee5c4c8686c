import { answerMismatch, maxNumberAnswerLength, type AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { stringsFor } from './i18n.js';
import { problemText } from './problem-text.js';

describe('problemText', () => {
  it('words a number answer over the length limit with the limit, never with the question id', () => {
    const question: AskUserQuestionItem = { id: 'team_size', question: 'Team size?', input: { kind: 'number' } };
    const mismatch = answerMismatch([question], { answers: [{ id: 'team_size', selected: [], custom: '9'.repeat(maxNumberAnswerLength + 1) }] });
    expect(mismatch?.rule).toBe('too-long');
    const text = problemText(stringsFor('en'), question, { kind: 'value', rule: mismatch!.rule, message: mismatch!.message });
    expect(text).toBe(stringsFor('en').problems.tooLong(maxNumberAnswerLength));
    expect(text).not.toContain('team_size');
  });
});
