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
