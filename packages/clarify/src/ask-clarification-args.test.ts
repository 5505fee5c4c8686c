import { describe, expect, it } from 'vitest';
import { readAskClarificationArgs, type ClarifyDegradeReason } from './ask-clarification-args.js';
import { clarifyLimits } from './limits.js';

const read = (args: unknown) => {
  const result = readAskClarificationArgs(args);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

describe('readAskClarificationArgs: the call as a whole', () => {
  it('reads DeerFlow\'s own example unchanged', () => {
    const args = { question: '请选择项目技术栈', clarification_type: 'approach_choice', options: ['React', 'Vue', 'Svelte'] };
    const value = read(args);
    expect(value.args).toEqual(args);
    expect(value.degraded).toBeUndefined();
  });

  it('reads the arguments as JSON text, the way OpenAI-style APIs deliver them', () => {
    expect(read('{"question":"Which?","clarification_type":"suggestion"}').args).toEqual({ question: 'Which?', clarification_type: 'suggestion' });
  });

  it.each([
    [undefined, 'missing_info'],
    ['Approach Choice', 'approach_choice'],
    ['risk-confirmation', 'risk_confirmation'],
    ['something_else', 'missing_info'],
    [7, 'missing_info'],
  ])('reads the clarification type %j as %j', (type, expected) => {
    expect(read({ question: 'Q?', clarification_type: type }).args.clarification_type).toBe(expected);
  });

  it('drops blank context and options given as null, and trims the question', () => {
    expect(read({ question: '  Q?  ', clarification_type: 'missing_info', context: '  ', options: null, fields: null }).args).toEqual({
      question: 'Q?',
      clarification_type: 'missing_info',
    });
  });

  it('writes a context given as an object as JSON text', () => {
    expect(read({ question: 'Q?', context: { env: 'prod' } }).args.context).toBe('{"env":"prod"}');
  });

  it.each([
    ['no question', { clarification_type: 'missing_info' }, '"question" is missing'],
    ['a blank question', { question: '   ' }, '"question" is missing'],
    ['a question that is not text', { question: ['a'] }, '"question" is missing'],
    ['arguments that are not an object', ['question'], 'must be an object'],
    ['arguments that are not JSON', '{question: "x"', 'must be an object'],
  ])('refuses %s, saying how to fix the call', (_name, args, said) => {
    const result = readAskClarificationArgs(args);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS', message: expect.stringContaining(said) } });
  });
});

describe('readAskClarificationArgs: fields', () => {
  const fieldsOf = (fields: unknown) => read({ question: 'Fill in', clarification_type: 'missing_info', fields }).args.fields;

  it('reads DeerFlow\'s form example', () => {
    const fields = [
      { name: 'project_name', label: '项目名称', type: 'text', required: true },
      { name: 'framework', label: '技术栈', type: 'select', options: ['React', 'Vue', 'Svelte'], required: true },
      { name: 'init_git', label: '初始化 Git', type: 'checkbox' },
    ];
    expect(fieldsOf(fields)).toEqual(fields);
  });

  it('reads fields given as JSON text', () => {
    expect(fieldsOf('[{"name":"due","type":"date"}]')).toEqual([{ name: 'due', label: 'Due', type: 'date' }]);
  });

  it('reads fields given as a map from name to field or to a type word', () => {
    expect(fieldsOf({ project_name: { label: 'Project', type: 'text' }, replicas: 'integer', notes: 'Anything else?' })).toEqual([
      { name: 'project_name', label: 'Project', type: 'text' },
      { name: 'replicas', label: 'Replicas', type: 'number' },
      { name: 'notes', label: 'Anything else?', type: 'text' },
    ]);
  });

  it('reads bare strings as text fields', () => {
    expect(fieldsOf(['Project name', 'Owner'])).toEqual([
      { name: 'Project name', label: 'Project name', type: 'text' },
      { name: 'Owner', label: 'Owner', type: 'text' },
    ]);
  });

  it.each([
    ['string', 'text'],
    ['Long Text', 'textarea'],
    ['integer', 'number'],
    ['float', 'number'],
    ['boolean', 'checkbox'],
    ['yes-no', 'checkbox'],
    ['datetime-local', 'text'],
    [undefined, 'text'],
  ])('reads the type %j as %j', (type, expected) => {
    expect(fieldsOf([{ name: 'x', type }])?.[0]?.type).toBe(expected);
  });

  it.each([
    ['a select without options asks for text', { type: 'select' }, { type: 'text' }],
    ['a multi_select whose options are all blank asks for text', { type: 'multiselect', options: [' ', ''] }, { type: 'text' }],
    ['options on a text field make it a select', { type: 'text', options: ['S', 'M'] }, { type: 'select', options: ['S', 'M'] }],
    ['options on a checkbox make it a multi_select', { type: 'checkbox', options: 'Lint, Tests' }, { type: 'multi_select', options: ['Lint, Tests'] }],
    ['options without a type make it a select', { options: '["A","B"]' }, { type: 'select', options: ['A', 'B'] }],
    ['dropdown is a select', { type: 'dropdown', choices: ['A', 'A', 'B'] }, { type: 'select', options: ['A', 'B'] }],
  ])('%s', (_name, field, expected) => {
    expect(fieldsOf([{ name: 'x', ...field }])?.[0]).toMatchObject(expected);
  });

  it.each([
    [true, true],
    ['true', true],
    ['yes', true],
    [1, true],
    ['false', false],
    [0, false],
    ['maybe', undefined],
  ])('reads required %j as %j', (required, expected) => {
    expect(fieldsOf([{ name: 'x', required }])?.[0]?.required).toBe(expected);
  });

  it('names a field by its label, key or id when the name is missing, and labels it from its name', () => {
    expect(fieldsOf([{ label: 'Owner' }, { key: 'due_date' }, { id: 'teamSize', type: 'number' }])).toEqual([
      { name: 'Owner', label: 'Owner', type: 'text' },
      { name: 'due_date', label: 'Due date', type: 'text' },
      { name: 'teamSize', label: 'Team size', type: 'number' },
    ]);
  });
});

describe('readAskClarificationArgs: a form that cannot be used whole becomes one plain question', () => {
  const many = (count: number, make: (i: number) => unknown) => Array.from({ length: count }, (_, i) => make(i));
  const long = 'x'.repeat(clarifyLimits.textLength + 1);

  const cases: [string, Record<string, unknown>, ClarifyDegradeReason][] = [
    ...['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', ' __proto__ '].map((name): [string, Record<string, unknown>, ClarifyDegradeReason] => [
      `the reserved field name ${JSON.stringify(name)}`,
      { fields: [{ name: 'ok', type: 'text' }, { name, type: 'text' }] },
      'reserved-name',
    ]),
    ['a reserved name arriving as an own key of parsed JSON', { fields: JSON.parse('{"ok":"text","__proto__":"text"}') as unknown }, 'reserved-name'],
    ['two fields with one name', { fields: [{ name: 'a' }, { name: 'a', type: 'number' }] }, 'duplicate-name'],
    ['a field named like the top-level choice', { options: ['A', 'B'], fields: [{ name: 'choice' }] }, 'duplicate-name'],
    [`${clarifyLimits.fields + 1} fields`, { fields: many(clarifyLimits.fields + 1, (i) => ({ name: `f${i}` })) }, 'too-many-fields'],
    [`${clarifyLimits.options + 1} options`, { options: many(clarifyLimits.options + 1, (i) => `o${i}`) }, 'too-many-options'],
    [`${clarifyLimits.options + 1} options on a field`, { fields: [{ name: 's', type: 'select', options: many(clarifyLimits.options + 1, (i) => `o${i}`) }] }, 'too-many-options'],
    ['a label over the length limit', { fields: [{ name: 'a', label: long }] }, 'text-too-long'],
    ['a field name over the length limit', { fields: [{ name: long }] }, 'text-too-long'],
    ['a placeholder over the length limit', { fields: [{ name: 'a', placeholder: long }] }, 'text-too-long'],
    ['an option over the length limit', { options: ['ok', long] }, 'text-too-long'],
    ['arguments over 16 KB', { context: 'c'.repeat(clarifyLimits.argumentBytes), options: ['A', 'B'] }, 'too-large'],
    ['a field that is a number', { fields: [{ name: 'a' }, 42] }, 'unreadable-field'],
    ['a field with neither name nor label', { fields: [{ type: 'text' }] }, 'unreadable-field'],
    ['fields given as text that is not JSON', { fields: 'name, framework' }, 'unreadable-field'],
  ];

  it.each(cases)('on %s', (_name, extra, reason) => {
    const value = read({ question: 'Please complete the setup', clarification_type: 'missing_info', ...extra });
    expect(value.degraded?.reason).toBe(reason);
    expect(value.degraded?.message).toEqual(expect.any(String));
    expect(value.args.fields).toBeUndefined();
    expect(value.args.options).toBeUndefined();
    expect(value.args.question).toBe('Please complete the setup');
  });

  it('keeps a form exactly at the limits', () => {
    const value = read({
      question: 'Q',
      fields: many(clarifyLimits.fields, (i) => ({ name: `f${i}`, type: 'select', options: many(clarifyLimits.options, (j) => `${'o'.repeat(190)}${j}`) })).slice(0, 2),
    });
    expect(value.degraded).toBeUndefined();
    expect(read({ question: 'Q', fields: many(clarifyLimits.fields, (i) => ({ name: `f${i}` })) }).degraded).toBeUndefined();
    expect(read({ question: 'Q', options: many(clarifyLimits.options, (i) => `o${i}`) }).degraded).toBeUndefined();
  });

  it('remembers what the form asked for, to name it in the plain question', () => {
    const value = read({ question: 'Q', fields: [{ name: 'project_name', label: 'Project name' }, { name: 'toString' }] });
    expect(value.degraded).toMatchObject({
      options: [],
      fields: [
        { label: 'Project name', options: [], multiple: false },
        { label: 'To string', options: [], multiple: false },
      ],
    });
  });

  it('remembers all of it, however much there is: every field and every option', () => {
    const regions = many(25, (i) => `Region ${i + 1}`);
    const value = read({ question: 'Q', options: ['A', 'B'], fields: [...many(17, (i) => ({ name: `f${i}` })), { name: 'region', type: 'multi_select', options: regions }] });
    expect(value.degraded?.reason).toBe('too-many-fields');
    expect(value.degraded?.options).toEqual(['A', 'B']);
    expect(value.degraded?.fields).toHaveLength(18);
    expect(value.degraded?.fields.at(-1)).toEqual({ label: 'Region', options: regions, multiple: true });
  });
});
