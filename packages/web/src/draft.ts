import {
  answerMismatch,
  checkboxAnswerValues,
  isBlankText,
  isMultiSelect,
  isValueInput,
  type AnswerMismatchRule,
  type AskUserQuestionAnswer,
  type AskUserQuestionAnswerItem,
  type AskUserQuestionItem,
} from '@askseam/user-questions';
import { plainDecimalText } from './number-text.js';

// A draft is what the person has done so far with one request, kept apart from the DOM so that it
// survives re-renders and a replay of the same rpcId after a reconnect. Every function here is
// pure: it returns a new draft and leaves its input alone.
//
// Typed inputs (docs in the README, "Forms"): text, textarea, number and date keep what the control
// holds in `custom` (a number as the browser reports it, made plain decimal only in the answer);
// a checkbox keeps "true"/"false" in `custom` and starts as "false", because an unchecked box on
// screen is an answer ("no"), not a gap; select and multi_select are option lists as before.

/** What the person has done with one question. */
export interface QuestionDraft {
  /** Full original labels (with any "(Recommended)" suffix), in the order the options are offered. */
  readonly selected: readonly string[];
  /** The custom text exactly as typed (or the typed input's value, or a checkbox's "true"/"false"). */
  readonly custom: string;
  /** True after "Skip this question", until the person answers it after all. */
  readonly skipped: boolean;
}

/** What the person has done with one request (a batch of questions), and where they are in it. */
export interface RequestDraft {
  /** Zero-based index of the question on screen. */
  readonly page: number;
  readonly items: readonly QuestionDraft[];
}

const emptyItem: QuestionDraft = { selected: [], custom: '', skipped: false };
const uncheckedItem: QuestionDraft = { selected: [], custom: checkboxAnswerValues.unchecked, skipped: false };

/** A fresh draft: nothing selected, nothing typed, every checkbox unchecked, on the first question. */
export function createDraft(questions: readonly AskUserQuestionItem[]): RequestDraft {
  return { page: 0, items: questions.map((question) => (question.input?.kind === 'checkbox' ? uncheckedItem : emptyItem)) };
}

/** The draft of question `index`, empty when the draft has none (a defensive default, never expected). */
export function itemAt(draft: RequestDraft, index: number): QuestionDraft {
  return draft.items[index] ?? emptyItem;
}

/** Show question `page` (clamped to the batch). */
export function goToPage(draft: RequestDraft, page: number): RequestDraft {
  const last = Math.max(0, draft.items.length - 1);
  return { ...draft, page: Math.min(Math.max(0, Math.trunc(page)), last) };
}

/**
 * The person picked option `label` of question `index`. Single-select: it becomes the choice and
 * clears the custom text (a custom answer replaces the choice, so keeping both would hide which one
 * counts). Multi-select: it toggles. Either way the question is no longer skipped.
 */
export function chooseOption(draft: RequestDraft, question: AskUserQuestionItem, index: number, label: string): RequestDraft {
  const labels = (question.options ?? []).map((option) => option.label);
  if (!labels.includes(label)) return draft;
  const item = itemAt(draft, index);
  if (isMultiSelect(question)) {
    const wanted = item.selected.includes(label) ? item.selected.filter((each) => each !== label) : [...item.selected, label];
    return withItem(draft, index, { ...item, selected: labels.filter((each) => wanted.includes(each)), skipped: false });
  }
  return withItem(draft, index, { selected: [label], custom: '', skipped: false });
}

/**
 * The person typed `text` into the custom box (or the typed input) of question `index`. On a
 * single-select question any non-blank text clears the choice (custom replaces it). Blank text
 * changes nothing else.
 */
export function setCustom(draft: RequestDraft, question: AskUserQuestionItem, index: number, text: string): RequestDraft {
  const item = itemAt(draft, index);
  if (isBlankText(text)) return withItem(draft, index, { ...item, custom: text });
  const selected = isMultiSelect(question) ? item.selected : [];
  return withItem(draft, index, { selected, custom: text, skipped: false });
}

/** The person checked or unchecked the box of a checkbox question: either state is an answer. */
export function setChecked(draft: RequestDraft, question: AskUserQuestionItem, index: number, checked: boolean): RequestDraft {
  return setCustom(draft, question, index, checked ? checkboxAnswerValues.checked : checkboxAnswerValues.unchecked);
}

/** "Skip this question": what is on screen becomes what is sent, an empty answer. */
export function skipQuestion(draft: RequestDraft, index: number): RequestDraft {
  return withItem(draft, index, { selected: [], custom: '', skipped: true });
}

/** True when question `index` has an answer or was explicitly skipped. */
export function isComplete(draft: RequestDraft, index: number): boolean {
  const item = itemAt(draft, index);
  return item.skipped || hasAnswer(item);
}

/** The first question that is neither answered nor skipped, or `undefined` when all are done. */
export function firstIncomplete(draft: RequestDraft): number | undefined {
  const index = draft.items.findIndex((_, each) => !isComplete(draft, each));
  return index === -1 ? undefined : index;
}

/**
 * Why a question cannot be sent as it stands: `incomplete` (neither answered nor skipped),
 * `required` (a required question without an answer), or `value` (the answer breaks a rule of its
 * input kind, such as a number out of bounds; `rule` and `message` come from the seam's own check).
 */
export type QuestionProblem =
  | { kind: 'incomplete' }
  | { kind: 'required' }
  | { kind: 'value'; rule: AnswerMismatchRule; message: string };

/** Why question `question` with draft `item` cannot be sent, or `undefined` when it can. */
export function questionProblem(question: AskUserQuestionItem, item: QuestionDraft): QuestionProblem | undefined {
  if (!hasAnswer(item)) {
    if (question.required === true) return { kind: 'required' };
    return item.skipped ? undefined : { kind: 'incomplete' };
  }
  // The seam's rules for this one question (a one-question batch): the same check the host runs.
  const mismatch = answerMismatch([question], { answers: [answerItem(question, item)] });
  return mismatch === undefined ? undefined : { kind: 'value', rule: mismatch.rule, message: mismatch.message };
}

/**
 * The value problem of question `index` alone, ignoring that it may still be unanswered: what
 * "Next" checks before moving on, since an empty question may be answered later but a wrong value
 * is best fixed while it is on screen.
 */
export function valueProblem(question: AskUserQuestionItem, item: QuestionDraft): QuestionProblem | undefined {
  const problem = questionProblem(question, item);
  return problem?.kind === 'value' ? problem : undefined;
}

/** The first question, in order, that cannot be sent as it stands, and why; `undefined` when all can. */
export function firstProblem(questions: readonly AskUserQuestionItem[], draft: RequestDraft): { index: number; problem: QuestionProblem } | undefined {
  for (const [index, question] of questions.entries()) {
    const problem = questionProblem(question, itemAt(draft, index));
    if (problem) return { index, problem };
  }
  return undefined;
}

/**
 * The answer for one question by the rules of docs/design.md ("Answer rules"): a skip is `{ id, selected: [] }`; custom text
 * is sent trimmed and only when not blank; on a single-select question custom replaces the choice.
 * A number goes out as the plain decimal the seam reads (`1e3` typed becomes `1000`, `.5` becomes
 * `0.5`); a checkbox as `"true"` / `"false"`.
 */
export function answerItem(question: AskUserQuestionItem, item: QuestionDraft): AskUserQuestionAnswerItem {
  if (item.skipped) return { id: question.id, selected: [] };
  const custom = item.custom.trim();
  // Blank by the seam's rule: zero-width spaces and the like are nothing typed, not an answer.
  if (isBlankText(custom)) return { id: question.id, selected: [...item.selected] };
  if (isValueInput(question.input)) {
    // Text the browser would never report stays as typed, so the check says what is wrong with it.
    const value = question.input?.kind === 'number' ? (plainDecimalText(custom) ?? custom) : custom;
    return { id: question.id, selected: [], custom: value };
  }
  const selected = isMultiSelect(question) ? [...item.selected] : [];
  return { id: question.id, selected, custom };
}

/** The whole answer, one item per question in question order. */
export function answerFromDraft(questions: readonly AskUserQuestionItem[], draft: RequestDraft): AskUserQuestionAnswer {
  return { answers: questions.map((question, index) => answerItem(question, itemAt(draft, index))) };
}

function hasAnswer(item: QuestionDraft): boolean {
  return !item.skipped && (item.selected.length > 0 || !isBlankText(item.custom));
}

function withItem(draft: RequestDraft, index: number, item: QuestionDraft): RequestDraft {
  return { ...draft, items: draft.items.map((each, at) => (at === index ? item : each)) };
}
