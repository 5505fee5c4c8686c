import { answerMismatch, matchesQuestions, questionBatchProblem, type AskUserQuestionItem } from '@askseam/user-questions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerFromDraft,
  answerItem,
  chooseOption,
  createDraft,
  firstIncomplete,
  firstProblem,
  goToPage,
  isComplete,
  itemAt,
  questionProblem,
  setChecked,
  setCustom,
  skipQuestion,
  valueProblem,
  type RequestDraft,
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

  it('leaves custom text of invisible characters out of the answer, as the seam calls it blank', () => {
    const draft = setCustom(createDraft(questions), open, 2, '\u200b\u2060\ufeff');
    expect(answerFromDraft(questions, draft).answers[2]).toEqual({ id: 'name', selected: [] });
    expect(isComplete(draft, 2)).toBe(false);
    const chosen = setCustom(chooseOption(createDraft(questions), single, 0, 'SQLite'), single, 0, '\u200b');
    expect(itemAt(chosen, 0).selected).toEqual(['SQLite']);
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
      fc.record({ kind: fc.constant('type' as const), index: fc.nat(2), text: fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: fc.constantFrom(' ', 'x', '\u200b', '\u2060', '\ufeff', '\u0085'), maxLength: 6 })) }),
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

// One question of every input kind, some required: the form the browser tests answer too.
const form: AskUserQuestionItem[] = [
  { id: 'name', question: 'Project name?', input: { kind: 'text', maxLength: 8 }, required: true, placeholder: 'seam' },
  { id: 'bio', question: 'One paragraph about it?', input: { kind: 'textarea', maxLength: 20 } },
  { id: 'size', question: 'Team size?', input: { kind: 'number', min: 1, max: 50, step: 0.5 }, required: true },
  { id: 'plan', question: 'Which plan?', input: { kind: 'select' }, options: [{ label: 'Free' }, { label: 'Pro (Recommended)' }] },
  { id: 'targets', question: 'Targets?', input: { kind: 'multi_select' }, options: [{ label: 'Linux' }, { label: 'macOS' }, { label: 'Windows' }], required: true },
  { id: 'agree', question: 'Accept the licence?', input: { kind: 'checkbox' }, required: true },
  { id: 'start', question: 'Start date?', input: { kind: 'date', min: '2026-01-01', max: '2026-12-31' } },
];
const at = (id: string) => form.findIndex((question) => question.id === id);
const formQuestion = (id: string) => form[at(id)]!;
const type = (draft: RequestDraft, id: string, text: string) => setCustom(draft, formQuestion(id), at(id), text);

describe('draft model with typed inputs', () => {
  it('uses a form the seam accepts as well formed', () => {
    expect(questionBatchProblem(form)).toBeUndefined();
  });

  it('starts a checkbox unchecked, which is already an answer: "false"', () => {
    const draft = createDraft(form);
    expect(itemAt(draft, at('agree'))).toEqual({ selected: [], custom: 'false', skipped: false });
    expect(isComplete(draft, at('agree'))).toBe(true);
    expect(answerItem(formQuestion('agree'), itemAt(draft, at('agree')))).toEqual({ id: 'agree', selected: [], custom: 'false' });
  });

  it('answers a checked checkbox "true" and an unchecked one "false" again', () => {
    let draft = setChecked(createDraft(form), formQuestion('agree'), at('agree'), true);
    expect(answerItem(formQuestion('agree'), itemAt(draft, at('agree')))).toEqual({ id: 'agree', selected: [], custom: 'true' });
    draft = setChecked(draft, formQuestion('agree'), at('agree'), false);
    expect(answerItem(formQuestion('agree'), itemAt(draft, at('agree')))).toEqual({ id: 'agree', selected: [], custom: 'false' });
  });

  it('answers a skipped optional checkbox with an empty selection, and un-skips it when the box is toggled', () => {
    const checkbox: AskUserQuestionItem = { id: 'cc', question: 'Copy the team?', input: { kind: 'checkbox' } };
    let draft = skipQuestion(createDraft([checkbox]), 0);
    expect(answerFromDraft([checkbox], draft).answers[0]).toEqual({ id: 'cc', selected: [] });
    draft = setChecked(draft, checkbox, 0, true);
    expect(itemAt(draft, 0)).toEqual({ selected: [], custom: 'true', skipped: false });
  });

  it('sends text and textarea values trimmed, and a date exactly as the date input reports it', () => {
    let draft = type(createDraft(form), 'name', '  seam ');
    draft = type(draft, 'bio', 'Line one\nline two ');
    draft = type(draft, 'start', '2026-03-01');
    const answers = answerFromDraft(form, draft).answers;
    expect(answers[at('name')]).toEqual({ id: 'name', selected: [], custom: 'seam' });
    expect(answers[at('bio')]).toEqual({ id: 'bio', selected: [], custom: 'Line one\nline two' });
    expect(answers[at('start')]).toEqual({ id: 'start', selected: [], custom: '2026-03-01' });
  });

  it.each([
    ['12', '12'],
    ['12.50', '12.50'],
    ['.5', '0.5'],
    ['1.5e1', '15'],
  ])('sends the number input value %j as the plain decimal %j', (typed, sent) => {
    const draft = type(createDraft(form), 'size', typed);
    expect(answerItem(formQuestion('size'), itemAt(draft, at('size')))).toEqual({ id: 'size', selected: [], custom: sent });
  });

  it('treats a select input as single-select and a multi_select input as multi-select', () => {
    let draft = chooseOption(createDraft(form), formQuestion('plan'), at('plan'), 'Free');
    draft = chooseOption(draft, formQuestion('plan'), at('plan'), 'Pro (Recommended)');
    draft = chooseOption(draft, formQuestion('targets'), at('targets'), 'Windows');
    draft = chooseOption(draft, formQuestion('targets'), at('targets'), 'Linux');
    draft = type(draft, 'targets', 'FreeBSD');
    const answers = answerFromDraft(form, draft).answers;
    expect(answers[at('plan')]).toEqual({ id: 'plan', selected: ['Pro (Recommended)'] });
    expect(answers[at('targets')]).toEqual({ id: 'targets', selected: ['Linux', 'Windows'], custom: 'FreeBSD' });
  });

  it('calls an empty required question required, skipped or not, and an empty optional one incomplete until skipped', () => {
    const draft = createDraft(form);
    expect(questionProblem(formQuestion('name'), itemAt(draft, at('name')))).toEqual({ kind: 'required' });
    expect(questionProblem(formQuestion('name'), itemAt(skipQuestion(draft, at('name')), at('name')))).toEqual({ kind: 'required' });
    expect(questionProblem(formQuestion('bio'), itemAt(draft, at('bio')))).toEqual({ kind: 'incomplete' });
    expect(questionProblem(formQuestion('bio'), itemAt(skipQuestion(draft, at('bio')), at('bio')))).toBeUndefined();
  });

  it.each([
    ['size', '51', 'out-of-range'],
    ['size', '2.25', 'off-step'],
    ['size', 'abc', 'not-a-number'],
    ['start', '2025-12-31', 'out-of-range'],
    ['start', '2026-02-30', 'not-a-date'],
    ['name', 'much too long', 'too-long'],
    ['name', 'two\u2028lines', 'multiline-text'],
    ['bio', 'x'.repeat(21), 'too-long'],
  ])('reports %s = %j as the seam rule %s', (id, text, rule) => {
    const draft = type(createDraft(form), id, text);
    expect(questionProblem(formQuestion(id), itemAt(draft, at(id)))).toMatchObject({ kind: 'value', rule });
  });

  it('calls a required text question answered with invisible characters required, not answered', () => {
    const draft = type(createDraft(form), 'name', '\u200b\u2060');
    expect(questionProblem(formQuestion('name'), itemAt(draft, at('name')))).toEqual({ kind: 'required' });
  });

  it.each([
    ['\u000b', 'vertical tab'],
    ['\u000c', 'form feed'],
    ['\u0085', 'next line'],
  ])('reports a one-line text answer broken by %j (%s) as multiline-text', (lineBreak) => {
    const draft = type(createDraft(form), 'name', `a${lineBreak}b`);
    expect(questionProblem(formQuestion('name'), itemAt(draft, at('name')))).toMatchObject({ kind: 'value', rule: 'multiline-text' });
  });

  it('leaves emptiness out of the value check that Next runs', () => {
    const draft = createDraft(form);
    expect(valueProblem(formQuestion('name'), itemAt(draft, at('name')))).toBeUndefined();
    expect(valueProblem(formQuestion('size'), itemAt(type(draft, 'size', '0'), at('size')))).toMatchObject({ rule: 'out-of-range' });
  });

  it('finds the first question, in order, that cannot be sent', () => {
    let draft = createDraft(form);
    expect(firstProblem(form, draft)).toEqual({ index: at('name'), problem: { kind: 'required' } });
    draft = type(draft, 'name', 'seam');
    draft = skipQuestion(draft, at('bio'));
    draft = type(draft, 'size', '100');
    expect(firstProblem(form, draft)).toMatchObject({ index: at('size'), problem: { kind: 'value', rule: 'out-of-range' } });
    draft = type(draft, 'size', '4.5');
    draft = chooseOption(draft, formQuestion('plan'), at('plan'), 'Free');
    draft = chooseOption(draft, formQuestion('targets'), at('targets'), 'macOS');
    draft = skipQuestion(draft, at('start'));
    expect(firstProblem(form, draft)).toBeUndefined();
    expect(matchesQuestions(form, answerFromDraft(form, draft))).toBe(true);
  });

  it('agrees with the seam on every answer it builds, whatever the person types or does', () => {
    const valueOf = (id: string): fc.Arbitrary<string> => {
      switch (formQuestion(id).input?.kind) {
        case 'number':
          return fc.oneof(fc.integer({ min: -5, max: 60 }).map(String), fc.double({ min: -10, max: 100, noNaN: true }).map(String), fc.string({ maxLength: 4 }));
        case 'date':
          return fc.oneof(
            fc.date({ min: new Date('2025-06-01T00:00:00Z'), max: new Date('2027-06-01T00:00:00Z'), noInvalidDate: true }).map((day) => day.toISOString().slice(0, 10)),
            fc.string({ maxLength: 10 }),
          );
        default:
          return fc.string({ maxLength: 24 });
      }
    };
    const ids = form.map((question) => question.id);
    const step = fc.oneof(
      fc.record({ kind: fc.constant('choose' as const), id: fc.constantFrom(...ids), pick: fc.nat(3) }),
      fc.constantFrom(...ids).chain((id) => valueOf(id).map((text) => ({ kind: 'type' as const, id, text }))),
      fc.record({ kind: fc.constant('check' as const), checked: fc.boolean() }),
      fc.record({ kind: fc.constant('skip' as const), id: fc.constantFrom(...ids) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let draft = createDraft(form);
        for (const action of steps) {
          if (action.kind === 'check') {
            draft = setChecked(draft, formQuestion('agree'), at('agree'), action.checked);
            continue;
          }
          const question = formQuestion(action.id);
          const index = at(action.id);
          if (action.kind === 'choose') {
            const label = question.options?.[action.pick % Math.max(1, question.options.length)]?.label;
            if (label !== undefined) draft = chooseOption(draft, question, index, label);
          } else if (action.kind === 'type') {
            // Typed inputs are typed into, so their own kind of value; a skip is never offered on a required one.
            draft = setCustom(draft, question, index, action.text);
          } else if (question.required !== true) {
            draft = skipQuestion(draft, index);
          }
        }
        const answer = answerFromDraft(form, draft);
        const mismatch = answerMismatch(form, answer);
        // What blocks sending in the UI: required and empty, or a value breaking its kind's rules.
        // (An unanswered optional question is sent as a skip, which fits; the UI asks about it first.)
        const blocking = form.findIndex((question, index) => {
          const problem = questionProblem(question, itemAt(draft, index));
          return problem !== undefined && problem.kind !== 'incomplete';
        });
        if (mismatch === undefined) expect(blocking).toBe(-1);
        else expect(form.findIndex((question) => question.id === mismatch.questionId)).toBe(blocking);
        if (firstProblem(form, draft) === undefined) expect(matchesQuestions(form, answer)).toBe(true);
      }),
    );
  });
});
