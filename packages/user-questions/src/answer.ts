import type { AskUserQuestionAnswer } from './schemas.js';

/**
 * A fresh copy of an answer that holds only the contract's fields. Callers get this copy, so a
 * provider's extra properties or later mutations never reach them.
 */
export function copyAnswer(answer: AskUserQuestionAnswer): AskUserQuestionAnswer {
  return {
    answers: answer.answers.map(({ id, selected, custom }) =>
      custom === undefined ? { id, selected: [...selected] } : { id, selected: [...selected], custom },
    ),
  };
}
