import { describe, expect, it } from 'vitest';
import { maxNumberAnswerLength, numberAnswerProblem } from './inputs.js';
import { answerMismatch, matchesQuestions, type AnswerMismatchRule } from './match.js';
import type { AskUserQuestionItem } from './schemas.js';

// The typed-input rules of docs/forms.md, each with an answer that keeps it and one that breaks it.

const q = (id: string, extra: Partial<AskUserQuestionItem>): AskUserQuestionItem => ({ id, question: `${id}?`, ...extra });
const one = (id: string, custom?: string, selected: string[] = []) => ({ answers: [custom === undefined ? { id, selected } : { id, selected, custom }] });

const age = q('age', { input: { kind: 'number', min: 0, max: 130 } });
const dose = q('dose', { input: { kind: 'number', min: 0.5, max: 2, step: 0.25 } });
const price = q('price', { input: { kind: 'number', step: 0.1 } });
const due = q('due', { input: { kind: 'date' } });
const window = q('window', { input: { kind: 'date', min: '2026-01-01', max: '2026-12-31' } });
const git = q('git', { input: { kind: 'checkbox' } });
const name = q('name', { input: { kind: 'text', maxLength: 5 } });
const notes = q('notes', { input: { kind: 'textarea', maxLength: 6 } });
const framework = q('framework', { input: { kind: 'select' }, options: [{ label: 'React' }, { label: 'Vue' }] });
const features = q('features', { input: { kind: 'multi_select' }, options: [{ label: 'Lint' }, { label: 'Tests' }, { label: 'CI' }] });
const mustName = q('must', { required: true });

interface Case {
  name: string;
  question: AskUserQuestionItem;
  passes: unknown[];
  fails: unknown[];
  rule: AnswerMismatchRule;
}

const cases: Case[] = [
  {
    name: 'a required question is not skipped',
    question: mustName,
    passes: [one('must', 'askseam')],
    fails: [one('must')],
    rule: 'required-skipped',
  },
  {
    name: 'a required select is answered by an option or custom text',
    question: { ...framework, required: true },
    passes: [one('framework', undefined, ['Vue']), one('framework', 'Svelte')],
    fails: [one('framework')],
    rule: 'required-skipped',
  },
  {
    name: 'a number is a plain decimal',
    question: age,
    passes: [one('age', '42'), one('age', '0'), one('age', '007'), one('age', '41.5'), one('age', '130.000')],
    fails: ['4e1', '0x2A', '+42', ' 42', '42 ', '42.', '.5', '1,000', 'NaN', 'Infinity', '-Infinity', '４２', '4_2', 'forty-two', '--1'].map((text) =>
      one('age', text),
    ),
    rule: 'not-a-number',
  },
  {
    name: 'a number lies within min and max, inclusive',
    question: age,
    passes: [one('age', '0'), one('age', '130'), one('age', '-0')],
    fails: [one('age', '-1'), one('age', '130.0000000000000000000001'), one('age', '-0.001'), one('age', '1000000000000000000000000')],
    rule: 'out-of-range',
  },
  {
    name: 'a number keeps to its step, counted exactly from min',
    question: dose,
    passes: [one('dose', '0.5'), one('dose', '0.75'), one('dose', '1.50'), one('dose', '2')],
    fails: [one('dose', '0.6'), one('dose', '1.0000001'), one('dose', '1.9')],
    rule: 'off-step',
  },
  {
    name: 'a step without min counts from zero, in exact decimals',
    question: price,
    passes: [one('price', '0.3'), one('price', '-0.7'), one('price', '12345678901234567890.1')],
    fails: [one('price', '0.35'), one('price', '0.01')],
    rule: 'off-step',
  },
  {
    name: 'a date is a real calendar day written YYYY-MM-DD',
    question: due,
    passes: [one('due', '2026-08-20'), one('due', '2024-02-29'), one('due', '2000-02-29'), one('due', '0001-01-01'), one('due', '9999-12-31')],
    fails: ['2023-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '0000-01-01', '2026-8-20', '20260820', '2026/08/20', '2026-08-20T00:00', ' 2026-08-20', 'tomorrow'].map(
      (text) => one('due', text),
    ),
    rule: 'not-a-date',
  },
  {
    name: 'a date lies within its min and max days',
    question: window,
    passes: [one('window', '2026-01-01'), one('window', '2026-12-31')],
    fails: [one('window', '2025-12-31'), one('window', '2027-01-01')],
    rule: 'out-of-range',
  },
  {
    name: 'a checkbox is answered "true" or "false", nothing else',
    question: git,
    passes: [one('git', 'true'), one('git', 'false'), one('git')],
    fails: ['yes', 'True', 'TRUE', '1', 'on', ' true', 'checked'].map((text) => one('git', text)),
    rule: 'not-a-checkbox-value',
  },
  {
    name: 'a checkbox selects nothing',
    question: git,
    passes: [one('git', 'true')],
    fails: [one('git', undefined, ['true']), one('git', undefined, ['Yes'])],
    rule: 'unknown-label',
  },
  {
    name: 'text keeps to maxLength, counted in characters a person sees',
    question: name,
    passes: [one('name', 'abcde'), one('name', '项目名称啊'), one('name', '👍👍👍👍👍')],
    fails: [one('name', 'abcdef'), one('name', '👍👍👍👍👍👍')],
    rule: 'too-long',
  },
  {
    name: 'text is a single line',
    question: name,
    passes: [one('name', 'a b')],
    fails: [one('name', 'a\nb'), one('name', 'a\r\nb'), one('name', 'a\u2028b')],
    rule: 'multiline-text',
  },
  {
    name: 'text is a single line by every break Unicode has: vertical tab, form feed and next line too',
    question: name,
    passes: [one('name', 'a\tb'), one('name', 'a\u00a0b')],
    fails: [one('name', 'a\vb'), one('name', 'a\fb'), one('name', 'a\u0085b'), one('name', 'a\u2029b')],
    rule: 'multiline-text',
  },
  {
    name: 'a textarea takes the same breaks',
    question: notes,
    passes: [one('notes', 'a\vb'), one('notes', 'a\fb'), one('notes', 'a\u0085b')],
    fails: [one('notes', 'a\u0085bcdef')],
    rule: 'too-long',
  },
  {
    name: 'custom text of invisible characters only is blank, on a text input too',
    question: name,
    passes: [one('name', '\u200bab'), one('name')],
    fails: [one('name', '\u200b'), one('name', '\u2060\u2060'), one('name', '\ufeff'), one('name', ' \u200d\u00ad '), one('name', '\u0085')],
    rule: 'blank-custom',
  },
  {
    name: 'a required question is not answered by invisible characters',
    question: mustName,
    passes: [one('must', 'yes')],
    fails: [one('must', '\u200b'), one('must', '\u2060'), one('must', '\u3164'), one('must', '\ufe0f')],
    rule: 'blank-custom',
  },
  {
    name: `a number answer is at most ${maxNumberAnswerLength} characters`,
    question: q('big', { input: { kind: 'number' } }),
    passes: [one('big', '9'.repeat(maxNumberAnswerLength)), one('big', `-${'1'.repeat(maxNumberAnswerLength - 3)}.5`)],
    fails: [one('big', '9'.repeat(maxNumberAnswerLength + 1)), one('big', '1'.repeat(1 << 20))],
    rule: 'too-long',
  },
  {
    name: 'a textarea may span lines and keeps to maxLength',
    question: notes,
    passes: [one('notes', 'ab\ncd'), one('notes', 'abc\r\nd')],
    fails: [one('notes', 'abc\ndef')],
    rule: 'too-long',
  },
  {
    name: 'a select takes one option',
    question: framework,
    passes: [one('framework', undefined, ['React']), one('framework', 'Svelte')],
    fails: [one('framework', undefined, ['React', 'Vue'])],
    rule: 'too-many-selected',
  },
  {
    name: 'a select takes custom text instead of an option, not beside one',
    question: framework,
    passes: [one('framework', 'Svelte')],
    fails: [one('framework', 'Svelte', ['React'])],
    rule: 'custom-with-selection',
  },
  {
    name: 'a multi_select input takes several options, as multiSelect does',
    question: features,
    passes: [one('features', undefined, ['Lint', 'CI']), one('features', 'Docs', ['Tests'])],
    fails: [one('features', undefined, ['Lint', 'Deploy'])],
    rule: 'unknown-label',
  },
];

describe('typed-input rules of answerMismatch', () => {
  for (const { name: title, question, passes, fails, rule } of cases) {
    it(`accepts answers that keep the rule: ${title}`, () => {
      for (const answer of passes) expect(answerMismatch([question], answer), JSON.stringify(answer)).toBeUndefined();
    });

    it(`rejects answers that break the rule, naming rule and question: ${title}`, () => {
      for (const answer of fails) {
        const mismatch = answerMismatch([question], answer);
        expect(mismatch, JSON.stringify(answer)).toMatchObject({ rule, questionId: question.id });
        expect(mismatch?.message).toContain(`"${question.id}"`);
        expect(matchesQuestions([question], answer)).toBe(false);
      }
    });
  }
});

describe('typed inputs leave the old rules alone', () => {
  it('lets a typed question that is not required be skipped', () => {
    for (const question of [age, due, git, name, notes, framework, features]) {
      expect(answerMismatch([question], one(question.id))).toBeUndefined();
    }
  });

  it('checks only custom text against the kind, so a question without input takes any text', () => {
    expect(answerMismatch([q('free', {})], one('free', '4e1'))).toBeUndefined();
  });

  it('treats required: false as not required', () => {
    expect(answerMismatch([{ ...mustName, required: false }], one('must'))).toBeUndefined();
  });

  it('reports a blank custom value as blank before checking it as a number', () => {
    expect(answerMismatch([age], one('age', '  '))?.rule).toBe('blank-custom');
  });

  it('quotes a rejected value back, clipped when it is long', () => {
    const mismatch = answerMismatch([due], one('due', 'x'.repeat(500)));
    expect(mismatch?.message).toContain('x'.repeat(40) + '…');
    expect(mismatch?.message).not.toContain('x'.repeat(41));
  });

  it('refuses a megabyte-long number by its length alone, naming the limit, before reading it as a number', () => {
    const huge = '1'.repeat(1 << 20);
    const mismatch = answerMismatch([age], one('age', huge));
    expect(mismatch).toMatchObject({ rule: 'too-long', questionId: 'age' });
    expect(mismatch?.message).toContain(`at most ${maxNumberAnswerLength} characters`);
    expect(mismatch?.message).toContain(String(huge.length));
    // The length decides first: text that is no number at all is refused for its length too.
    expect(numberAnswerProblem({ step: 0.1 }, 'x'.repeat(1 << 20))).toBe('too-long');
  });

  it('still compares a number of the longest allowed length exactly against its bounds', () => {
    // 10^99 + 1: a hundred digits, one more than max, which a JS number could not tell apart.
    const longest = `1${'0'.repeat(maxNumberAnswerLength - 2)}1`;
    expect(numberAnswerProblem({ max: 1e99 }, longest)).toBe('out-of-range');
    expect(numberAnswerProblem({ min: 1e99, step: 1 }, longest)).toBeUndefined();
  });

  it('says the bounds in the message of an out-of-range number', () => {
    expect(answerMismatch([age], one('age', '200'))?.message).toContain('from 0 to 130');
  });
});
