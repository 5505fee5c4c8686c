import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';

export const planReviewQuestionId = 'plan-review';
export const approveLabel = 'Approve';
export const keepPlanningLabel = 'Keep planning';

/** The one question `exit_plan_mode` asks: the plan as `detail`, tagged so a UI can show a plan card. */
export function planReviewQuestion(plan: string): AskUserQuestionItem {
  return {
    id: planReviewQuestionId,
    question: 'Approve this plan and start implementing?',
    header: 'Plan review',
    detail: plan,
    options: [
      { label: approveLabel, description: 'Leave plan mode and implement the plan as written.' },
      { label: keepPlanningLabel, description: 'Stay in plan mode and refine the plan first.' },
    ],
    intent: { kind: 'plan-review', approve: approveLabel },
  };
}

/**
 * Consent is exactly one answer that selects only "Approve" and adds no text of its own. Anything
 * else, a skip or words beside the choice included, keeps the agent planning.
 */
export function isPlanApproved(answer: AskUserQuestionAnswer): boolean {
  const [item, ...rest] = answer.answers;
  return (
    item !== undefined &&
    rest.length === 0 &&
    item.selected.length === 1 &&
    item.selected[0] === approveLabel &&
    item.custom === undefined
  );
}

/** The user's own words from the review, when they wrote any. */
export function planFeedback(answer: AskUserQuestionAnswer): string | undefined {
  return answer.answers[0]?.custom;
}
