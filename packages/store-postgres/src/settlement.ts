import { parseSettlement, type AnsweredBy, type QuestionOutcome, type StoreWriteOptions } from '@askseam/store';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';

/** A checked settlement for `claim`: the outcome, the answer with `answered`, and who answered when the claim says (a person's outcomes only). */
export function settlementOf(
  outcome: QuestionOutcome,
  answer: AskUserQuestionAnswer | undefined,
  options: StoreWriteOptions | undefined,
): { outcome: QuestionOutcome; answer?: AskUserQuestionAnswer; answeredBy?: AnsweredBy } {
  return parseSettlement(outcome, answer, options?.answeredBy);
}
