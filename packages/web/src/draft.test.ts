import { matchesQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerFromDraft,
  chooseOption,
  createDraft,
  firstIncomplete,
  goToPage,
  isComplete,
  itemAt,
  setCustom,
  skipQuestion,
} from './draft.js';

const single: AskUserQuestionItem = {
  id: 'db',
  question: 'Which database?',
  options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }],
};
const multi: AskUserQuestionItem = {
  id: 'targets',
  question: 'Which targets?',
  multiSelect: true,
  options: [{ label: 'Linux' }, { label: 'macOS' }, { label: 'Windows' }],
};
const open: AskUserQuestionItem = { id: 'name', question: 'What should it be called?' };
const questions = [single, multi, open];

describe('draft model', () => {
  it('starts on the first question with nothing selected and nothing typed', () => {
    const draft = createDraft(questions);
    expect(draft.page).toBe(0);
    expect(draft.items).toEqual(questions.map(() => ({ selected: [], custom: '', skipped: false })));
  });

  it('keeps the full original label, suffix included, when an option is chosen', () => {
    const draft = chooseOption(createDraft(questions), single, 0, 'Postgres (Recommended)');
    expect(answerFromDraft(questions, draft).answers[0]).toEqual({ id: 'db', selected: ['Postgres (Recommended)'] });
  });

  it('replaces the choice of a single-select question when another option is chosen', () => {
    let draft = chooseOption(createDraft(questions), single, 0, 'Postgres (Recommended)');
    draft = chooseOption(draft, single, 0, 'SQLite');
    expect(itemAt(draft, 0).selected).toEqual(['SQLite']);
  });

  it('ignores a label the question does not offer', () => {
    const draft = createDraft(questions);
    expect(chooseOption(draft, single, 0, 'MySQL')).toBe(draft);
  });

  it('toggles options of a multi-select question and keeps them in offered order', () => {
    let draft = createDraft(questions);
    draft = chooseOption(draft, multi, 1, 'Windows');
    draft = chooseOption(draft, multi, 1, 'Linux');
    draft = chooseOption(draft, multi, 1, 'macOS');
    draft = chooseOption(draft, multi, 1, 'macOS');
    expect(itemAt(draft, 1).selected).toEqual(['Linux', 'Windows']);
  });

  it('clears the single-select choice when custom text is typed', () => {
    let draft = chooseOption(createDraft(questions), single, 0, 'SQLite');
    draft = setCustom(draft, single, 0, 'DuckDB');
    expect(itemAt(draft, 0)).toEqual({ selected: [], custom: 'DuckDB', skipped: false });
    expect(answerFromDraft(questions, draft).answers[0]).toEqual({ id: 'db', selected: [], custom: 'DuckDB' });
  });

  it('clears the custom text of a single-select question when an option is chosen', () => {
    let draft = setCustom(createDraft(questions), single, 0, 'DuckDB');
    draft = chooseOption(draft, single, 0, 'SQLite');
    expect(itemAt(draft, 0)).toEqual({ selected: ['SQLite'], custom: '', skipped: false });
  });

  it('keeps multi-select choices beside custom text', () => {
    let draft = chooseOption(createDraft(questions), multi, 1, 'Linux');
    draft = setCustom(draft, multi, 1, '  FreeBSD too \n');
    expect(answerFromDraft(questions, draft).answers[1]).toEqual({ id: 'targets', selected: ['Linux'], custom: 'FreeBSD too' });
  });

  it('leaves blank custom text out of the answer', () => {
    const draft = setCustom(createDraft(questions), open, 2, '   ');
    expect(answerFromDraft(questions, draft).answers[2]).toEqual({ id: 'name', selected: [] });
    expect(isComplete(draft, 2)).toBe(false);
  });

  it('keeps the choice when only blank text is typed into a single-select custom box', () => {
    let draft = chooseOption(createDraft(questions), single, 0, 'SQLite');
    draft = setCustom(draft, single, 0, ' ');
    expect(itemAt(draft, 0).selected).toEqual(['SQLite']);
  });

  it('answers a skipped question with an empty selection and drops what was there', () => {
    let draft = chooseOption(createDraft(questions), multi, 1, 'Linux');
    draft = setCustom(draft, multi, 1, 'and more');
    draft = skipQuestion(draft, 1);
    expect(answerFromDraft(questions, draft).answers[1]).toEqual({ id: 'targets', selected: [] });
    expect(isComplete(draft, 1)).toBe(true);
  });

  it('un-skips a question once it is answered after all', () => {
    let draft = skipQuestion(createDraft(questions), 2);
    draft = setCustom(draft, open, 2, 'askseam');
    expect(itemAt(draft, 2).skipped).toBe(false);
  });

  it('finds the first question that is neither answered nor skipped', () => {
    let draft = chooseOption(createDraft(questions), single, 0, 'SQLite');
    expect(firstIncomplete(draft)).toBe(1);
    draft = skipQuestion(draft, 1);
    expect(firstIncomplete(draft)).toBe(2);
    draft = setCustom(draft, open, 2, 'askseam');
    expect(firstIncomplete(draft)).toBeUndefined();
  });

  it('clamps the page to the batch', () => {
    const draft = createDraft(questions);
    expect(goToPage(draft, 7).page).toBe(2);
    expect(goToPage(draft, -1).page).toBe(0);
  });

  it('builds answers in question order with matching ids', () => {
    const answer = answerFromDraft(questions, createDraft(questions));
    expect(answer.answers.map((item) => item.id)).toEqual(['db', 'targets', 'name']);
  });

  it('never builds an answer that breaks the rules, whatever the person does', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('choose' as const), index: fc.nat(2), pick: fc.nat(3) }),
      fc.record({ kind: fc.constant('type' as const), index: fc.nat(2), text: fc.string({ maxLength: 6 }) }),
      fc.record({ kind: fc.constant('skip' as const), index: fc.nat(2) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        let draft = createDraft(questions);
        for (const action of steps) {
          const question = questions[action.index]!;
          if (action.kind === 'choose') {
            const label = question.options?.[action.pick % Math.max(1, question.options.length)]?.label;
            if (label !== undefined) draft = chooseOption(draft, question, action.index, label);
          } else if (action.kind === 'type') {
            draft = setCustom(draft, question, action.index, action.text);
          } else {
            draft = skipQuestion(draft, action.index);
          }
        }
        expect(matchesQuestions(questions, answerFromDraft(questions, draft))).toBe(true);
      }),
    );
  });
});
