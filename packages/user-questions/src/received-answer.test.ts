import { describe, expect, it } from 'vitest';
import { checkReceivedAnswer, isAnswerCheckedFor, isSealedAnswer, sealReceivedAnswer } from './received-answer.js';
import { sealCheckedBatch } from './sealed.js';
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

describe('sealReceivedAnswer', () => {
  const sealedBatch = () => sealCheckedBatch(structuredClone(questions));

  it('freezes an accepted answer all the way down and brands it as checked against that very sealed batch', () => {
    const batch = sealedBatch();
    const checked = sealReceivedAnswer(batch, { answers: [{ id: 'db', selected: ['SQLite'] }] });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.answer).toEqual({ answers: [{ id: 'db', selected: ['SQLite'] }] });
    expect(Object.isFrozen(checked.answer) && Object.isFrozen(checked.answer.answers)).toBe(true);
    expect(Object.isFrozen(checked.answer.answers[0]) && Object.isFrozen(checked.answer.answers[0]!.selected)).toBe(true);
    expect(isAnswerCheckedFor(checked.answer, batch)).toBe(true);
    expect(isSealedAnswer(checked.answer)).toBe(true);
  });

  it('does not vouch for the answer against any other batch, even an equal sealed one, nor for a copy of it', () => {
    const batch = sealedBatch();
    const checked = sealReceivedAnswer(batch, { answers: [{ id: 'db', selected: ['SQLite'] }] });
    if (!checked.ok) throw new Error('expected the answer to fit');
    expect(isAnswerCheckedFor(checked.answer, sealedBatch())).toBe(false);
    expect(isAnswerCheckedFor(checked.answer, questions)).toBe(false);
    expect(isAnswerCheckedFor(structuredClone(checked.answer), batch)).toBe(false);
    expect(isSealedAnswer(structuredClone(checked.answer))).toBe(false);
  });

  it('answers exactly as checkReceivedAnswer for a batch that is not sealed, and neither freezes nor brands', () => {
    const value = { answers: [{ id: 'db', selected: ['SQLite'] }] };
    const checked = sealReceivedAnswer(questions, value);
    expect(checked).toEqual(checkReceivedAnswer(questions, value));
    if (!checked.ok) throw new Error('expected the answer to fit');
    expect(Object.isFrozen(checked.answer)).toBe(false);
    expect(isSealedAnswer(checked.answer)).toBe(false);
  });

  it('refuses what checkReceivedAnswer refuses, with the same mismatch, and brands nothing', () => {
    const batch = sealedBatch();
    const value = { answers: [{ id: 'db', selected: ['Postgres'] }] };
    expect(sealReceivedAnswer(batch, value)).toEqual(checkReceivedAnswer(batch, value));
    expect(isSealedAnswer(value)).toBe(false);
    expect(isAnswerCheckedFor(value, batch)).toBe(false);
  });
});
