import type { AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { planReviewOf } from './plan-review.js';

const plan = '# Plan\n\n1. Migrate the table.';

function review(overrides: Partial<AskUserQuestionItem> = {}): AskUserQuestionItem {
  return {
    id: 'plan-review',
    question: 'Approve this plan?',
    header: 'Plan review',
    detail: plan,
    options: [{ label: 'Approve' }, { label: 'Keep planning' }],
    intent: { kind: 'plan-review', approve: 'Approve' },
    ...overrides,
  };
}

describe('planReviewOf', () => {
  it('claims a single plan-review question and names approve and decline', () => {
    expect(planReviewOf([review()])).toEqual({
      id: 'plan-review',
      question: 'Approve this plan?',
      plan,
      approve: 'Approve',
      decline: 'Keep planning',
    });
  });

  it('takes the decline label from the option that is not the approve one, whatever the order', () => {
    const claimed = planReviewOf([review({ options: [{ label: 'Keep planning' }, { label: 'Approve' }] })]);
    expect(claimed?.approve).toBe('Approve');
    expect(claimed?.decline).toBe('Keep planning');
  });

  it('leaves decline out when the approve option is the only one', () => {
    const claimed = planReviewOf([review({ options: [{ label: 'Approve' }] })]);
    expect(claimed).toEqual({ id: 'plan-review', question: 'Approve this plan?', plan, approve: 'Approve' });
    expect(claimed).not.toHaveProperty('decline');
  });

  it('accepts an empty plan, because only an absent detail disqualifies', () => {
    expect(planReviewOf([review({ detail: '' })])?.plan).toBe('');
  });

  it('declines a batch of two questions', () => {
    expect(planReviewOf([review(), { id: 'other', question: 'And this?' }])).toBeUndefined();
  });

  it('declines an empty batch', () => {
    expect(planReviewOf([])).toBeUndefined();
  });

  it('declines a question without a plan-review intent', () => {
    expect(planReviewOf([review({ intent: undefined })])).toBeUndefined();
  });

  it('declines a plan-review question without detail', () => {
    expect(planReviewOf([review({ detail: undefined })])).toBeUndefined();
  });

  it('declines a multi-select question', () => {
    expect(planReviewOf([review({ multiSelect: true })])).toBeUndefined();
  });

  it('declines a question with more than two options', () => {
    expect(planReviewOf([review({ options: [{ label: 'Approve' }, { label: 'Keep planning' }, { label: 'Start over' }] })])).toBeUndefined();
  });

  it('declines a question whose approve label is none of its options', () => {
    expect(planReviewOf([review({ intent: { kind: 'plan-review', approve: 'Ship it' } })])).toBeUndefined();
  });

  it('declines a plan-review question with no options at all', () => {
    expect(planReviewOf([review({ options: undefined })])).toBeUndefined();
  });
});
