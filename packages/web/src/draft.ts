import type { AskUserQuestionAnswer, AskUserQuestionAnswerItem, AskUserQuestionItem } from '@askseam/user-questions';

// A draft is what the person has done so far with one request, kept apart from the DOM so that it
// survives re-renders and a replay of the same rpcId after a reconnect. Every function here is
// pure: it returns a new draft and leaves its input alone.

/** What the person has done with one question. */
export interface QuestionDraft {
  /** Full original labels (with any "(Recommended)" suffix), in the order the options are offered. */
  readonly selected: readonly string[];
  /** The custom text exactly as typed. */
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

/** A fresh draft: nothing selected, nothing typed, on the first question. */
export function createDraft(questions: readonly AskUserQuestionItem[]): RequestDraft {
  return { page: 0, items: questions.map(() => emptyItem) };
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
  if (question.multiSelect === true) {
    const wanted = item.selected.includes(label) ? item.selected.filter((each) => each !== label) : [...item.selected, label];
    return withItem(draft, index, { ...item, selected: labels.filter((each) => wanted.includes(each)), skipped: false });
  }
  return withItem(draft, index, { selected: [label], custom: '', skipped: false });
}

/**
 * The person typed `text` into the custom box of question `index`. On a single-select question any
 * non-blank text clears the choice (custom replaces it). Blank text changes nothing else.
 */
export function setCustom(draft: RequestDraft, question: AskUserQuestionItem, index: number, text: string): RequestDraft {
  const item = itemAt(draft, index);
  if (text.trim() === '') return withItem(draft, index, { ...item, custom: text });
  const selected = question.multiSelect === true ? item.selected : [];
  return withItem(draft, index, { selected, custom: text, skipped: false });
}

/** "Skip this question": what is on screen becomes what is sent, an empty answer. */
export function skipQuestion(draft: RequestDraft, index: number): RequestDraft {
  return withItem(draft, index, { selected: [], custom: '', skipped: true });
}

/** True when question `index` has an answer or was explicitly skipped. */
export function isComplete(draft: RequestDraft, index: number): boolean {
  const item = itemAt(draft, index);
  return item.skipped || item.selected.length > 0 || item.custom.trim() !== '';
}

/** The first question that is neither answered nor skipped, or `undefined` when all are done. */
export function firstIncomplete(draft: RequestDraft): number | undefined {
  const index = draft.items.findIndex((_, each) => !isComplete(draft, each));
  return index === -1 ? undefined : index;
}

/**
 * The answer for one question by DESIGN.md's rules: a skip is `{ id, selected: [] }`; custom text
 * is sent trimmed and only when not blank; on a single-select question custom replaces the choice.
 */
export function answerItem(question: AskUserQuestionItem, item: QuestionDraft): AskUserQuestionAnswerItem {
  if (item.skipped) return { id: question.id, selected: [] };
  const custom = item.custom.trim();
  if (custom === '') return { id: question.id, selected: [...item.selected] };
  const selected = question.multiSelect === true ? [...item.selected] : [];
  return { id: question.id, selected, custom };
}

/** The whole answer, one item per question in question order. */
export function answerFromDraft(questions: readonly AskUserQuestionItem[], draft: RequestDraft): AskUserQuestionAnswer {
  return { answers: questions.map((question, index) => answerItem(question, itemAt(draft, index))) };
}

function withItem(draft: RequestDraft, index: number, item: QuestionDraft): RequestDraft {
  return { ...draft, items: draft.items.map((each, at) => (at === index ? item : each)) };
}
