import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerMismatch, matchesQuestions } from './match.js';
import type { AskUserQuestionAnswer, AskUserQuestionAnswerItem, AskUserQuestionItem } from './schemas.js';
import { UserQuestions } from './user-questions.js';

// An oracle written straight from docs/design.md's rule list ("Answer rules"), deliberately shaped differently from
// src/match.ts (one boolean expression per rule, sorting for duplicates, a regex for blankness),
// so that a mistake in one is unlikely to be repeated in the other.
function oracleFits(questions: readonly AskUserQuestionItem[], answer: AskUserQuestionAnswer): boolean {
  const items = answer.answers;
  const sameLength = items.length === questions.length;
  return (
    sameLength &&
    questions.every((question, position) => {
      const item = items[position] as AskUserQuestionAnswerItem;
      const offered = (question.options ?? []).map((option) => option.label);
      const sorted = [...item.selected].sort();
      const rules = [
        item.id === question.id,
        sorted.every((label, i) => i === 0 || sorted[i - 1] !== label),
        item.custom === undefined || [...item.custom].some((char) => !unseen.has(char)),
        question.multiSelect === true || !(item.custom !== undefined && item.selected.length > 0),
        question.multiSelect === true || item.selected.length <= 1,
        item.selected.every((label) => offered.includes(label)),
      ];
      return !rules.includes(false);
    })
  );
}

// Every character of customPool that a person cannot see (docs/forms.md: blank means nothing visible).
const unseen = new Set([' ', '\t', '\n', '\u00a0', '\u200b', '\u2060', '\u0085', '\ufeff']);

// Small pools make collisions (duplicate labels, near-miss labels, reused ids) common.
const labelPool = ['Yes', 'No', 'Later', 'Postgres (Recommended)', 'Postgres', 'yes'];
const idPool = ['a', 'b', 'c', 'd', 'e'];
const customPool = ['', ' ', '\n\t', 'free text', '  padded  ', '\u00a0', '\u200b', '\u2060\u00a0', '\u0085', '\ufeff', 'a\u200b'];

const questionArb = (id: string): fc.Arbitrary<AskUserQuestionItem> =>
  fc.record(
    {
      id: fc.constant(id),
      question: fc.constant(`Question ${id}?`),
      options: fc.uniqueArray(fc.constantFrom(...labelPool), { maxLength: 4 }).map((labels) => labels.map((label) => ({ label }))),
      multiSelect: fc.boolean(),
    },
    { requiredKeys: ['id', 'question'] },
  );

const batchArb: fc.Arbitrary<AskUserQuestionItem[]> = fc
  .uniqueArray(fc.constantFrom(...idPool), { minLength: 1, maxLength: 4 })
  .chain((ids) => fc.tuple(...ids.map(questionArb)));

/** Any answer item, loosely aimed at `question` so that both fits and misfits are common. */
const looseItemArb = (question: AskUserQuestionItem | undefined): fc.Arbitrary<AskUserQuestionAnswerItem> =>
  fc.record(
    {
      id: question ? fc.oneof({ weight: 4, arbitrary: fc.constant(question.id) }, { weight: 1, arbitrary: fc.constantFrom(...idPool) }) : fc.constantFrom(...idPool),
      selected: fc.array(fc.constantFrom(...labelPool, 'Unknown'), { maxLength: 3 }),
      custom: fc.constantFrom(...customPool),
    },
    { requiredKeys: ['id', 'selected'] },
  );

const looseAnswerArb = (questions: AskUserQuestionItem[]): fc.Arbitrary<AskUserQuestionAnswer> =>
  fc
    .oneof(
      { weight: 5, arbitrary: fc.constant(questions.length) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: questions.length + 1 }) },
    )
    .chain((length) => fc.tuple(...Array.from({ length }, (_, i) => looseItemArb(questions[i]))))
    .map((answers) => ({ answers }));

/** An answer item that fits `question` by construction. */
const fittingItemArb = (question: AskUserQuestionItem): fc.Arbitrary<AskUserQuestionAnswerItem> => {
  const labels = (question.options ?? []).map((option) => option.label);
  const text = fc.constantFrom('free text', '  padded  ', 'x');
  const skip = fc.constant({ id: question.id, selected: [] as string[] });
  const custom = text.map((value) => ({ id: question.id, selected: [] as string[], custom: value }));
  if (labels.length === 0) return fc.oneof(skip, custom);
  if (question.multiSelect !== true) {
    return fc.oneof(skip, custom, fc.constantFrom(...labels).map((label) => ({ id: question.id, selected: [label] })));
  }
  const subset = fc.shuffledSubarray(labels, { minLength: 1 });
  return fc.oneof(
    skip,
    custom,
    subset.map((selected) => ({ id: question.id, selected })),
    fc.tuple(subset, text).map(([selected, value]) => ({ id: question.id, selected, custom: value })),
  );
};

const fittingCaseArb = batchArb.chain((questions) =>
  fc.tuple(fc.constant(questions), fc.tuple(...questions.map(fittingItemArb)).map((answers) => ({ answers }))),
);

type Mutation = (questions: readonly AskUserQuestionItem[], answer: AskUserQuestionAnswer) => AskUserQuestionAnswer;

/** Change the item at `at` (modulo the length), knowing its question; an empty answer stays as it is. */
const onItem =
  (at: number, change: (item: AskUserQuestionAnswerItem, question: AskUserQuestionItem | undefined) => AskUserQuestionAnswerItem): Mutation =>
  (questions, { answers }) => ({
    answers: answers.map((item, i) => (i === at % answers.length ? change(item, questions[i]) : item)),
  });

const offeredLabel = (question: AskUserQuestionItem | undefined, pick: number): string[] => {
  const labels = question?.options?.map((option) => option.label) ?? [];
  return labels.length === 0 ? [] : [labels[pick % labels.length] as string];
};

// One small change each, so that a mutated fitting answer usually breaks exactly one rule.
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.nat()).map(([at, pick]) => onItem(at, (item, question) => ({ ...item, selected: [...item.selected, ...offeredLabel(question, pick)] }))),
  fc.tuple(fc.nat(), fc.constantFrom(...labelPool, 'Unknown')).map(([at, label]) => onItem(at, (item) => ({ ...item, selected: [...item.selected, label] }))),
  fc.nat().map((at) => onItem(at, (item) => ({ ...item, selected: [...item.selected, ...item.selected.slice(0, 1)] }))),
  fc.tuple(fc.nat(), fc.constantFrom(...customPool)).map(([at, custom]) => onItem(at, (item) => ({ ...item, custom }))),
  fc.nat().map((at) => onItem(at, ({ id, selected }) => ({ id, selected }))),
  fc.tuple(fc.nat(), fc.constantFrom(...idPool)).map(([at, id]) => onItem(at, (item) => ({ ...item, id }))),
  fc.constant<Mutation>((_, { answers }) => ({ answers: answers.slice(1) })),
  fc.constant<Mutation>((_, { answers }) => ({ answers: [...answers].reverse() })),
  fc.constant<Mutation>((_, { answers }) => ({ answers: [...answers, { id: 'z', selected: [] }] })),
);

// Purely random answers rarely fit, so most cases are fitting answers with a few small mutations.
const looseCaseArb = fc.oneof(
  { weight: 1, arbitrary: batchArb.chain((questions) => fc.tuple(fc.constant(questions), looseAnswerArb(questions))) },
  {
    weight: 3,
    arbitrary: fittingCaseArb.chain(([questions, answer]) =>
      fc
        .array(mutationArb, { maxLength: 2 })
        .map((mutations) => [questions, mutations.reduce((current, mutate) => mutate(questions, current), answer)] as const),
    ),
  },
);

describe('matchesQuestions against an independent oracle', () => {
  it('agrees with the oracle on random batches and random answers', () => {
    fc.assert(
      fc.property(looseCaseArb, ([questions, answer]) => {
        expect(matchesQuestions(questions, answer)).toBe(oracleFits(questions, answer));
      }),
      { numRuns: 300 },
    );
  });

  it('gives a reason exactly when the answer does not fit, blaming one of the questions', () => {
    fc.assert(
      fc.property(looseCaseArb, ([questions, answer]) => {
        const mismatch = answerMismatch(questions, answer);
        expect(mismatch === undefined).toBe(oracleFits(questions, answer));
        if (mismatch?.questionId !== undefined) expect(questions.map((q) => q.id)).toContain(mismatch.questionId);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts every answer that fits by construction', () => {
    fc.assert(
      fc.property(fittingCaseArb, ([questions, answer]) => {
        expect(answerMismatch(questions, answer)).toBeUndefined();
        expect(oracleFits(questions, answer)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('lets every fitting answer through the seam unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fittingCaseArb, async ([questions, answer]) => {
        const seam = new UserQuestions();
        seam.registerProvider({ ask: async () => answer });
        await expect(seam.ask({ questions })).resolves.toStrictEqual(answer);
      }),
      { numRuns: 100 },
    );
  });

  it('generates both fitting and misfit answers (the oracle comparison is not one-sided)', () => {
    const outcomes = fc.sample(looseCaseArb, { numRuns: 400, seed: 42 }).map(([questions, answer]) => oracleFits(questions, answer));
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(20);
    expect(outcomes.filter((fits) => !fits).length).toBeGreaterThan(20);
  });

  it('breaks every rule somewhere in the generated cases', () => {
    const rules = new Set(fc.sample(looseCaseArb, { numRuns: 2_000, seed: 7 }).map(([questions, answer]) => answerMismatch(questions, answer)?.rule));
    expect([...rules].sort()).toEqual(
      ['blank-custom', 'count', 'custom-with-selection', 'duplicate-selected', 'id-order', 'too-many-selected', 'unknown-label', undefined].sort(),
    );
  });
});
