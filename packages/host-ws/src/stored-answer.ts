import type { QuestionRecord } from '@askseam/store';
import { checkReceivedAnswer } from '@askseam/user-questions';

/**
 * Why a settled record read back from a store must not be handed to an asker or `onResume`, or
 * undefined when it may. A store only checks that an answer has the answer shape; whether it fits
 * these very questions (offered labels, required answers) is the host's check, and a record
 * planted or edited in the store never went through it.
 */
export function storedAnswerProblem(record: QuestionRecord): string | undefined {
  if (record.outcome === 'answered') {
    if (record.answer === undefined) return `Question "${record.rpcId}" is stored as answered but holds no answer.`;
    const checked = checkReceivedAnswer(record.questions, record.answer);
    return checked.ok ? undefined : `The stored answer of question "${record.rpcId}" does not fit its questions: ${checked.mismatch.message}`;
  }
  if (record.answer !== undefined) return `Question "${record.rpcId}" is stored as ${record.outcome ?? 'pending'} but holds an answer.`;
  return undefined;
}
