import { describe, expect, it } from 'vitest';
import { questionBatchProblem } from '@askseam/user-questions';
import { humanInputRequestSchema } from './human-input.js';
import { compileRequestHumanInput, readRequestHumanInputArgs } from './request-human-input.js';

const read = (args: unknown) => {
  const result = readRequestHumanInputArgs(args);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

describe('readRequestHumanInputArgs', () => {
  it('reads the flat 12-factor fields', () => {
    const args = { question: 'Deploy v1.2.3 to production?', context: 'Real users are affected.', urgency: 'high', format: 'yes_no' };
    expect(read(args).args).toEqual(args);
  });

  it('reads the seed\'s nested options and ignores its intent', () => {
    expect(read({ intent: 'request_human_input', question: 'Deploy?', options: { urgency: 'high', format: 'multiple_choice', choices: ['Now', 'Tonight'] } }).args).toEqual({
      question: 'Deploy?',
      urgency: 'high',
      format: 'multiple_choice',
      choices: ['Now', 'Tonight'],
    });
  });

  it.each([
    ['urgent', 'high'],
    ['CRITICAL', 'high'],
    ['normal', 'medium'],
    ['low', 'low'],
    ['soon-ish', undefined],
  ])('reads the urgency %j as %j', (urgency, expected) => {
    expect(read({ question: 'Q?', urgency }).args.urgency).toBe(expected);
  });

  it.each([
    [{ format: 'yes/no' }, 'yes_no'],
    [{ format: 'Yes No' }, 'yes_no'],
    [{ format: 'boolean' }, 'yes_no'],
    [{ format: 'text' }, 'free_text'],
    [{}, 'free_text'],
    [{ choices: ['A', 'B'] }, 'multiple_choice'],
    [{ options: ['A', 'B'] }, 'multiple_choice'],
    [{ format: 'multiple_choice' }, 'free_text'],
    [{ format: 'multiple_choice', choices: '  ' }, 'free_text'],
    [{ format: 'yes_no', choices: ['A', 'B'] }, 'yes_no'],
  ])('reads %j as format %j', (extra, format) => {
    expect(read({ question: 'Q?', ...extra }).args.format).toBe(format);
  });

  it('normalises choices like options: JSON text, blanks, duplicates', () => {
    expect(read({ question: 'Q?', format: 'multiple_choice', choices: '["A", "", "a", "B"]' }).args.choices).toEqual(['A', 'B']);
  });

  it.each([
    ['too many choices', { choices: Array.from({ length: 25 }, (_, i) => `c${i}`) }, 'too-many-options'],
    ['a choice too long', { choices: ['ok', 'x'.repeat(201)] }, 'text-too-long'],
    ['arguments too large', { choices: ['A', 'B'], context: 'c'.repeat(17_000) }, 'too-large'],
  ])('asks as free text with %s', (_name, extra, reason) => {
    const value = read({ question: 'Q?', format: 'multiple_choice', ...extra });
    expect(value.args.format).toBe('free_text');
    expect(value.args.choices).toBeUndefined();
    expect(value.degraded?.reason).toBe(reason);
  });

  it('refuses a call without a question', () => {
    expect(readRequestHumanInputArgs({ format: 'yes_no' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS', message: expect.stringContaining('"question"') } });
  });
});

describe('compileRequestHumanInput', () => {
  it('asks a yes/no question with Yes and No and carries the urgency on the request', () => {
    const result = compileRequestHumanInput({ question: 'Deploy v1.2.3 to production?', context: 'Real users are affected.', urgency: 'high', format: 'yes_no' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.request).toEqual({
      urgency: 'high',
      questions: [{ id: 'answer', question: 'Deploy v1.2.3 to production?', detail: 'Real users are affected.', options: [{ label: 'Yes' }, { label: 'No' }], input: { kind: 'select' } }],
    });
    expect(result.value.text).toMatch(/^\[Urgent\]\nDeploy v1\.2\.3/);
    expect(humanInputRequestSchema.parse(result.value.humanInput)).toMatchObject({ source: 'request_human_input', urgency: 'high', inputMode: 'choice' });
  });

  it('offers 是 and 否 for a Chinese question', () => {
    const result = compileRequestHumanInput({ question: '确认是否将 v1.2.3 版本部署到生产环境？', options: { urgency: 'high', format: 'yes_no' } });
    expect(result.ok && result.value.request.questions[0]?.options).toEqual([{ label: '是' }, { label: '否' }]);
    expect(result.ok && result.value.text).toMatch(/^【紧急】\n确认是否/);
  });

  it('asks free text in a text box, and names the choices it could not offer', () => {
    const result = compileRequestHumanInput({ question: 'Which region?', format: 'multiple_choice', choices: Array.from({ length: 30 }, (_, i) => `r${i}`) });
    if (!result.ok) throw new Error(result.error.message);
    const [question] = result.value.request.questions;
    expect(question).toMatchObject({ id: 'answer', input: { kind: 'textarea' }, detail: ['The choices:', ...Array.from({ length: 30 }, (_, i) => `- r${i}`)].join('\n') });
    expect(questionBatchProblem(result.value.request.questions)).toBeUndefined();
  });
});
