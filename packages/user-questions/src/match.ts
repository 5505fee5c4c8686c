import type { AskUserQuestionAnswer, AskUserQuestionItem } from './schemas.js';

/** Which rule of `matchesQuestions` an answer broke. */
export type AnswerMismatchRule =
  | 'not-an-answer'
  | 'count'
  | 'id-order'
  | 'duplicate-selected'
  | 'blank-custom'
  | 'custom-with-selection'
  | 'too-many-selected'
  | 'unknown-label';

export interface AnswerMismatch {
  rule: AnswerMismatchRule;
  /** The id of the question whose answer broke the rule, when one question is to blame. */
  questionId?: string;
  /** A sentence for a person or a log: what is wrong and where. */
  message: string;
}

/** True when `answer` fits `questions` by every rule of DESIGN.md. */
export function matchesQuestions(questions: readonly AskUserQuestionItem[], answer: unknown): answer is AskUserQuestionAnswer {
  return answerMismatch(questions, answer) === undefined;
}

/**
 * The first reason `answer` does not fit `questions`, or `undefined` when it fits.
 * Accepts `unknown` because answers arrive from providers and sockets that may send anything.
 */
export function answerMismatch(questions: readonly AskUserQuestionItem[], answer: unknown): AnswerMismatch | undefined {
  const items = answerItems(answer);
  if (items === undefined) {
    return { rule: 'not-an-answer', message: 'The answer must be an object { answers: [{ id, selected: string[], custom?: string }] }.' };
  }
  if (items.length !== questions.length) {
    return {
      rule: 'count',
      message: `Expected ${questions.length} answer(s), one per question in order, but got ${items.length}.`,
    };
  }
  for (let index = 0; index < questions.length; index++) {
    const question = questions[index]!;
    const mismatch = itemMismatch(question, items[index], index);
    if (mismatch) return mismatch;
  }
  return undefined;
}

function answerItems(answer: unknown): unknown[] | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const items = (answer as { answers?: unknown }).answers;
  return Array.isArray(items) ? items : undefined;
}

function itemMismatch(question: AskUserQuestionItem, item: unknown, index: number): AnswerMismatch | undefined {
  const id = question.id;
  if (!isAnswerItemShape(item)) {
    return {
      rule: 'not-an-answer',
      questionId: id,
      message: `Answer ${index + 1} must be { id: string, selected: string[], custom?: string }.`,
    };
  }
  // Matched by position, not looked up by id: the order of answers is part of the contract.
  if (item.id !== id) {
    return {
      rule: 'id-order',
      questionId: id,
      message: `Answer ${index + 1} has id "${item.id}" but question ${index + 1} is "${id}"; answers must follow the questions' order.`,
    };
  }
  const selected = item.selected;
  if (new Set(selected).size !== selected.length) {
    return { rule: 'duplicate-selected', questionId: id, message: `Question "${id}" selects the same option twice.` };
  }
  const custom = item.custom;
  if (custom !== undefined && custom.trim() === '') {
    return { rule: 'blank-custom', questionId: id, message: `Question "${id}" has a blank custom answer; leave it out to skip.` };
  }
  if (question.multiSelect !== true) {
    if (custom !== undefined && selected.length > 0) {
      return {
        rule: 'custom-with-selection',
        questionId: id,
        message: `Question "${id}" is single-select: give either an option or a custom answer, not both.`,
      };
    }
    if (selected.length > 1) {
      return { rule: 'too-many-selected', questionId: id, message: `Question "${id}" is single-select but ${selected.length} options were selected.` };
    }
  }
  const options = question.options;
  for (const label of selected) {
    if (!options?.some((option) => option.label === label)) {
      return {
        rule: 'unknown-label',
        questionId: id,
        message: options?.length
          ? `Question "${id}" has no option labelled "${label}"; send the label exactly as offered.`
          : `Question "${id}" offers no options, so nothing can be selected; answer with custom text or skip it.`,
      };
    }
  }
  return undefined;
}

function isAnswerItemShape(item: unknown): item is { id: string; selected: string[]; custom?: string } {
  if (typeof item !== 'object' || item === null) return false;
  const { id, selected, custom } = item as Record<string, unknown>;
  return (
    typeof id === 'string' &&
    Array.isArray(selected) &&
    selected.every((label) => typeof label === 'string') &&
    (custom === undefined || typeof custom === 'string')
  );
}
