import { describe, expect, it } from 'vitest';
import { answerMismatch, questionBatchProblem } from '@askseam/user-questions';
import { parseTextReply, renderText } from '@askseam/text';
import { deadline } from './typed-question.js';

describe('the typed question of docs/forms.md', () => {
  it('is well formed, and only a real day in range answers it', () => {
    expect(questionBatchProblem([deadline])).toBeUndefined();
    expect(answerMismatch([deadline], { answers: [{ id: 'deadline', selected: [], custom: '2026-02-28' }] })).toBeUndefined();
    expect(answerMismatch([deadline], { answers: [{ id: 'deadline', selected: [], custom: '2026-02-29' }] })?.rule).toBe('not-a-date');
    expect(answerMismatch([deadline], { answers: [{ id: 'deadline', selected: [], custom: '2025-12-31' }] })?.rule).toBe('out-of-range');
    expect(answerMismatch([deadline], { answers: [{ id: 'deadline', selected: [] }] })?.rule).toBe('required-skipped');
  });

  it('reads in text as a date with its bound', () => {
    expect(renderText([deadline])).toContain('Answer with a date, YYYY-MM-DD, on or after 2026-01-01.');
    expect(parseTextReply([deadline], '2026年3月1日')).toEqual({ ok: true, answer: { answers: [{ id: 'deadline', selected: [], custom: '2026-03-01' }] } });
  });
});
