import { describe, expect, it } from 'vitest';
import {
  askUserQuestionAnswerSchema,
  askUserQuestionIntentSchema,
  askUserQuestionItemSchema,
  askUserQuestionsSchema,
} from './schemas.js';

describe('question schemas', () => {
  it('accepts an item with every contract field', () => {
    const item = {
      id: 'plan-review',
      question: 'Approve this plan?',
      header: 'Plan review',
      detail: '# Plan',
      options: [{ label: 'Approve', description: 'Start building.' }, { label: 'Keep planning' }],
      multiSelect: false,
      intent: { kind: 'plan-review', approve: 'Approve' },
    };
    expect(askUserQuestionItemSchema.parse(item)).toEqual(item);
  });

  it('keeps a "(Recommended)" suffix as part of the label', () => {
    const [item] = askUserQuestionsSchema.parse([{ id: 'db', question: 'Which?', options: [{ label: 'Postgres (Recommended)' }] }]);
    expect(item?.options?.[0]?.label).toBe('Postgres (Recommended)');
  });

  it('requires id and question', () => {
    expect(askUserQuestionItemSchema.safeParse({ question: 'Which?' }).success).toBe(false);
    expect(askUserQuestionItemSchema.safeParse({ id: 'db' }).success).toBe(false);
  });

  it('knows the plan-review intent and refuses kinds it does not know', () => {
    expect(askUserQuestionIntentSchema.safeParse({ kind: 'plan-review', approve: 'Approve' }).success).toBe(true);
    expect(askUserQuestionIntentSchema.safeParse({ kind: 'survey', approve: 'Approve' }).success).toBe(false);
  });
});

describe('answer schema', () => {
  it('accepts answers with and without custom text', () => {
    const answer = { answers: [{ id: 'a', selected: ['Yes'] }, { id: 'b', selected: [], custom: 'Maybe' }] };
    expect(askUserQuestionAnswerSchema.parse(answer)).toEqual(answer);
  });

  it('refuses unknown keys on the answer and on its items, since answers come from outside', () => {
    expect(askUserQuestionAnswerSchema.safeParse({ answers: [], extra: 1 }).success).toBe(false);
    expect(askUserQuestionAnswerSchema.safeParse({ answers: [{ id: 'a', selected: [], value: 'x' }] }).success).toBe(false);
  });

  it('requires selected, even for a skip', () => {
    expect(askUserQuestionAnswerSchema.safeParse({ answers: [{ id: 'a' }] }).success).toBe(false);
  });
});
