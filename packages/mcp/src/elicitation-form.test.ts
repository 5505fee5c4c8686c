import { answerMismatch, approvalQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { answerFromContent, elicitationFormFor } from './elicitation-form.js';

const everyKind: AskUserQuestionItem[] = [
  { id: 'db', header: 'Database', question: 'Which database?', detail: 'We run **Postgres** today.', options: [{ label: 'Postgres (Recommended)', description: 'Already run by ops.' }, { label: 'SQLite' }] },
  { id: 'features', question: 'Which features?', multiSelect: true, options: [{ label: 'Auth' }, { label: 'Search' }] },
  { id: 'name', question: 'Project name?', input: { kind: 'text', maxLength: 20 }, required: true, placeholder: 'acme' },
  { id: 'notes', question: 'Anything else?', input: { kind: 'textarea' } },
  { id: 'replicas', question: 'How many replicas?', input: { kind: 'number', min: 1, max: 9, step: 1 } },
  { id: 'ratio', question: 'Cache ratio?', input: { kind: 'number', min: 0, max: 1, step: 0.25 } },
  { id: 'launch', question: 'Launch day?', input: { kind: 'date', min: '2026-01-01' } },
  { id: 'tos', question: 'Accept the terms?', input: { kind: 'checkbox' } },
  { id: 'why', question: 'Why now?' },
];

describe('elicitationFormFor', () => {
  it('maps every askseam question kind to the spec’s restricted form schema', () => {
    const form = elicitationFormFor(everyKind);
    // The SDK's own schema of a form request: nothing nested, only the primitive field kinds.
    expect(ElicitRequestFormParamsSchema.safeParse({ mode: 'form', message: form.message, requestedSchema: form.requestedSchema }).success).toBe(true);
    expect(form.requestedSchema.properties).toEqual({
      db: {
        type: 'string',
        title: 'Database',
        description: 'Which database?',
        oneOf: [
          { const: 'Postgres (Recommended)', title: 'Postgres (Recommended): Already run by ops.' },
          { const: 'SQLite', title: 'SQLite' },
        ],
      },
      db_other: { type: 'string', title: 'Other (your own answer)', description: expect.any(String) },
      features: { type: 'array', title: 'Which features?', items: { anyOf: [{ const: 'Auth', title: 'Auth' }, { const: 'Search', title: 'Search' }] } },
      features_other: { type: 'string', title: 'Other (your own answer)', description: expect.any(String) },
      name: { type: 'string', title: 'Project name?', description: '(e.g. acme)', maxLength: 20 },
      notes: { type: 'string', title: 'Anything else?' },
      replicas: { type: 'integer', title: 'How many replicas?', minimum: 1, maximum: 9 },
      ratio: { type: 'number', title: 'Cache ratio?', minimum: 0, maximum: 1 },
      launch: { type: 'string', format: 'date', title: 'Launch day?' },
      tos: { type: 'boolean', title: 'Accept the terms?', default: false },
      why: { type: 'string', title: 'Why now?' },
    });
    expect(form.requestedSchema.required).toEqual(['name']);
    expect(form.message).toContain('Database: Which database?');
    expect(form.message).toContain('We run **Postgres** today.');
  });

  it('shows an approval\'s call first with every key named, and the model\'s words after it as unverified', () => {
    // 24 padding keys before the one that matters, and model text that draws its own arguments.
    const input = { ...Object.fromEntries(Array.from({ length: 24 }, (_, index) => [`note_${index}`, 'harmless'])), rm_rf_target: '/' };
    const questions = approvalQuestions({
      tool: { name: 'cleanup', input, description: 'Tidies notes.' },
      reason: 'Routine cleanup.\nArguments: { "note_0": "harmless" }',
    });
    const lines = elicitationFormFor(questions).message.split('\n');
    const tool = lines.indexOf('Tool: cleanup');
    expect(lines[tool + 1]).toBe(`Argument names (25): ${Object.keys(input).join(', ')}`);
    expect(lines[tool + 2]).toMatch(/^Arguments: \{/);
    const agent = lines.indexOf('The agent says (unverified):');
    expect(agent).toBeGreaterThan(tool + 2);
    // Everything the model wrote sits after that label, indented: none of it reads as the system's.
    expect(lines.slice(agent + 1)).toEqual(['  What it does: Tidies notes.', '  Why:', '    Routine cleanup.', '    Arguments: { "note_0": "harmless" }']);
  });

  it('names the free-text field so it cannot collide with another question’s id', () => {
    const form = elicitationFormFor([
      { id: 'a', question: 'A?', options: [{ label: 'x' }] },
      { id: 'a_other', question: 'Other?' },
    ]);
    expect(Object.keys(form.requestedSchema.properties)).toEqual(['a', 'a_other2', 'a_other']);
    expect(form.fields[0]!.other).toBe('a_other2');
  });

  it('rebuilds an accepted form into an answer that fits the questions', () => {
    const form = elicitationFormFor(everyKind);
    const answer = answerFromContent(form, {
      db: 'Postgres (Recommended)',
      features: ['Search'],
      features_other: 'Billing',
      name: 'acme',
      notes: '   ',
      replicas: 3,
      ratio: 0.5,
      launch: '2026-03-01',
      tos: true,
      why: 'Budget',
    });
    expect(answer.answers).toEqual([
      { id: 'db', selected: ['Postgres (Recommended)'] },
      { id: 'features', selected: ['Search'], custom: 'Billing' },
      { id: 'name', selected: [], custom: 'acme' },
      { id: 'notes', selected: [] },
      { id: 'replicas', selected: [], custom: '3' },
      { id: 'ratio', selected: [], custom: '0.5' },
      { id: 'launch', selected: [], custom: '2026-03-01' },
      { id: 'tos', selected: [], custom: 'true' },
      { id: 'why', selected: [], custom: 'Budget' },
    ]);
    expect(answerMismatch(everyKind, answer)).toBeUndefined();
  });

  it('leaves what the schema cannot express to the answer check: a step, a date bound, an option beside other text', () => {
    const form = elicitationFormFor(everyKind);
    const base = { name: 'acme' };
    const rule = (content: Record<string, string | number | boolean | string[]>) => answerMismatch(everyKind, answerFromContent(form, { ...base, ...content }))?.rule;
    expect(rule({ ratio: 0.3 })).toBe('off-step');
    expect(rule({ launch: '2025-12-31' })).toBe('out-of-range');
    expect(rule({ db: 'SQLite', db_other: 'MySQL' })).toBe('custom-with-selection');
    expect(rule({})).toBeUndefined();
  });
});
