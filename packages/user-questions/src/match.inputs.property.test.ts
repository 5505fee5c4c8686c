import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { questionBatchProblem } from './batch.js';
import { answerMismatch, matchesQuestions } from './match.js';
import type { AskUserQuestionAnswer, AskUserQuestionAnswerItem, AskUserQuestionInput, AskUserQuestionItem } from './schemas.js';

// An oracle for the typed-input rules, written from docs/forms.md and shaped unlike src/inputs.ts:
// numbers are split on "." and compared as JS numbers (the generated values are multiples of 1/8,
// where floating point is exact), dates go through Date's UTC calendar, lengths through Array.from.

function oracleFits(questions: readonly AskUserQuestionItem[], answer: AskUserQuestionAnswer): boolean {
  return answer.answers.length === questions.length && questions.every((question, i) => oracleItemFits(question, answer.answers[i]!));
}

function oracleItemFits(question: AskUserQuestionItem, item: AskUserQuestionAnswerItem): boolean {
  const kind = question.input?.kind;
  const several = question.multiSelect === true || kind === 'multi_select';
  const offered = new Set((question.options ?? []).map((option) => option.label));
  const custom = item.custom;
  const shapeRules = [
    item.id === question.id,
    new Set(item.selected).size === item.selected.length,
    custom === undefined || [...custom].some((char) => !unseen.has(char)),
    several || item.selected.length + (custom === undefined ? 0 : 1) <= 1,
    item.selected.every((label) => offered.has(label)),
  ];
  if (shapeRules.includes(false)) return false;
  if (item.selected.length === 0 && custom === undefined) return question.required !== true;
  if (custom === undefined) return true;
  return valueFits(question.input, custom);
}

function valueFits(input: AskUserQuestionInput | undefined, value: string): boolean {
  switch (input?.kind) {
    case 'number': {
      const unsigned = value.startsWith('-') ? value.slice(1) : value;
      const parts = unsigned.split('.');
      const digitsOnly = (part: string | undefined) => part !== undefined && part.length > 0 && [...part].every((c) => c >= '0' && c <= '9');
      if (parts.length > 2 || !digitsOnly(parts[0]) || (parts.length === 2 && !digitsOnly(parts[1]))) return false;
      const n = Number(value);
      if (input.min !== undefined && n < input.min) return false;
      if (input.max !== undefined && n > input.max) return false;
      return input.step === undefined || Number.isInteger((n - (input.min ?? 0)) / input.step);
    }
    case 'date': {
      const parts = value.split('-');
      if (parts.length !== 3 || parts[0]!.length !== 4 || parts[1]!.length !== 2 || parts[2]!.length !== 2) return false;
      if (!parts.every((part) => /^[0-9]+$/.test(part))) return false;
      const [y, m, d] = parts.map(Number) as [number, number, number];
      const day = new Date(0);
      day.setUTCFullYear(y, m - 1, d);
      const real = y >= 1 && day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
      return real && (input.min === undefined || value >= input.min) && (input.max === undefined || value <= input.max);
    }
    case 'checkbox':
      return ['true', 'false'].includes(value);
    case 'text':
      return lineBreaks.every((lineBreak) => !value.includes(lineBreak)) && (input.maxLength === undefined || Array.from(value).length <= input.maxLength);
    case 'textarea':
      return input.maxLength === undefined || Array.from(value).length <= input.maxLength;
    default:
      return true;
  }
}

// Written out by hand from docs/forms.md: the characters of customPool nobody sees, and every line break.
const unseen = new Set([' ', '\n', '\u000b', '\u000c', '\u0085', '\u200b', '\u2060']);
const lineBreaks = ['\n', '\r', '\u000b', '\u000c', '\u0085', '\u2028', '\u2029'];

// ── generators ──────────────────────────────────────────────────────────────────
// Small pools, so that near misses (off-step, a day too late, one character too many) are common.

const labelPool = ['React', 'Vue', 'Svelte (Recommended)', 'react'];
const customPool = [
  ' ', 'free text', 'a\nb', 'abcd', '\u200b', '\u2060 ', 'a\u000bb', 'a\u000cb', 'ab\u0085', '\u0085', '👍👍👍', 'true', 'false', 'True', '0', '-1', '0.5', '0.625', '1.25', '2', '2.5', '7', '-0.125', '1e0', '+1', '.5', '3.',
  '2024-02-29', '2023-02-29', '2026-04-30', '2026-04-31', '2026-13-01', '0000-01-01', '2026-1-01', 'React', 'Vue',
];

type Shape = Pick<AskUserQuestionItem, 'input' | 'options' | 'multiSelect'>;

const optionsArb = fc.uniqueArray(fc.constantFrom(...labelPool), { minLength: 1, maxLength: 3 }).map((labels) => labels.map((label) => ({ label })));
const eighths = fc.integer({ min: -8, max: 24 }).map((n) => n / 8);

const shapeArb: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({ options: optionsArb, multiSelect: fc.boolean() }, { requiredKeys: [] }),
  fc.record({ maxLength: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }) }).map(({ maxLength }) => ({ input: { kind: 'text' as const, ...(maxLength ? { maxLength } : {}) } })),
  fc.record({ maxLength: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }) }).map(({ maxLength }) => ({ input: { kind: 'textarea' as const, ...(maxLength ? { maxLength } : {}) } })),
  fc
    .record({ a: eighths, b: eighths, step: fc.constantFrom(undefined, 0.125, 0.25, 0.5, 1, 1.5) })
    .map(({ a, b, step }) => ({ input: { kind: 'number' as const, min: Math.min(a, b), max: Math.max(a, b), ...(step ? { step } : {}) } })),
  fc.constant({ input: { kind: 'number' as const } }),
  fc.constantFrom<Shape>({ input: { kind: 'date' } }, { input: { kind: 'date', min: '2024-01-01', max: '2026-04-30' } }, { input: { kind: 'date', min: '2026-01-01' } }),
  fc.constant<Shape>({ input: { kind: 'checkbox' } }),
  optionsArb.map((options) => ({ input: { kind: 'select' as const }, options })),
  optionsArb.map((options) => ({ input: { kind: 'multi_select' as const }, options })),
);

const batchArb: fc.Arbitrary<AskUserQuestionItem[]> = fc
  .array(fc.record({ shape: shapeArb, required: fc.boolean() }), { minLength: 1, maxLength: 3 })
  .map((entries) => entries.map(({ shape, required }, i) => ({ id: `q${i}`, question: `Question ${i}?`, required, ...shape })));

const looseItemArb = (question: AskUserQuestionItem): fc.Arbitrary<AskUserQuestionAnswerItem> =>
  fc.record(
    {
      id: fc.oneof({ weight: 9, arbitrary: fc.constant(question.id) }, { weight: 1, arbitrary: fc.constant('other') }),
      selected: fc.oneof(
        { weight: 3, arbitrary: fc.constant([] as string[]) },
        { weight: 2, arbitrary: fc.array(fc.constantFrom(...labelPool), { maxLength: 2 }) },
      ),
      custom: fc.constantFrom(...customPool),
    },
    { requiredKeys: ['id', 'selected'] },
  );

const looseCaseArb = batchArb.chain((questions) =>
  fc.tuple(fc.constant(questions), fc.tuple(...questions.map(looseItemArb)).map((answers): AskUserQuestionAnswer => ({ answers }))),
);

describe('typed-input rules against an independent oracle', () => {
  it('generates only well-formed batches (so gate 3 would let them through)', () => {
    fc.assert(
      fc.property(batchArb, (questions) => {
        expect(questionBatchProblem(questions)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('agrees with the oracle on random typed batches and near-miss answers', () => {
    fc.assert(
      fc.property(looseCaseArb, ([questions, answer]) => {
        expect(matchesQuestions(questions, answer)).toBe(oracleFits(questions, answer));
      }),
      { numRuns: 1_000 },
    );
  });

  it('generates fits and misfits, and breaks every typed-input rule somewhere', () => {
    const cases = fc.sample(looseCaseArb, { numRuns: 3_000, seed: 11 });
    const fits = cases.filter(([questions, answer]) => oracleFits(questions, answer)).length;
    expect(fits).toBeGreaterThan(100);
    expect(cases.length - fits).toBeGreaterThan(100);
    const rules = new Set(cases.map(([questions, answer]) => answerMismatch(questions, answer)?.rule));
    for (const rule of ['required-skipped', 'not-a-number', 'not-a-date', 'out-of-range', 'off-step', 'not-a-checkbox-value', 'too-long', 'multiline-text']) {
      expect(rules, rule).toContain(rule);
    }
  });
});
