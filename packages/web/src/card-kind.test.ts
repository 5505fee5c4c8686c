import type { AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { cardKindOf } from './card-kind.js';

const planQuestion: AskUserQuestionItem = {
  id: 'plan',
  question: 'Ready to start coding?',
  detail: '1. Add the table\n2. Write the migration',
  options: [{ label: 'Yes, start (Recommended)' }, { label: 'No, keep planning' }],
  intent: { kind: 'plan-review', approve: 'Yes, start (Recommended)' },
};
const nameField: AskUserQuestionItem = { id: 'name', question: 'Name?', input: { kind: 'text' } };
const sizeField: AskUserQuestionItem = { id: 'size', question: 'How many?', input: { kind: 'number', min: 1 } };
const plain: AskUserQuestionItem = { id: 'db', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] };

describe('cardKindOf', () => {
  it('draws a plan review as the plan card, carrying the review it read', () => {
    const card = cardKindOf([planQuestion]);
    expect(card).toMatchObject({ kind: 'plan-review', review: { id: 'plan', approve: 'Yes, start (Recommended)', decline: 'No, keep planning' } });
  });

  it('draws a tool approval as the approval card, carrying the approval it read', () => {
    const approval: AskUserQuestionItem = {
      id: 'run',
      question: 'Run it?',
      options: [{ label: 'Approve' }, { label: 'Deny' }],
      intent: { kind: 'tool-approval', approve: 'Approve', tool: { name: 'rm', input: { path: '/tmp' } } },
    };
    expect(cardKindOf([approval])).toMatchObject({ kind: 'tool-approval', approval: { id: 'run', toolName: 'rm', approve: 'Approve', deny: 'Deny' } });
  });

  it('draws a batch of typed inputs as the form page', () => {
    expect(cardKindOf([nameField, sizeField])).toEqual({ kind: 'form' });
  });

  it('draws everything else in the composer: one typed input, plain questions, or a batch that mixes them', () => {
    expect(cardKindOf([nameField])).toEqual({ kind: 'composer' });
    expect(cardKindOf([plain])).toEqual({ kind: 'composer' });
    expect(cardKindOf([nameField, plain])).toEqual({ kind: 'composer' });
  });

  it('draws a plan-review intent that the plan card cannot show (no plan text) in the composer', () => {
    const { detail: _none, ...withoutPlan } = planQuestion;
    expect(cardKindOf([withoutPlan])).toEqual({ kind: 'composer' });
  });
});
