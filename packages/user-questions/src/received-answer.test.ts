import { describe, expect, it } from 'vitest';
import { checkReceivedAnswer } from './received-answer.js';
import type { AskUserQuestionItem } from './schemas.js';

const questions: AskUserQuestionItem[] = [{ id: 'db', question: 'Which database?', options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }] }];

describe('checkReceivedAnswer', () => {
  it('returns a fitting answer as parsed', () => {
    expect(checkReceivedAnswer(questions, { answers: [{ id: 'db', selected: ['SQLite'] }] })).toEqual({
      ok: true,
      answer: { answers: [{ id: 'db', selected: ['SQLite'] }] },
    });
  });

  it('refuses fields the contract does not have, naming where', () => {
    const checked = checkReceivedAnswer(questions, { answers: [{ id: 'db', selected: ['SQLite'], note: 'x' }] });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.mismatch.rule).toBe('not-an-answer');
    expect(checked.mismatch.message).toMatch(/^The answer must be \{ answers: \[\{ id, selected: string\[\], custom\?: string \}\] \}: at answers\.0: /);
  });

  it('refuses a well-shaped answer that breaks a matchesQuestions rule, with that rule', () => {
    const checked = checkReceivedAnswer(questions, { answers: [{ id: 'db', selected: ['Postgres'] }] });
    expect(checked).toMatchObject({ ok: false, mismatch: { rule: 'unknown-label', questionId: 'db' } });
  });
});
