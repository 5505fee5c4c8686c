import { parseSettlement, type QuestionOutcome, type StoreWriteOptions } from '@askseam/store';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';

/** A checked settlement for `claim`, with who answered when the claim says (until the shared contract carries it, nobody). */
export function settlementOf(outcome: QuestionOutcome, answer: AskUserQuestionAnswer | undefined, _options: StoreWriteOptions | undefined): { outcome: QuestionOutcome; answer?: AskUserQuestionAnswer; answeredBy?: unknown } {
  return parseSettlement(outcome, answer);
}
