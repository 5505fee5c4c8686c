import { answerMismatch, askUserQuestionAnswerSchema, type AnswerMismatch, type AskUserQuestionItem } from '@askseam/user-questions';

/**
 * The check the host will make, made here first: the strict answer shape (no extra fields), then
 * every rule of `matchesQuestions`. Agreeing with the host means a UI never shows "fits" for an
 * answer the host then refuses.
 */
export function localAnswerMismatch(questions: readonly AskUserQuestionItem[], answer: unknown): AnswerMismatch | undefined {
  const shape = askUserQuestionAnswerSchema.safeParse(answer);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (at ${issue.path.map(String).join('.')})` : '';
    return {
      rule: 'not-an-answer',
      message: `The answer must be { answers: [{ id, selected: string[], custom?: string }] } with no other fields${where}: ${issue?.message ?? 'it does not match'}.`,
    };
  }
  return answerMismatch(questions, shape.data);
}
