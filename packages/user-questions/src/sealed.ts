import type { AskUserQuestionItem, AskUserQuestionOption } from './schemas.js';

// Batches that passed the seam's whole batch check (schema and well-formedness) and were frozen
// right after. Membership cannot be forged: only this module adds to it.
const sealed = new WeakSet<object>();

/**
 * Freeze a question batch the seam has just checked, all the way down, and remember it. A sealed
 * batch can be shared instead of copied by everyone downstream (the host, the in-memory store,
 * the event log): nobody can change it, so one copy per pending question is enough.
 */
export function sealCheckedBatch(questions: AskUserQuestionItem[]): AskUserQuestionItem[] {
  // In place, by index: the batch and its option lists are the seam's own fresh copies, so
  // rebuilding them (or an entries() iterator) would only make garbage on every ask.
  for (let index = 0; index < questions.length; index++) {
    const question = questions[index]!;
    const options = question.options;
    if (options !== undefined) for (let at = 0; at < options.length; at++) options[at] = compactOption(options[at]!);
    questions[index] = compactQuestion(question);
  }
  deepFreeze(questions);
  sealed.add(questions);
  return questions;
}

/**
 * True for a batch the seam checked and froze (what a provider receives as `request.questions`):
 * it holds only the contract's fields, fits the schema and the batch rules, and can never change,
 * so it may be kept by reference. False for anything else, including a batch checked by another
 * installed copy of this package (which is then simply copied).
 */
export function isSealedQuestionBatch(value: unknown): value is AskUserQuestionItem[] {
  return typeof value === 'object' && value !== null && sealed.has(value);
}

/**
 * Options are the most numerous objects of a batch. A parser builds each one by adding keys to an
 * empty object, which leaves room for more; an object literal of exactly its keys is a third smaller.
 * An option with any other key is kept as it is.
 */
function compactOption(option: AskUserQuestionOption): AskUserQuestionOption {
  // Counted without Object.keys: no array per option.
  const count = ownKeyCount(option);
  if (!Object.hasOwn(option, 'label')) return option;
  if (count === 1) return { label: option.label };
  if (count === 2 && Object.hasOwn(option, 'description') && option.description !== undefined) return { label: option.label, description: option.description };
  return option;
}

/**
 * The same for the commonest question shapes. The parser's object holds four keys in the object
 * itself and moves a fifth to a separate array (40 bytes more); a literal of exactly its keys, in
 * the parser's (the schema's) key order so that the wire text is unchanged, holds them all inline.
 * Any other shape is kept as it is.
 */
function compactQuestion(question: AskUserQuestionItem): AskUserQuestionItem {
  const { id, question: text, header, options, multiSelect } = question;
  if (hasExactKeys(question, fiveKeys)) return { id, question: text, header, options, multiSelect };
  if (hasExactKeys(question, threeKeys)) return { id, question: text, options };
  return question;
}

const fiveKeys = ['id', 'question', 'header', 'options', 'multiSelect'];
const threeKeys = ['id', 'question', 'options'];

/** True when `value`'s own keys are exactly `expected`, in that order (as Object.keys lists them, without building that array). */
function hasExactKeys(value: object, expected: readonly string[]): boolean {
  let index = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key !== expected[index]) return false;
    index++;
  }
  return index === expected.length;
}

function ownKeyCount(value: object): number {
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key)) count++;
  return count;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  // Walked without Object.values: no array per object frozen (a batch has dozens of objects).
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) deepFreeze(value[index]);
    return;
  }
  for (const key in value) if (Object.hasOwn(value, key)) deepFreeze((value as Record<string, unknown>)[key]);
}
