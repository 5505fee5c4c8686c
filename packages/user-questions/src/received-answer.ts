import { compiledSafeParse } from './compiled.js';
import { answerMismatch, type AnswerMismatch } from './match.js';
import { askUserQuestionAnswerSchema, type AskUserQuestionAnswer, type AskUserQuestionItem } from './schemas.js';

const parseAnswer = compiledSafeParse(askUserQuestionAnswerSchema);

export type ReceivedAnswerCheck = { ok: true; answer: AskUserQuestionAnswer } | { ok: false; mismatch: AnswerMismatch };

/**
 * Read an answer that arrived from outside (a socket, an HTTP body): the strict answer shape, with
 * no other fields, then every rule of `matchesQuestions`. The host decides with it and a client
 * checks with it before sending, so the two can never disagree about an answer.
 */
export function checkReceivedAnswer(questions: readonly AskUserQuestionItem[], value: unknown): ReceivedAnswerCheck {
  const shape = parseAnswer(value);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    const where = issue && issue.path.length > 0 ? `at ${issue.path.map(String).join('.')}: ` : '';
    return {
      ok: false,
      mismatch: {
        rule: 'not-an-answer',
        message: `The answer must be { answers: [{ id, selected: string[], custom?: string }] }: ${where}${issue?.message ?? 'it does not match'}.`,
      },
    };
  }
  const mismatch = answerMismatch(questions, shape.data);
  return mismatch === undefined ? { ok: true, answer: shape.data } : { ok: false, mismatch };
}
