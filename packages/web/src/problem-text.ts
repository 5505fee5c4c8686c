import { maxNumberAnswerLength, type AskUserQuestionInput, type AskUserQuestionItem } from '@askseam/user-questions';
import type { QuestionProblem } from './draft.js';
import type { AskseamStrings } from './i18n.js';

// The words for why a question cannot be sent yet, and for what a typed input accepts. The seam
// decides what is wrong (its rule); the person reads it in their language, with the question's own
// bounds, and never sees the question's internal id (which the seam's message quotes).

/** A problem on screen: one of the draft's, or a control whose text the browser could not read as a value. */
export type ShownProblem = QuestionProblem | { kind: 'unreadable' };

/** The sentence shown on `question` for `problem`. */
export function problemText(strings: AskseamStrings, question: AskUserQuestionItem, problem: ShownProblem): string {
  const { problems } = strings;
  const input = question.input;
  switch (problem.kind) {
    case 'incomplete':
      return strings.incomplete;
    case 'required':
      return strings.requiredMissing;
    case 'unreadable':
      return input?.kind === 'date' ? problems.notADate : problems.notANumber;
    case 'value':
      break;
  }
  switch (problem.rule) {
    case 'not-a-number':
      return problems.notANumber;
    case 'not-a-date':
      return problems.notADate;
    case 'out-of-range':
      if (input?.kind === 'number') return problems.numberRange(input.min, input.max);
      if (input?.kind === 'date') return problems.dateRange(input.min, input.max);
      break;
    case 'off-step':
      if (input?.kind === 'number' && input.step !== undefined) return problems.offStep(input.step, input.min ?? 0);
      break;
    case 'too-long':
      if ((input?.kind === 'text' || input?.kind === 'textarea') && input.maxLength !== undefined) return problems.tooLong(input.maxLength);
      if (input?.kind === 'number') return problems.tooLong(maxNumberAnswerLength);
      break;
    case 'multiline-text':
      return problems.multiline;
    default:
      break;
  }
  // A rule with no sentence of its own here: the seam's message says it exactly.
  return strings.errors['invalid-answer'](problem.message);
}

/** What a typed input accepts ("From 1 to 10, in steps of 0.5"), or `undefined` when it says nothing. */
export function boundsText(strings: AskseamStrings, input: AskUserQuestionInput | undefined): string | undefined {
  const { bounds } = strings;
  switch (input?.kind) {
    case 'number': {
      const text = bounds.number(input.min, input.max, input.step);
      return text === '' ? undefined : text;
    }
    case 'date': {
      const text = bounds.dateRange(input.min, input.max);
      return text === '' ? undefined : text;
    }
    case 'text':
    case 'textarea':
      return input.maxLength === undefined ? undefined : bounds.maxLength(input.maxLength);
    default:
      return undefined;
  }
}
