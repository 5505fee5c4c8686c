import { compiledSafeParse } from './compiled.js';
import { answerMismatch, type AnswerMismatch } from './match.js';
import { isSealedQuestionBatch } from './sealed.js';
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

// Answers `sealReceivedAnswer` accepted, each with the sealed batch it was checked against. Both
// are frozen all the way down, so the check stays true for as long as the answer lives. Membership
// cannot be forged: only this module adds to it.
const checkedAgainst = new WeakMap<object, readonly AskUserQuestionItem[]>();

/**
 * `checkReceivedAnswer`, for a host that passes the answer on rather than handing it to a UI: when
 * `questions` is a sealed batch (the seam's own, see `isSealedQuestionBatch`), an accepted answer
 * is frozen all the way down and remembered as checked against that very batch. Downstream (the
 * seam's gate 8, the in-memory store) may then keep it by reference and skip checking it again.
 * Any other batch gets exactly `checkReceivedAnswer`'s result, unfrozen.
 */
export function sealReceivedAnswer(questions: readonly AskUserQuestionItem[], value: unknown): ReceivedAnswerCheck {
  const checked = checkReceivedAnswer(questions, value);
  if (checked.ok && isSealedQuestionBatch(questions)) {
    // The parser's copy is fresh plain data, held by nobody else yet.
    for (const item of checked.answer.answers) {
      Object.freeze(item.selected);
      Object.freeze(item);
    }
    Object.freeze(checked.answer.answers);
    checkedAgainst.set(Object.freeze(checked.answer), questions);
  }
  return checked;
}

/**
 * True for an answer `sealReceivedAnswer` accepted for this very batch object (so it has the
 * strict answer shape and fits every rule of `matchesQuestions`, and neither can have changed).
 * False for anything else: another batch, even an equal one, or an answer built or copied elsewhere.
 */
export function isAnswerCheckedFor(answer: unknown, questions: readonly AskUserQuestionItem[]): answer is AskUserQuestionAnswer {
  return typeof answer === 'object' && answer !== null && checkedAgainst.get(answer) === questions;
}

/**
 * True for an answer `sealReceivedAnswer` accepted (for whichever sealed batch): it has the strict
 * answer shape (it is the answer schema's own parse) and is frozen, so a store may keep it by
 * reference instead of parsing a copy.
 */
export function isSealedAnswer(answer: unknown): answer is AskUserQuestionAnswer {
  return typeof answer === 'object' && answer !== null && checkedAgainst.has(answer);
}
