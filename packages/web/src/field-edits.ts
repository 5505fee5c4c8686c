import { isMultiSelect } from '@askseam/user-questions';
import type { CardContext } from './card-controller.js';
import { clearInvalid, markInvalid, type FieldKeys } from './composer-view.js';
import { chooseOption, itemAt, questionProblem, setChecked, setCustom } from './draft.js';
import { problemText } from './problem-text.js';

// Edits to one question's answer controls, shared by the composer, the form page and the plan
// card's feedback box. They update the draft and patch the card in place: a re-render would break
// IME input and the caret, and empty a number or date input whose text the browser cannot read.

/** Where question `index` is drawn: the whole card (composer, plan) or its field (form page). */
export interface FieldPlace {
  index: number;
  scope: ParentNode;
  keys: FieldKeys;
}

/** Option `label` picked: the draft only (the browser already shows the choice). */
export function chooseIn(context: CardContext, index: number, label: string): void {
  const { state, pending } = context;
  state.draft = chooseOption(state.draft, pending.questions[index]!, index, label);
  state.touched = true;
}

/** Typed into the custom box or a typed input. */
export function typeIn(context: CardContext, place: FieldPlace, text: string): void {
  const { state, pending } = context;
  const { index, scope, keys } = place;
  const question = pending.questions[index]!;
  state.draft = setCustom(state.draft, question, index, text);
  state.touched = true;
  if (!isMultiSelect(question) && itemAt(state.draft, index).selected.length === 0) {
    // Custom text replaces the single choice: the radio on screen must say so too.
    for (const input of scope.querySelectorAll<HTMLInputElement>(`input[name="${keys.id('options')}"]`)) input.checked = false;
  }
  afterEdit(context, place);
}

/** The box of a checkbox question checked or unchecked. */
export function checkIn(context: CardContext, place: FieldPlace, checked: boolean): void {
  const { state, pending } = context;
  state.draft = setChecked(state.draft, pending.questions[place.index]!, place.index, checked);
  state.touched = true;
  afterEdit(context, place);
}

/**
 * After an edit on the page on screen (patched in place, never re-rendered): drop the skipped
 * note once it is answered, and once an error is showing, let it follow the value: gone when
 * the value fits, the new reason when it still does not. Emptiness is judged again at Submit.
 */
export function afterEdit(context: CardContext, place: FieldPlace): void {
  const { state, pending } = context;
  const { index, scope, keys } = place;
  const question = pending.questions[index]!;
  const item = itemAt(state.draft, index);
  if (!item.skipped) scope.querySelector('[data-role="skipped"]')?.remove();
  const shown = state.invalid.get(index);
  if (shown === undefined) return;
  const live = questionProblem(question, item);
  if (live?.kind === 'value') {
    const strings = context.strings();
    const message = problemText(strings, question, live);
    state.invalid.set(index, live);
    // Unchanged words: leave the alert alone so screen readers do not repeat it at every key.
    if (message !== problemText(strings, question, shown)) markInvalid(scope, message, keys);
    return;
  }
  // Fixed; or a wrong value was erased, and emptiness is judged again at Submit.
  const stillEmpty = live !== undefined && (shown.kind === 'incomplete' || shown.kind === 'required');
  if (!stillEmpty) {
    state.invalid.delete(index);
    clearInvalid(scope, keys);
  }
}

/** The index of the question `mismatch` blames, or -1 when it blames none of `questions`. */
export function blamedIndex(questions: readonly { id: string }[], questionId: string | undefined): number {
  return questionId === undefined ? -1 : questions.findIndex((question) => question.id === questionId);
}
