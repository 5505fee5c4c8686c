import { describe, expect, it } from 'vitest';
import { questionBatchProblem } from './batch.js';
import type { AskUserQuestionItem } from './schemas.js';

const colour: AskUserQuestionItem = {
  id: 'colour',
  question: 'Which colour?',
  header: 'Colour',
  options: [{ label: 'Red (Recommended)', description: 'Matches the logo.' }, { label: 'Blue' }],
};

describe('questionBatchProblem', () => {
  it('finds nothing wrong with a well-formed batch', () => {
    expect(questionBatchProblem([colour, { id: 'name', question: 'What name?' }])).toBeUndefined();
  });

  it('names the position of a question with a blank id, since it has no id to name', () => {
    expect(questionBatchProblem([colour, { id: ' \t', question: 'Why?' }])).toMatch(/^Question 2 has a blank id/);
  });

  it('names a question whose text is blank', () => {
    expect(questionBatchProblem([{ id: 'why', question: '   ' }])).toContain('"why"');
  });

  it('names an id used twice', () => {
    const problem = questionBatchProblem([colour, { id: 'name', question: 'Name?' }, { id: 'colour', question: 'Again?' }]);
    expect(problem).toContain('"colour"');
    expect(problem).toMatch(/twice/);
  });

  it('names an id or a label used twice in lists longer than 16 (and a repeat late in a short list)', () => {
    const many = Array.from({ length: 20 }, (_, index): AskUserQuestionItem => ({ id: `q${index}`, question: `Question ${index}?` }));
    expect(questionBatchProblem([...many, { id: 'q5', question: 'Again?' }])).toBe('Question id "q5" is used twice; ids must be unique within a batch.');
    expect(questionBatchProblem(many)).toBeUndefined();
    const options = Array.from({ length: 20 }, (_, index) => ({ label: `L${index}` }));
    expect(questionBatchProblem([{ id: 'db', question: 'Which?', options: [...options, { label: 'L9' }] }])).toBe('Question "db" offers the option "L9" twice; labels must be unique.');
    expect(questionBatchProblem([{ id: 'db', question: 'Which?', options }])).toBeUndefined();
    expect(questionBatchProblem([{ id: 'db', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }, { label: 'C' }, { label: 'B' }] }])).toContain('"B" twice');
  });

  it('treats ids that differ only in case as different', () => {
    expect(questionBatchProblem([colour, { ...colour, id: 'Colour' }])).toBeUndefined();
  });

  it('names the question and the label offered twice', () => {
    const problem = questionBatchProblem([{ id: 'db', question: 'Which?', options: [{ label: 'SQLite' }, { label: 'SQLite' }] }]);
    expect(problem).toContain('"db"');
    expect(problem).toContain('"SQLite"');
  });

  it('names the question of an option with a blank label', () => {
    expect(questionBatchProblem([{ id: 'db', question: 'Which?', options: [{ label: ' ' }] }])).toContain('"db"');
  });

  it('names the question and the path of a field of the wrong type', () => {
    const problem = questionBatchProblem([colour, { id: 'size', question: 'Which size?', multiSelect: 'yes' }]);
    expect(problem).toContain('Question "size"');
    expect(problem).toContain('questions.1.multiSelect');
  });

  it('reports an entry that is not a question object by its path', () => {
    expect(questionBatchProblem([colour, 'What size?'])).toMatch(/^questions\.1: /);
  });

  it('rejects an intent of an unknown kind', () => {
    expect(questionBatchProblem([{ ...colour, intent: { kind: 'survey' } }])).toContain('questions.0.intent');
  });
});

describe('questionBatchProblem: typed inputs', () => {
  const q = (extra: Partial<AskUserQuestionItem>): AskUserQuestionItem => ({ id: 'field', question: 'Which?', ...extra });
  const options = [{ label: 'React' }, { label: 'Vue' }];

  it('accepts every input kind declared consistently', () => {
    const batch: AskUserQuestionItem[] = [
      q({ id: 'a', input: { kind: 'text', maxLength: 80 }, required: true, placeholder: 'my-app' }),
      q({ id: 'b', input: { kind: 'textarea' } }),
      q({ id: 'c', input: { kind: 'number', min: 1, max: 1, step: 0.5 } }),
      q({ id: 'd', input: { kind: 'select' }, options, multiSelect: false }),
      q({ id: 'e', input: { kind: 'multi_select' }, options, multiSelect: true }),
      q({ id: 'f', input: { kind: 'checkbox' } }),
      q({ id: 'g', input: { kind: 'date', min: '2026-01-01', max: '2026-01-01' } }),
    ];
    expect(questionBatchProblem(batch)).toBeUndefined();
  });

  it.each<[string, AskUserQuestionItem, RegExp]>([
    ['options on a date', q({ input: { kind: 'date' }, options }), /kind date.*options/],
    ['options on a number', q({ input: { kind: 'number' }, options }), /kind number.*options/],
    ['options on a checkbox', q({ input: { kind: 'checkbox' }, options }), /kind checkbox.*options/],
    ['options on text', q({ input: { kind: 'text' }, options }), /kind text.*options/],
    ['a select without options', q({ input: { kind: 'select' } }), /select but no options/],
    ['a multi_select with an empty option list', q({ input: { kind: 'multi_select' }, options: [] }), /multi_select but no options/],
    ['multiSelect on input kind select', q({ input: { kind: 'select' }, options, multiSelect: true }), /multi_select for several/],
    ['multiSelect: false on input kind multi_select', q({ input: { kind: 'multi_select' }, options, multiSelect: false }), /multiSelect: false/],
    ['multiSelect on a textarea', q({ input: { kind: 'textarea' }, multiSelect: true }), /only multi_select/],
    ['a number whose min is above its max', q({ input: { kind: 'number', min: 5, max: 1 } }), /min 5 above max 1/],
    ['a date whose min is after its max', q({ input: { kind: 'date', min: '2026-02-01', max: '2026-01-31' } }), /min 2026-02-01 after max 2026-01-31/],
    ['a date bound that is no calendar day', q({ input: { kind: 'date', max: '2023-02-29' } }), /max "2023-02-29"/],
  ])('refuses %s, naming the question', (_name, question, message) => {
    const problem = questionBatchProblem([question]);
    expect(problem).toContain('"field"');
    expect(problem).toMatch(message);
  });

  it.each<[string, unknown]>([
    ['an input kind it does not know', { kind: 'color' }],
    ['a bound that belongs to another kind', { kind: 'number', maxLength: 3 }],
    ['a date bound on a checkbox', { kind: 'checkbox', min: '2026-01-01' }],
    ['a step of zero', { kind: 'number', step: 0 }],
    ['a negative step', { kind: 'number', step: -1 }],
    ['a maxLength that is not a whole positive number', { kind: 'text', maxLength: 2.5 }],
    ['a min that is not a number', { kind: 'number', min: '3' }],
  ])('refuses %s by the path of the field', (_name, input) => {
    const problem = questionBatchProblem([{ id: 'field', question: 'Which?', input }]);
    expect(problem).toContain('Question "field"');
    expect(problem).toContain('questions.0.input');
  });

  it('refuses required and placeholder of the wrong type', () => {
    expect(questionBatchProblem([{ id: 'field', question: 'Which?', required: 'yes' }])).toContain('questions.0.required');
    expect(questionBatchProblem([{ id: 'field', question: 'Which?', placeholder: 3 }])).toContain('questions.0.placeholder');
  });
});
