import { isSealedAnswer } from './received-answer.js';
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

// Copies made by `handOverAnswer` that no caller has received yet. Membership cannot be forged:
// only this module adds to it, and the seam takes each one out as it passes it on.
const handedOver = new WeakSet<object>();

/**
 * A fresh copy of an answer (as `copyAnswer`) made for the one caller it is handed to. The seam
 * passes such a copy to its caller as it is, instead of reading it into a snapshot of its own:
 * the answer is copied once on its way back, not once per layer. The provider that returns it must
 * not keep it or change it afterwards (the host-ws provider drops it as it resolves).
 */
export function handOverAnswer(answer: AskUserQuestionAnswer): AskUserQuestionAnswer {
  // A sealed answer (frozen, checked against its batch by `sealReceivedAnswer`) cannot change and
  // is passed as it is: the seam recognises it and gives its caller the one copy.
  if (isSealedAnswer(answer)) return answer;
  const copy = copyAnswer(answer);
  handedOver.add(copy);
  return copy;
}

/**
 * The seam's read of a provider's answer: a `handOverAnswer` copy is taken as it is (once: a
 * second return of the same object is read like any other), anything else is snapshotted.
 */
export function takeAnswer(answer: unknown): unknown {
  if (typeof answer === 'object' && answer !== null && handedOver.delete(answer)) return answer;
  return snapshotAnswer(answer);
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
