import type { AskUserQuestionItem } from '@askseam/user-questions';

/** What the plan-review card shows: the plan, and the two buttons' labels. */
export interface PlanReview {
  /** The question's id (the answer's `id`). */
  id: string;
  question: string;
  /** The Markdown plan (the question's `detail`). */
  plan: string;
  /** The label that means "yes", exactly as offered. */
  approve: string;
  /** The other option's label, when there is one. */
  decline?: string;
}

/**
 * The plan-review card for a batch, or `undefined` when the generic composer must render it.
 * A batch qualifies only when every condition of docs/design.md ("Client and UI") holds, so an intent can change how a
 * question looks but never hides an answer the composer would offer.
 */
export function planReviewOf(questions: readonly AskUserQuestionItem[]): PlanReview | undefined {
  if (questions.length !== 1) return undefined;
  const question = questions[0]!;
  const intent = question.intent;
  if (intent?.kind !== 'plan-review' || question.detail === undefined) return undefined;
  if (question.multiSelect === true) return undefined;
  const options = question.options ?? [];
  if (options.length > 2) return undefined;
  if (!options.some((option) => option.label === intent.approve)) return undefined;

  const decline = options.find((option) => option.label !== intent.approve)?.label;
  const review: PlanReview = { id: question.id, question: question.question, plan: question.detail, approve: intent.approve };
  if (decline !== undefined) review.decline = decline;
  return review;
}
