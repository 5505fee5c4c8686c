import type { AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { isFormBatch } from './form-batch.js';

const name: AskUserQuestionItem = { id: 'name', question: 'Name?', input: { kind: 'text' }, required: true };
const age: AskUserQuestionItem = { id: 'age', question: 'Age?', input: { kind: 'number', min: 0 } };
const plan: AskUserQuestionItem = { id: 'plan', question: 'Plan?', options: [{ label: 'Free' }, { label: 'Team' }] };

describe('isFormBatch', () => {
  it('calls a batch of several questions that all declare an input a form', () => {
    expect(isFormBatch([name, age])).toBe(true);
  });

  it('counts option kinds (select, multi_select, checkbox) as inputs too', () => {
    const region: AskUserQuestionItem = { ...plan, id: 'region', input: { kind: 'multi_select' } };
    const agree: AskUserQuestionItem = { id: 'agree', question: 'Agree?', input: { kind: 'checkbox' } };
    expect(isFormBatch([{ ...plan, input: { kind: 'select' } }, region, agree])).toBe(true);
  });

  it('does not call a single typed question a form: the composer shows it on its one page anyway', () => {
    expect(isFormBatch([name])).toBe(false);
  });

  it('does not call a batch a form when one question declares no input', () => {
    expect(isFormBatch([name, plan])).toBe(false);
  });

  it('does not call a batch of plain questions a form', () => {
    expect(isFormBatch([plan, { ...plan, id: 'other' }])).toBe(false);
  });

  it('does not call an empty batch a form', () => {
    expect(isFormBatch([])).toBe(false);
  });
});
