import { checkboxAnswerValues, dateAnswerProblem, isMultiSelect, maxNumberAnswerLength, numberAnswerProblem, textLength } from './inputs.js';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from './schemas.js';
import { isSensitiveQuestion, redactedAnswerText } from './sensitive.js';
import { hasLineBreak, isBlankText } from './text-shape.js';

/** Which rule of `matchesQuestions` an answer broke. */
export type AnswerMismatchRule =
  | 'not-an-answer'
  | 'count'
  | 'id-order'
  | 'duplicate-selected'
  | 'blank-custom'
  | 'custom-with-selection'
  | 'too-many-selected'
  | 'unknown-label'
  // The typed-input rules (docs/forms.md); a question without `input` or `required` never breaks them.
  | 'required-skipped'
  | 'not-a-number'
  | 'not-a-date'
  | 'out-of-range'
  | 'off-step'
  | 'not-a-checkbox-value'
  | 'too-long'
  | 'multiline-text';

export interface AnswerMismatch {
  rule: AnswerMismatchRule;
  /** The id of the question whose answer broke the rule, when one question is to blame. */
  questionId?: string;
  /** A sentence for a person or a log: what is wrong and where. */
  message: string;
}

/** True when `answer` fits `questions` by every rule of docs/design.md ("Answer rules"). */
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
      message: `Answer ${index + 1} has id "${clip(item.id)}" but question ${index + 1} is "${id}"; answers must follow the questions' order.`,
    };
  }
  const selected = item.selected;
  if (hasDuplicate(selected)) {
    return { rule: 'duplicate-selected', questionId: id, message: `Question "${id}" selects the same option twice.` };
  }
  const custom = item.custom;
  if (custom !== undefined && isBlankText(custom)) {
    return { rule: 'blank-custom', questionId: id, message: `Question "${id}" has a blank custom answer (nothing visible in it); leave it out to skip.` };
  }
  if (!isMultiSelect(question)) {
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
    if (!offers(options, label)) {
      return {
        rule: 'unknown-label',
        questionId: id,
        message: options?.length
          ? `Question "${id}" has no option labelled "${clip(label)}"; send the label exactly as offered.`
          : `Question "${id}" offers no options, so nothing can be selected; answer with custom text or skip it.`,
      };
    }
  }
  if (selected.length === 0 && custom === undefined) {
    return question.required === true
      ? { rule: 'required-skipped', questionId: id, message: `Question "${id}" is required and cannot be skipped; give an answer.` }
      : undefined;
  }
  return custom === undefined ? undefined : typedValueMismatch(question, custom);
}

/** The input kind's own rules for a custom value (options were checked above). */
function typedValueMismatch(question: AskUserQuestionItem, custom: string): AnswerMismatch | undefined {
  const { id, input } = question;
  // A mismatch message ends up in logs and events (a rejection's detail): a secret is never quoted.
  const shown = isSensitiveQuestion(question) ? () => redactedAnswerText : clip;
  switch (input?.kind) {
    case 'number': {
      const problem = numberAnswerProblem(input, custom);
      if (problem === 'too-long') {
        return { rule: problem, questionId: id, message: `Question "${id}" takes a number of at most ${maxNumberAnswerLength} characters; the answer has ${textLength(custom)}.` };
      }
      if (problem === 'not-a-number') {
        return { rule: problem, questionId: id, message: `Question "${id}" takes a number written as plain decimal digits (like 42 or -3.5), not "${shown(custom)}".` };
      }
      if (problem === 'out-of-range') return { rule: problem, questionId: id, message: `Question "${id}" takes a number${rangeText(input.min, input.max)}; ${shown(custom)} is outside.` };
      if (problem === 'off-step') {
        return { rule: problem, questionId: id, message: `Question "${id}" takes a number in steps of ${input.step} from ${input.min ?? 0}; ${shown(custom)} is between steps.` };
      }
      return undefined;
    }
    case 'date': {
      const problem = dateAnswerProblem(input, custom);
      if (problem === 'not-a-date') return { rule: problem, questionId: id, message: `Question "${id}" takes a calendar date written YYYY-MM-DD, not "${shown(custom)}".` };
      if (problem === 'out-of-range') return { rule: problem, questionId: id, message: `Question "${id}" takes a date${rangeText(input.min, input.max)}; ${shown(custom)} is outside.` };
      return undefined;
    }
    case 'checkbox':
      if (custom !== checkboxAnswerValues.checked && custom !== checkboxAnswerValues.unchecked) {
        return { rule: 'not-a-checkbox-value', questionId: id, message: `Question "${id}" is a checkbox: answer with custom "true" or "false", not "${shown(custom)}".` };
      }
      return undefined;
    case 'text':
    case 'textarea':
      if (input.kind === 'text' && hasLineBreak(custom)) {
        return { rule: 'multiline-text', questionId: id, message: `Question "${id}" takes a single line of text; the answer has a line break.` };
      }
      if (input.maxLength !== undefined && textLength(custom) > input.maxLength) {
        return { rule: 'too-long', questionId: id, message: `Question "${id}" takes at most ${input.maxLength} characters; the answer has ${textLength(custom)}.` };
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * True when a label is selected twice. Every answer is checked on both ends, so this runs per
 * answered question: a short list (the usual zero or one label) is compared pairwise rather than
 * built into a Set. Labels are strings here, so === is the Set's own equality.
 */
function hasDuplicate(selected: readonly string[]): boolean {
  const count = selected.length;
  if (count > 16) return new Set(selected).size !== count;
  for (let i = 1; i < count; i++) for (let j = 0; j < i; j++) if (selected[i] === selected[j]) return true;
  return false;
}

/** True when `options` offers `label` (no closure per label checked). */
function offers(options: readonly { label: string }[] | undefined, label: string): boolean {
  if (options === undefined) return false;
  for (let index = 0; index < options.length; index++) if (options[index]?.label === label) return true;
  return false;
}

function rangeText(min: number | string | undefined, max: number | string | undefined): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

// A rejected value (a label, an id, a number) is quoted back, but never a whole pasted essay.
function clip(text: string): string {
  if (text.length <= 40) return text;
  // 81 UTF-16 units hold at least 41 code points: no need to split a megabyte to cut 40 off it.
  const points = [...text.slice(0, 81)];
  return points.length > 40 ? `${points.slice(0, 40).join('')}…` : text;
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
