import { describe, expect, it } from 'vitest';
import { matchesQuestions, questionBatchProblem, type AskUserQuestionAnswer } from '@askseam/user-questions';
import { parseTextReply } from '@askseam/text';
import { compileAskClarification } from './ask-clarification-compile.js';
import type { CompiledClarification, CompileResult } from './compiled.js';
import { humanInputRequestSchema } from './human-input.js';
import { clarificationResultText } from './result.js';
import { answerFromValues, valuesOf } from './values.js';

function compiled(result: CompileResult): CompiledClarification {
  if (!result.ok) throw new Error(result.error.message);
  // Every compiled call passes the seam's batch check and yields a payload that fits its schema.
  expect(questionBatchProblem(result.value.request.questions)).toBeUndefined();
  expect(humanInputRequestSchema.parse(result.value.humanInput)).toEqual(result.value.humanInput);
  return result.value;
}

const projectForm = {
  question: '请补充项目配置',
  clarification_type: 'missing_info',
  fields: [
    { name: 'project_name', label: '项目名称', type: 'text', required: true, placeholder: 'my-app' },
    { name: 'framework', label: '技术栈', type: 'select', options: ['React', 'Vue', 'Svelte'], required: true },
    { name: 'features', label: '附加功能', type: 'multi_select', options: ['Lint', 'CI'] },
    { name: 'init_git', label: '初始化 Git', type: 'checkbox' },
    { name: 'replicas', label: '副本数', type: 'number' },
    { name: 'due', label: '截止日期', type: 'date' },
    { name: 'notes', label: '备注', type: 'textarea' },
  ],
};

describe('compileAskClarification: a plain question', () => {
  const value = compiled(compileAskClarification({ question: 'What is the target audience?', clarification_type: 'missing_info', context: 'You asked for a landing page.' }));

  it('asks one free question with the type as its chip and the context as its detail', () => {
    expect(value.request.questions).toEqual([
      { id: 'answer', header: 'Missing information', question: 'What is the target audience?', detail: 'You asked for a landing page.', input: { kind: 'textarea' } },
    ]);
    expect(value.inputMode).toBe('text');
  });

  it('writes a plain-text fallback and a text-mode payload', () => {
    expect(value.text).toContain('[Missing information] What is the target audience?\nContext:\nYou asked for a landing page.');
    expect(value.humanInput).toMatchObject({ source: 'ask_clarification', inputMode: 'text', clarificationType: 'missing_info', fields: [{ name: 'answer', type: 'textarea', required: false }] });
  });
});

describe('compileAskClarification: a choice', () => {
  const value = compiled(
    compileAskClarification({
      question: '你希望输出 Markdown 还是 HTML？',
      clarification_type: 'approach_choice',
      context: '你要求生成文档，但未指定输出格式。',
      options: '["Markdown", "HTML", "两者都要"]',
    }),
  );

  it('asks one choice among the normalised options, with a Chinese chip', () => {
    expect(value.request.questions[0]).toMatchObject({ id: 'answer', header: '方案选择', options: [{ label: 'Markdown' }, { label: 'HTML' }, { label: '两者都要' }], input: { kind: 'select' } });
    expect(value.inputMode).toBe('choice');
  });

  it('numbers the options in the fallback text, in Chinese', () => {
    expect(value.text).toContain('1. Markdown\n2. HTML\n3. 两者都要');
    expect(value.text).toContain('请回复选项编号或名称');
  });

  it('gives each option an id and a value in the payload', () => {
    expect(value.humanInput.fields[0]?.options).toEqual([
      { id: 'answer-option-1', label: 'Markdown', value: 'Markdown' },
      { id: 'answer-option-2', label: 'HTML', value: 'HTML' },
      { id: 'answer-option-3', label: '两者都要', value: '两者都要' },
    ]);
  });

  it('keeps descriptions that option objects carried', () => {
    const withDescriptions = compiled(compileAskClarification({ question: 'Which?', options: [{ label: 'A', description: 'Fast.' }, { label: 'B' }] }));
    expect(withDescriptions.request.questions[0]?.options).toEqual([{ label: 'A', description: 'Fast.' }, { label: 'B' }]);
  });
});

describe('compileAskClarification: a form', () => {
  const value = compiled(compileAskClarification(projectForm));

  it('asks one question per field, keyed by the field name, typed by the field type', () => {
    expect(value.request.questions.map((q) => [q.id, q.input?.kind, q.required === true])).toEqual([
      ['project_name', 'text', true],
      ['framework', 'select', true],
      ['features', 'multi_select', false],
      ['init_git', 'checkbox', false],
      ['replicas', 'number', false],
      ['due', 'date', false],
      ['notes', 'textarea', false],
    ]);
    expect(value.request.questions[2]?.multiSelect).toBe(true);
    expect(value.request.questions[0]).toMatchObject({ header: '缺少信息', detail: '请补充项目配置', placeholder: 'my-app' });
    expect(value.inputMode).toBe('form');
  });

  it('writes the purpose once on top of the numbered fields in the fallback text', () => {
    expect(value.text).toMatch(/^请补充项目配置\n\n请回答以下 7 个问题。\n\n1\. 项目名称（必填）\n/);
    expect(value.text).toContain('2. 技术栈（必填）\n   1) React\n   2) Vue\n   3) Svelte');
  });

  it('puts the top-level options first, as the question "choice", when a call has options and fields', () => {
    const both = compiled(compileAskClarification({ question: 'Set it up how?', options: ['Quick', 'Custom'], fields: [{ name: 'name' }] }));
    expect(both.request.questions.map((q) => q.id)).toEqual(['choice', 'name']);
  });

  it('turns a typed answer into typed values for the model', () => {
    const answer: AskUserQuestionAnswer = {
      answers: [
        { id: 'project_name', selected: [], custom: 'demo' },
        { id: 'framework', selected: ['Vue'] },
        { id: 'features', selected: ['CI'], custom: 'Docs' },
        { id: 'init_git', selected: [], custom: 'true' },
        { id: 'replicas', selected: [], custom: '3' },
        { id: 'due', selected: [], custom: '2026-08-20' },
        { id: 'notes', selected: [] },
      ],
    };
    expect(JSON.parse(clarificationResultText(value, answer))).toEqual({
      answers: { project_name: 'demo', framework: 'Vue', features: ['CI', 'Docs'], init_git: true, replicas: 3, due: '2026-08-20', notes: null },
    });
  });

  it('reads a plain-text reply to its fallback text into an answer that fits', () => {
    const reply = parseTextReply(value.request, '项目名称：demo\n技术栈：vue\n初始化 Git：是\n副本数：3\n截止日期：2026年8月20日');
    expect(reply.ok).toBe(true);
    if (reply.ok) {
      expect(matchesQuestions(value.request.questions, reply.answer)).toBe(true);
      expect(valuesOf(value.request.questions, reply.answer)).toMatchObject({ project_name: 'demo', framework: 'Vue', init_git: true, replicas: 3, due: '2026-08-20' });
    }
  });

  it('goes from values to an answer and back to the same values', () => {
    const values = { project_name: 'demo', framework: 'Svelte', features: ['Lint', 'Bench'], init_git: false, replicas: 2.5, due: '2026-01-31', notes: 'two\nlines' };
    const back = answerFromValues(value.request.questions, values);
    expect(back.ok).toBe(true);
    if (back.ok) expect({ ...valuesOf(value.request.questions, back.answer) }).toEqual(values);
  });

  it('reads a value of invisible characters as a skip, the seam\'s blank, and drops it from a list', () => {
    const back = answerFromValues(value.request.questions, { project_name: 'demo', framework: 'Vue', features: ['Lint', '\ufeff\u200b'], replicas: ' \u2060', notes: '\u200b\u200d' });
    expect(back.ok).toBe(true);
    if (back.ok) expect(valuesOf(value.request.questions, back.answer)).toMatchObject({ features: ['Lint'], replicas: null, notes: null });
  });

  it('names every field whose value does not fit', () => {
    const back = answerFromValues(value.request.questions, { project_name: '', framework: 'Vue', init_git: 'yes', replicas: '3e2', due: '2023-02-29' });
    expect(back).toEqual({
      ok: false,
      problems: [
        { questionId: 'project_name', message: expect.stringContaining('required') },
        { questionId: 'init_git', message: 'Field "init_git" is a checkbox: send true or false.' },
        { questionId: 'replicas', message: expect.stringContaining('plain decimal') },
        { questionId: 'due', message: expect.stringContaining('YYYY-MM-DD') },
      ],
    });
  });
});

describe('compileAskClarification: a form that degrades', () => {
  const value = compiled(
    compileAskClarification({
      question: 'Please complete the setup',
      clarification_type: 'missing_info',
      context: 'A new service.',
      fields: [{ name: 'project_name', label: 'Project name' }, { name: '__proto__', label: 'Owner' }],
    }),
  );

  it('asks one free question that still names what the form asked for', () => {
    expect(value.request.questions).toEqual([
      { id: 'answer', header: 'Missing information', question: 'Please complete the setup', detail: 'A new service.\n\nPlease cover:\n- Project name\n- Owner', input: { kind: 'textarea' } },
    ]);
    expect(value.degraded).toMatchObject({ reason: 'reserved-name' });
    expect(value.humanInput.degraded).toEqual({ reason: 'reserved-name', message: 'The field name "__proto__" is reserved.' });
  });

  it('tells the model the form was asked as free text', () => {
    const text = clarificationResultText(value, { answers: [{ id: 'answer', selected: [], custom: 'demo, owned by Ana' }] });
    expect(JSON.parse(text)).toEqual({ answer: 'demo, owned by Ana', note: expect.stringContaining('The form could not be shown as fields') });
  });
});

describe('compileAskClarification: the budget', () => {
  it('keeps the fallback text within the budget it is given', () => {
    const value = compiled(compileAskClarification({ question: 'Which?', context: 'word '.repeat(2000), options: ['A', 'B'] }, { budget: 600 }));
    expect(value.text.length).toBeLessThanOrEqual(600);
  });
});
