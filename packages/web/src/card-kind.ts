import { approvalOf, planReviewOf, type PlanReview, type ToolApproval } from '@askseam/client';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { isFormBatch } from './form-batch.js';

/**
 * Which card draws a request: the plan-review card, the approval card, the form page (every field
 * at once), or the composer (one question per page). Decided once, when the element first meets the request, and
 * kept with its draft: the questions of an rpcId never change, so neither does its card.
 */
export type CardKind =
  | { kind: 'plan-review'; review: PlanReview }
  | { kind: 'tool-approval'; approval: ToolApproval }
  | { kind: 'form' }
  | { kind: 'composer' };

/** The card for `questions`. A plan review or an approval wins over a form: its one question is never a form. */
export function cardKindOf(questions: readonly AskUserQuestionItem[]): CardKind {
  const review = planReviewOf(questions);
  if (review) return { kind: 'plan-review', review };
  const approval = approvalOf(questions);
  if (approval) return { kind: 'tool-approval', approval };
  if (isFormBatch(questions)) return { kind: 'form' };
  return { kind: 'composer' };
}
