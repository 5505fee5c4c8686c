import { describe, expect, it } from 'vitest';
import { answerMismatch, matchesQuestions, type AnswerMismatchRule } from './match.js';
import type { AskUserQuestionItem } from './schemas.js';

const single: AskUserQuestionItem = {
  id: 'db',
  question: 'Which database?',
  options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }],
};
const multi: AskUserQuestionItem = {
  id: 'langs',
  question: 'Which languages?',
  options: [{ label: 'TypeScript' }, { label: 'Go' }, { label: 'Rust' }],
  multiSelect: true,
};
const open: AskUserQuestionItem = { id: 'name', question: 'What should the project be called?' };

interface RuleCase {
  rule: AnswerMismatchRule;
  questions: AskUserQuestionItem[];
  /** An answer that keeps the rule. */
  passes: unknown;
  /** An answer that breaks only this rule. */
  fails: unknown;
  /** The question the failing answer is blamed on (undefined: the batch as a whole). */
  blames: string | undefined;
}

const rules: { name: string; case: RuleCase }[] = [
  {
    name: 'one answer per question',
    case: {
      rule: 'count',
      questions: [single, multi],
      passes: { answers: [{ id: 'db', selected: [] }, { id: 'langs', selected: [] }] },
      fails: { answers: [{ id: 'db', selected: [] }] },
      blames: undefined,
    },
  },
  {
    name: 'answers matched to questions by position',
    case: {
      rule: 'id-order',
      questions: [single, multi],
      passes: { answers: [{ id: 'db', selected: [] }, { id: 'langs', selected: [] }] },
      fails: { answers: [{ id: 'langs', selected: [] }, { id: 'db', selected: [] }] },
      blames: 'db',
    },
  },
  {
    name: 'no label selected twice',
    case: {
      rule: 'duplicate-selected',
      questions: [multi],
      passes: { answers: [{ id: 'langs', selected: ['Go', 'Rust'] }] },
      fails: { answers: [{ id: 'langs', selected: ['Go', 'Go'] }] },
      blames: 'langs',
    },
  },
  {
    name: 'custom text not blank after trimming',
    case: {
      rule: 'blank-custom',
      questions: [open],
      passes: { answers: [{ id: 'name', selected: [], custom: ' askseam ' }] },
      fails: { answers: [{ id: 'name', selected: [], custom: ' \t\n ' }] },
      blames: 'name',
    },
  },
  {
    name: 'single-select: custom replaces the choice',
    case: {
      rule: 'custom-with-selection',
      questions: [single],
      passes: { answers: [{ id: 'db', selected: [], custom: 'MySQL' }] },
      fails: { answers: [{ id: 'db', selected: ['SQLite'], custom: 'MySQL' }] },
      blames: 'db',
    },
  },
  {
    name: 'single-select: at most one selected',
    case: {
      rule: 'too-many-selected',
      questions: [single],
      passes: { answers: [{ id: 'db', selected: ['SQLite'] }] },
      fails: { answers: [{ id: 'db', selected: ['SQLite', 'Postgres (Recommended)'] }] },
      blames: 'db',
    },
  },
  {
    name: 'every selected label is one of the options',
    case: {
      rule: 'unknown-label',
      questions: [multi],
      passes: { answers: [{ id: 'langs', selected: ['TypeScript'] }] },
      fails: { answers: [{ id: 'langs', selected: ['TypeScript', 'Zig'] }] },
      blames: 'langs',
    },
  },
  {
    name: 'no options: nothing can be selected',
    case: {
      rule: 'unknown-label',
      questions: [open],
      passes: { answers: [{ id: 'name', selected: [], custom: 'askseam' }] },
      fails: { answers: [{ id: 'name', selected: ['askseam'] }] },
      blames: 'name',
    },
  },
  {
    name: 'a "(Recommended)" label must be sent in full',
    case: {
      rule: 'unknown-label',
      questions: [single],
      passes: { answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }] },
      fails: { answers: [{ id: 'db', selected: ['Postgres'] }] },
      blames: 'db',
    },
  },
  {
    name: 'the answer has the shape { answers: [{ id, selected, custom? }] }',
    case: {
      rule: 'not-an-answer',
      questions: [single],
      passes: { answers: [{ id: 'db', selected: [] }] },
      fails: { answers: [{ id: 'db', selected: 'SQLite' }] },
      blames: 'db',
    },
  },
];

describe('matchesQuestions and answerMismatch, rule by rule', () => {
  it.each(rules)('accepts an answer that keeps the rule: $name', ({ case: { questions, passes } }) => {
    expect(answerMismatch(questions, passes)).toBeUndefined();
    expect(matchesQuestions(questions, passes)).toBe(true);
  });

  it.each(rules)('rejects an answer that breaks the rule, naming rule and question: $name', ({ case: { questions, fails, rule, blames } }) => {
    const mismatch = answerMismatch(questions, fails);
    expect(mismatch?.rule).toBe(rule);
    expect(mismatch?.questionId).toBe(blames);
    expect(mismatch?.message).toEqual(expect.any(String));
    expect(matchesQuestions(questions, fails)).toBe(false);
  });
});

describe('what always fits', () => {
  it('accepts a skip of every kind of question', () => {
    const answer = { answers: [single, multi, open].map(({ id }) => ({ id, selected: [] })) };
    expect(matchesQuestions([single, multi, open], answer)).toBe(true);
  });

  it('accepts custom text beside selected options on a multi-select question', () => {
    expect(matchesQuestions([multi], { answers: [{ id: 'langs', selected: ['Go', 'Rust'], custom: 'also Zig' }] })).toBe(true);
  });

  it('accepts custom text alone on a single-select question', () => {
    expect(matchesQuestions([single], { answers: [{ id: 'db', selected: [], custom: 'DuckDB' }] })).toBe(true);
  });

  it('treats multiSelect: false as single-select', () => {
    const explicit = { ...single, multiSelect: false };
    expect(answerMismatch([explicit], { answers: [{ id: 'db', selected: ['SQLite', 'Postgres (Recommended)'] }] })?.rule).toBe(
      'too-many-selected',
    );
  });
});

describe('answers that are not answers', () => {
  it.each([
    ['null', null],
    ['a string', 'SQLite'],
    ['an object without answers', { selected: ['SQLite'] }],
    ['answers that are not a list', { answers: { db: ['SQLite'] } }],
  ])('rejects %s as not-an-answer', (_name, answer) => {
    const mismatch = answerMismatch([single], answer);
    expect(mismatch?.rule).toBe('not-an-answer');
    expect(mismatch?.questionId).toBeUndefined();
  });

  it.each([
    ['an item that is not an object', 'SQLite'],
    ['an id that is not a string', { id: 1, selected: [] }],
    ['a selected label that is not a string', { id: 'db', selected: [1] }],
    ['a custom answer that is not a string', { id: 'db', selected: [], custom: 42 }],
  ])('rejects %s as not-an-answer for that question', (_name, item) => {
    const mismatch = answerMismatch([single], { answers: [item] });
    expect(mismatch).toMatchObject({ rule: 'not-an-answer', questionId: 'db' });
  });
});

describe('which reason is reported first', () => {
  it('blames the first misfit question in order', () => {
    const answer = {
      answers: [
        { id: 'db', selected: [] },
        { id: 'langs', selected: ['Zig'] },
        { id: 'name', selected: ['x'] },
      ],
    };
    expect(answerMismatch([single, multi, open], answer)).toMatchObject({ rule: 'unknown-label', questionId: 'langs' });
  });

  it('names the offending label and question in the message', () => {
    const mismatch = answerMismatch([single], { answers: [{ id: 'db', selected: ['Postgres'] }] });
    expect(mismatch?.message).toContain('"db"');
    expect(mismatch?.message).toContain('"Postgres"');
  });

  it('quotes an offending label, id or number clipped to 40 characters, never whole', () => {
    const long = 'x'.repeat(100_000);
    const age: AskUserQuestionItem = { id: 'age', question: 'How old?', input: { kind: 'number', min: 0, max: 130 } };
    const messages = [
      answerMismatch([single], { answers: [{ id: 'db', selected: [long] }] })?.message,
      answerMismatch([single], { answers: [{ id: long, selected: ['SQLite'] }] })?.message,
      answerMismatch([age], { answers: [{ id: 'age', selected: [], custom: '9'.repeat(1000) }] })?.message,
    ];
    expect(messages[0]).toContain(`"${'x'.repeat(40)}…"`);
    expect(messages[1]).toContain(`"${'x'.repeat(40)}…"`);
    for (const message of messages) expect(message?.length).toBeLessThan(200);
  });
});
