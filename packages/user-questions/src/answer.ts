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

/**
 * Read an answer of unknown origin exactly once into plain arrays and objects. The seam checks and
 * returns this snapshot, so a provider's getters or proxies cannot show the check one answer and
 * the caller another. Anything that is not answer-shaped is kept as read, for the check to reject.
 */
export function snapshotAnswer(answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null) return answer;
  const items: unknown = (answer as { answers?: unknown }).answers;
  if (!Array.isArray(items)) return { answers: items };
  return {
    answers: Array.from(items, (item: unknown) => {
      if (typeof item !== 'object' || item === null) return item;
      const { id, selected, custom } = item as Record<string, unknown>;
      const copy: Record<string, unknown> = { id, selected: Array.isArray(selected) ? Array.from(selected) : selected };
      if (custom !== undefined) copy['custom'] = custom;
      return copy;
    }),
  };
}
