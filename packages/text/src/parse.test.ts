import { describe, expect, it } from 'vitest';
import { matchesQuestions, maxNumberAnswerLength, type AskUserQuestionAnswerItem, type AskUserQuestionItem } from '@askseam/user-questions';
import { parseTextReply, type TextReplyResult } from './parse.js';

const framework: AskUserQuestionItem = {
  id: 'framework',
  header: 'Framework',
  question: 'Which framework?',
  options: [{ label: 'React (Recommended)' }, { label: 'Vue' }, { label: 'Svelte' }],
};
const features: AskUserQuestionItem = { id: 'features', question: 'Which extras?', options: [{ label: 'Lint' }, { label: 'Tests' }, { label: 'CI' }], multiSelect: true };
const name: AskUserQuestionItem = { id: 'name', question: 'Project name?', input: { kind: 'text', maxLength: 10 }, required: true };
const notes: AskUserQuestionItem = { id: 'notes', question: 'Anything else?', input: { kind: 'textarea' } };
const git: AskUserQuestionItem = { id: 'git', question: 'Initialise Git?', input: { kind: 'checkbox' } };
const due: AskUserQuestionItem = { id: 'due', question: 'Deadline?', input: { kind: 'date', min: '2026-01-01' } };
const replicas: AskUserQuestionItem = { id: 'replicas', question: 'Replicas?', input: { kind: 'number', min: 1, max: 9, step: 1 } };
const free: AskUserQuestionItem = { id: 'why', question: 'Why?' };

/** Parse, and hold the parser to its promise: whatever answer it returns fits the questions. */
function parse(questions: AskUserQuestionItem[], text: string): TextReplyResult {
  const result = parseTextReply(questions, text);
  if (result.ok) expect(matchesQuestions(questions, result.answer)).toBe(true);
  return result;
}

function answered(questions: AskUserQuestionItem[], text: string): AskUserQuestionAnswerItem[] {
  const result = parse(questions, text);
  if (!result.ok) throw new Error(`not understood: ${JSON.stringify(result.problems)}`);
  return result.answer.answers;
}

const only = (questions: AskUserQuestionItem[], text: string) => answered(questions, text)[0];

describe('one question with options', () => {
  it.each([
    ['2', ['Vue']],
    [' 2 ', ['Vue']],
    ['２', ['Vue']],
    ['Vue', ['Vue']],
    ['vue', ['Vue']],
    ['ＶＵＥ', ['Vue']],
    ['React', ['React (Recommended)']],
    ['react (recommended)', ['React (Recommended)']],
    ['React (Recommended)', ['React (Recommended)']],
    ['React（推荐）', ['React (Recommended)']],
  ])('reads %j as the option %j', (text, selected) => {
    expect(only([framework], text)).toEqual({ id: 'framework', selected });
  });

  it('keeps words that name no option as the answer in the person\'s own words', () => {
    expect(only([framework], 'Solid, probably')).toEqual({ id: 'framework', selected: [], custom: 'Solid, probably' });
  });

  it('takes quoted text literally, even when it names an option', () => {
    expect(only([framework], '"Vue"')).toEqual({ id: 'framework', selected: [], custom: 'Vue' });
    expect(only([framework], '“2”')).toEqual({ id: 'framework', selected: [], custom: '2' });
  });

  it.each(['skip', 'Skip', '跳过', '', '   '])('reads %j as a skip', (text) => {
    expect(only([framework], text)).toEqual({ id: 'framework', selected: [] });
  });

  it('refuses an option number that does not exist', () => {
    const result = parse([framework], '4');
    expect(result).toMatchObject({ ok: false, problems: [{ questionId: 'framework', message: expect.stringContaining('no option 4') }], partial: [] });
  });

  it('refuses two choices on a one-choice question', () => {
    for (const text of ['1, 2', 'React, Vue', '1 2']) {
      expect(parse([framework], text), text).toMatchObject({ ok: false, problems: [{ questionId: 'framework' }] });
    }
  });

  it('asks for the number when a label could mean two options', () => {
    const twins: AskUserQuestionItem = { id: 'db', question: 'Which?', options: [{ label: 'Postgres' }, { label: 'postgres' }] };
    expect(only([twins], 'postgres')).toEqual({ id: 'db', selected: ['postgres'] });
    expect(parse([twins], 'POSTGRES')).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('(1, 2)') }] });
  });
});

describe('one multi-select question', () => {
  it.each([
    ['1, 3', ['Lint', 'CI']],
    ['1 3', ['Lint', 'CI']],
    ['1,3', ['Lint', 'CI']],
    ['1，3', ['Lint', 'CI']],
    ['1、3', ['Lint', 'CI']],
    ['3, 1', ['CI', 'Lint']],
    ['1, 1', ['Lint']],
    ['lint, CI', ['Lint', 'CI']],
    ['Tests, 3', ['Tests', 'CI']],
  ])('reads %j as %j', (text, selected) => {
    expect(only([features], text)).toEqual({ id: 'features', selected });
  });

  it('keeps items that name no option beside the chosen ones', () => {
    expect(only([features], 'Lint, Docs, "Bench, nightly"')).toEqual({ id: 'features', selected: ['Lint'], custom: 'Docs, Bench, nightly' });
  });

  it('refuses a number that is no option', () => {
    expect(parse([features], '1, 7')).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('no option 7') }] });
  });
});

describe('option labels that contain a comma', () => {
  const cities: AskUserQuestionItem = {
    id: 'cities',
    question: 'Which offices?',
    options: [{ label: 'Washington, D.C.' }, { label: 'Boston' }, { label: 'Yes, tonight' }, { label: 'Paris, Texas, USA' }, { label: 'Paris' }],
    input: { kind: 'multi_select' },
  };
  const city: AskUserQuestionItem = { ...cities, id: 'city', input: { kind: 'select' } };

  it.each([
    ['Washington, D.C.', ['Washington, D.C.']],
    ['Yes, tonight', ['Yes, tonight']],
    ['Washington, D.C., Boston', ['Washington, D.C.', 'Boston']],
    ['Boston, Washington, D.C.', ['Boston', 'Washington, D.C.']],
    ['Boston，Yes, tonight', ['Boston', 'Yes, tonight']],
    ['Paris, Texas, USA, Paris', ['Paris, Texas, USA', 'Paris']],
    ['Paris, Washington, D.C.', ['Paris', 'Washington, D.C.']],
    ['washington, d.c., boston', ['Washington, D.C.', 'Boston']],
    ['1, 2', ['Washington, D.C.', 'Boston']],
  ])('reads the multi-select reply %j as %j', (text, selected) => {
    expect(only([cities], text)).toEqual({ id: 'cities', selected });
  });

  it('keeps what names no option as the person\'s own words beside a label with a comma', () => {
    expect(only([cities], 'Washington, D.C., Denver')).toEqual({ id: 'cities', selected: ['Washington, D.C.'], custom: 'Denver' });
    // Quoted text stays literal even when it spells a label.
    expect(only([cities], '"Washington, D.C.", Boston')).toEqual({ id: 'cities', selected: ['Boston'], custom: 'Washington, D.C.' });
  });

  it('splits a reply whose items are each an option, even when together they loosely spell another', () => {
    const pair: AskUserQuestionItem = { id: 'pair', question: 'Which?', options: [{ label: 'a, b' }, { label: 'A' }, { label: 'B' }], input: { kind: 'multi_select' } };
    expect(only([pair], 'a, b')).toEqual({ id: 'pair', selected: ['a, b'] });
    expect(only([pair], 'A, B')).toEqual({ id: 'pair', selected: ['A', 'B'] });
  });

  it('reads such a label on a one-choice question, and refuses it with a second option', () => {
    expect(only([city], 'Washington, D.C.')).toEqual({ id: 'city', selected: ['Washington, D.C.'] });
    expect(parse([city], 'Washington, D.C., Boston')).toMatchObject({ ok: false, problems: [{ questionId: 'city' }] });
  });

  it('reads such a label in a keyed reply to several questions', () => {
    expect(answered([cities, free], 'Which offices: Washington, D.C., Boston\nWhy: visits')).toEqual([
      { id: 'cities', selected: ['Washington, D.C.', 'Boston'] },
      { id: 'why', selected: [], custom: 'visits' },
    ]);
  });
});

describe('typed inputs', () => {
  it.each([
    ['42', undefined],
    ['yes', 'true'],
    ['Y', 'true'],
    ['是', 'true'],
    ['no', 'false'],
    ['否', 'false'],
    ['false', 'false'],
  ])('reads a checkbox reply %j', (text, custom) => {
    if (custom === undefined) expect(parse([git], text)).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('yes or no') }] });
    else expect(only([git], text)).toEqual({ id: 'git', selected: [], custom });
  });

  it.each([
    ['2026-08-20', '2026-08-20'],
    ['2026/8/20', '2026-08-20'],
    ['2026.08.20', '2026-08-20'],
    ['2026年8月20日', '2026-08-20'],
    ['２０２６－０８－２０', '2026-08-20'],
  ])('reads the date %j as %j', (text, custom) => {
    expect(only([due], text)).toEqual({ id: 'due', selected: [], custom });
  });

  it.each([
    ['2027-02-29', 'YYYY-MM-DD'],
    ['next Friday', 'YYYY-MM-DD'],
    ['2025-12-31', 'on or after 2026-01-01'],
  ])('refuses the date %j', (text, said) => {
    expect(parse([due], text)).toMatchObject({ ok: false, problems: [{ questionId: 'due', message: expect.stringContaining(said) }] });
  });

  it.each([
    ['3', '3'],
    ['+3', '3'],
    ['３', '3'],
    ['9', '9'],
  ])('reads the number %j as %j', (text, custom) => {
    expect(only([replicas], text)).toEqual({ id: 'replicas', selected: [], custom });
  });

  it('folds ".5" and "5." into plain decimals', () => {
    const any: AskUserQuestionItem = { id: 'x', question: 'x?', input: { kind: 'number' } };
    expect(only([any], '.5')).toEqual({ id: 'x', selected: [], custom: '0.5' });
    expect(only([any], '-.5')).toEqual({ id: 'x', selected: [], custom: '-0.5' });
    expect(only([any], '5.')).toEqual({ id: 'x', selected: [], custom: '5' });
  });

  it.each([
    ['three', 'needs a number'],
    ['1e3', 'needs a number'],
    ['0x10', 'needs a number'],
    ['10', 'from 1 to 9'],
    ['2.5', 'steps of 1'],
  ])('refuses the number %j', (text, said) => {
    expect(parse([replicas], text)).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining(said) }] });
  });

  it('takes text as typed, within maxLength, on one line', () => {
    expect(only([name], 'my-app')).toEqual({ id: 'name', selected: [], custom: 'my-app' });
    expect(parse([name], 'a-very-long-name')).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('at most 10') }] });
    expect(parse([name], 'two\nlines')).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('single line') }] });
  });

  it('refuses a text answer broken by a vertical tab, form feed or next-line character, as the seam does', () => {
    for (const text of ['two\u000blines', 'two\u000clines', 'two\u0085lines']) {
      expect(parse([name], text), JSON.stringify(text)).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('single line') }] });
    }
  });

  it('reads a reply of invisible characters as blank: a skip, or a refusal on a required question', () => {
    expect(only([free], '\u200b\u2060')).toEqual({ id: 'why', selected: [] });
    expect(only([free], '"\ufeff\u200b"')).toEqual({ id: 'why', selected: [] });
    expect(parse([name], '\u200b')).toMatchObject({ ok: false, problems: [{ questionId: 'name', message: 'This question is required; please answer it.' }] });
  });

  it(`refuses a number longer than ${maxNumberAnswerLength} characters, saying the limit`, () => {
    const huge = '1'.repeat(1 << 20);
    expect(parse([replicas], huge)).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining(`at most ${maxNumberAnswerLength} characters`) }] });
  });

  it('refuses to skip a required question', () => {
    expect(parse([name], 'skip')).toMatchObject({ ok: false, problems: [{ questionId: 'name', message: 'This question is required; please answer it.' }] });
    expect(parseTextReply([{ ...name, question: '项目叫什么？' }], '跳过')).toMatchObject({ ok: false, problems: [{ message: '本题是必填项，请回答。' }] });
  });

  it('takes a whole multi-line reply to a free question, "\\r\\n" read as "\\n"', () => {
    expect(only([free], 'Because\r\nit is faster.')).toEqual({ id: 'why', selected: [], custom: 'Because\nit is faster.' });
  });

  it('drops a leading key on a single question only when it names that question', () => {
    expect(only([framework], 'Framework: Vue')).toEqual({ id: 'framework', selected: ['Vue'] });
    expect(only([free], 'Note: it is faster')).toEqual({ id: 'why', selected: [], custom: 'Note: it is faster' });
    expect(only([free], '1. it is faster')).toEqual({ id: 'why', selected: [], custom: '1. it is faster' });
  });
});

describe('several questions', () => {
  const form = [name, framework, features, git];

  it('reads "key: value" parts on one line, keyed by id, header or number', () => {
    expect(answered(form, 'name: foo; framework: Vue; 3: 1 3; Git: yes')).toEqual([
      { id: 'name', selected: [], custom: 'foo' },
      { id: 'framework', selected: ['Vue'] },
      { id: 'features', selected: ['Lint', 'CI'] },
      { id: 'git', selected: [], custom: 'true' },
    ]);
  });

  it('reads one keyed line per question, in any order, with full-width colons and numbered lines', () => {
    expect(answered(form, '2：React\n1: my-app\n4. no')).toEqual([
      { id: 'name', selected: [], custom: 'my-app' },
      { id: 'framework', selected: ['React (Recommended)'] },
      { id: 'features', selected: [] },
      { id: 'git', selected: [], custom: 'false' },
    ]);
  });

  it('reads bare lines as the answers in question order when there is one per question', () => {
    expect(answered(form, 'my-app\n2\nskip\n是')).toEqual([
      { id: 'name', selected: [], custom: 'my-app' },
      { id: 'framework', selected: ['Vue'] },
      { id: 'features', selected: [] },
      { id: 'git', selected: [], custom: 'true' },
    ]);
  });

  it('lets a textarea answer run over the lines below its key', () => {
    expect(answered([notes, git], 'notes: first line\nsecond: line\ngit: no')).toEqual([
      { id: 'notes', selected: [], custom: 'first line\nsecond: line' },
      { id: 'git', selected: [], custom: 'false' },
    ]);
  });

  it('keeps a semicolon that starts no keyed part inside the text', () => {
    expect(answered([notes, git], 'notes: a; b; git: yes')[0]).toEqual({ id: 'notes', selected: [], custom: 'a; b' });
  });

  it('keeps quoted text whole across lines and semicolons', () => {
    expect(answered([notes, git], 'notes: "x;\n2: y"\ngit: yes')[0]).toEqual({ id: 'notes', selected: [], custom: 'x;\n2: y' });
  });

  it('lists every problem with its question, and keeps what it understood', () => {
    const result = parse(form, '2: 5\n3: 1\ngit: maybe');
    expect(result).toEqual({
      ok: false,
      problems: [
        { questionId: 'name', message: 'Question 1 is required; please answer it.' },
        { questionId: 'framework', message: 'Question 2 has no option 5; pick a number from 1 to 3.' },
        { questionId: 'git', message: 'Question 4 needs yes or no, not "maybe".' },
      ],
      partial: [{ id: 'features', selected: ['Lint'] }],
    });
  });

  it('passes over a line of invisible characters between keyed lines, as it does a blank one', () => {
    expect(answered(form, '1: my-app\n\u200b\u2060\n2: Vue\n3: CI\n4: yes')).toEqual([
      { id: 'name', selected: [], custom: 'my-app' },
      { id: 'framework', selected: ['Vue'] },
      { id: 'features', selected: ['CI'] },
      { id: 'git', selected: [], custom: 'true' },
    ]);
  });

  it('says when a line answers no question it can tell', () => {
    const result = parse(form, 'hello there\n1: my-app');
    expect(result).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('"hello there"') }], partial: [{ id: 'name', custom: 'my-app' }] });
    expect((result as { problems: { questionId?: string }[] }).problems[0]?.questionId).toBeUndefined();
  });

  it('does not let a keyless line run on under a question that takes one line', () => {
    expect(parse([features, git], '1: 1\nCI')).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('"CI"') }] });
  });

  it('refuses a question answered twice', () => {
    expect(parse(form, '1: a\nname: b')).toMatchObject({ ok: false, problems: [{ questionId: 'name', message: expect.stringContaining('twice') }] });
  });

  it('says how many lines it expected when bare lines do not match the questions', () => {
    expect(parse(form, 'my-app\nVue')).toEqual({
      ok: false,
      problems: [{ message: 'Got 2 lines for 4 questions; reply with one line per question, like "1: …".' }],
      partial: [],
    });
  });

  it('reads the number as the question when an id or header is also a number', () => {
    const odd: AskUserQuestionItem[] = [
      { id: '2', question: 'First?' },
      { id: 'b', header: '1', question: 'Second?' },
    ];
    expect(answered(odd, '2: second\n1: first')).toEqual([
      { id: '2', selected: [], custom: 'first' },
      { id: 'b', selected: [], custom: 'second' },
    ]);
  });
});

describe('Chinese', () => {
  const zhForm: AskUserQuestionItem[] = [
    { id: 'project_name', header: '项目名称', question: '项目叫什么？', input: { kind: 'text' }, required: true },
    { id: 'framework', header: '技术栈', question: '用哪个框架？', options: [{ label: 'React' }, { label: 'Vue' }], required: true },
    { id: 'init_git', header: '初始化 Git', question: '要初始化 Git 吗？', input: { kind: 'checkbox' } },
  ];

  it('reads keys by Chinese header with full-width punctuation', () => {
    expect(answered(zhForm, '项目名称：demo；技术栈：vue；初始化 Git：是')).toEqual([
      { id: 'project_name', selected: [], custom: 'demo' },
      { id: 'framework', selected: ['Vue'] },
      { id: 'init_git', selected: [], custom: 'true' },
    ]);
  });

  it('words its problems in Chinese when the questions are Chinese', () => {
    expect(parse(zhForm, '1：demo\n3：也许')).toEqual({
      ok: false,
      problems: [
        { questionId: 'framework', message: '第 2 题是必填项，请回答。' },
        { questionId: 'init_git', message: '第 3 题需要回答“是”或“否”，而不是“也许”。' },
      ],
      partial: [{ id: 'project_name', selected: [], custom: 'demo' }],
    });
  });

  it('words its problems in the language asked for', () => {
    const result = parseTextReply(zhForm, '1：demo', { lang: 'en' });
    expect(result).toMatchObject({ ok: false, problems: [{ message: 'Question 2 is required; please answer it.' }] });
  });
});

describe('what it accepts', () => {
  it('reads a request as well as a list of questions', () => {
    expect(parseTextReply({ questions: [framework], urgency: 'low' }, '2')).toEqual({ ok: true, answer: { answers: [{ id: 'framework', selected: ['Vue'] }] } });
  });
});

describe('keys by question text', () => {
  it('reads a form field by its label, the way a person fills a form in', () => {
    const fields: AskUserQuestionItem[] = [
      { id: 'project_name', question: 'Project name', input: { kind: 'text' } },
      { id: 'init_git', question: 'Initialise Git?', input: { kind: 'checkbox' } },
    ];
    expect(answered(fields, 'project name: demo\nInitialise Git: yes')).toEqual([
      { id: 'project_name', selected: [], custom: 'demo' },
      { id: 'init_git', selected: [], custom: 'true' },
    ]);
  });

  it('does not use a question text that two questions share as a key', () => {
    const twins: AskUserQuestionItem[] = [
      { id: 'a', question: 'Name?' },
      { id: 'b', question: 'Name?' },
    ];
    expect(parse(twins, 'Name: x\nb: y')).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('"Name: x"') }] });
  });
});
