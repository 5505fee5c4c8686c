import { UserQuestionError } from '@askseam/user-questions';

// When nobody decided (dismissed, timed out, withdrawn) or the question could not be asked, the
// SDK still needs an answer: a denial whose message tells Claude what happened, so the tool never
// runs and the model does not take the silence for a "no" it can argue with.

/** The words Claude reads when a question or approval ended without a decision, or the error to rethrow. */
export function noDecisionMessage(error: unknown, subject: string): string {
  if (!UserQuestionError.isInstance(error)) throw error;
  switch (error.code) {
    case 'ASK_CANCELLED':
      return `The user dismissed ${subject} without answering. Do not assume an answer: continue without it, or ask again in another way.`;
    case 'ASK_TIMEOUT':
      return `Nobody answered ${subject} in the time allowed. Do not assume an answer.`;
    case 'ASK_ABORTED':
      return `${subject[0]!.toUpperCase()}${subject.slice(1)} was withdrawn before anyone answered.`;
    default:
      // The seam refused the questions (INVALID_QUESTIONS, BAD_INTENT, …): its message says how to fix the call.
      return `${subject[0]!.toUpperCase()}${subject.slice(1)} could not be asked (${error.code}): ${error.message}`;
  }
}
