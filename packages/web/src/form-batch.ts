import type { AskUserQuestionItem } from '@askseam/user-questions';

/**
 * Whether a batch is a form, shown whole on one page instead of one question per page: it has more
 * than one question and every question declares an `input` kind. That is how the clarify tools
 * compile a set of DeerFlow `fields`; a batch that mixes in plain questions keeps the pager, since
 * a plain question may need its own page for options, descriptions and Markdown detail.
 */
export function isFormBatch(questions: readonly AskUserQuestionItem[]): boolean {
  return questions.length > 1 && questions.every((question) => question.input !== undefined);
}
