// A typed question: a required date on or after New Year 2026. Every channel reads the declaration,
// and the seam refuses any answer that is not such a day.
import type { AskUserQuestionItem } from '@askseam/user-questions';

// #region deadline
export const deadline: AskUserQuestionItem = { id: 'deadline', question: 'When is it due?', input: { kind: 'date', min: '2026-01-01' }, required: true };
// #endregion deadline
