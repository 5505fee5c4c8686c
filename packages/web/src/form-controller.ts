import { CardSender } from './card-send.js';
import type { CardContext, CardController } from './card-controller.js';
import { clearInvalid, formFieldKeys, markInvalid } from './composer-view.js';
import { answerFromDraft, itemAt, questionProblem, valueProblem } from './draft.js';
import { afterEdit, blamedIndex, checkIn, chooseIn, typeIn, type FieldPlace } from './field-edits.js';
import { fieldOf, firstControlOf, renderFormPage } from './form-view.js';
import { problemText, type ShownProblem } from './problem-text.js';

/**
 * The form page's controller: every question at once, one Submit. Problems are marked on their
 * fields in place (a re-render would empty any number or date text the browser could not read),
 * all together, and focus goes to the first.
 */
export function formController(context: CardContext): CardController {
  const { pending, state, slot } = context;
  const { questions } = pending;
  const sender = new CardSender(context);
  const fieldAt = (index: number): FieldPlace => ({ index, scope: fieldOf(slot, index) ?? slot, keys: formFieldKeys(index) });

  function choose(index: number, label: string): void {
    chooseIn(context, index, label);
    // The browser already shows the choice; patch the rest in place, since re-rendering the page
    // would empty any other field's number or date text that the browser could not read.
    const place = fieldAt(index);
    const custom = place.scope.querySelector<HTMLTextAreaElement>(`#${place.keys.id('custom')}`);
    if (custom) custom.value = itemAt(state.draft, index).custom;
    afterEdit(context, place);
  }

  /**
   * Enter in field `index`: a value in it that cannot be sent is pointed out on the spot (as Next
   * does in the composer); otherwise focus goes to the next field, or the last submits.
   */
  function next(index: number): void {
    const question = questions[index]!;
    const problem: ShownProblem | undefined = unreadableIn(index) ? { kind: 'unreadable' } : valueProblem(question, itemAt(state.draft, index));
    if (problem) {
      state.invalid.set(index, problem);
      markFields();
      firstControlOf(slot, index)?.focus();
      return;
    }
    if (index < questions.length - 1) firstControlOf(slot, index + 1)?.focus();
    else submit();
  }

  /**
   * Submit: every field is checked at once with the composer's rules, except that an empty
   * optional field is a skip (a form has no Skip buttons). What is left is checked once more, by
   * the client as it sends; a misfit it finds is marked on its field the same way.
   */
  function submit(): void {
    if (state.busy) return;
    state.touched = true;
    const problems = new Map<number, ShownProblem>();
    for (const [index, question] of questions.entries()) {
      const problem: ShownProblem | undefined = unreadableIn(index) ? { kind: 'unreadable' } : questionProblem(question, itemAt(state.draft, index));
      if (problem !== undefined && problem.kind !== 'incomplete') problems.set(index, problem);
    }
    if (problems.size > 0) {
      showProblems(problems);
      return;
    }
    sender.answer(answerFromDraft(questions, state.draft), (mismatch) => {
      const at = blamedIndex(questions, mismatch.questionId);
      if (at === -1) return false;
      state.invalid = new Map([[at, { kind: 'value', rule: mismatch.rule, message: mismatch.message }]]);
      context.redraw();
      firstControlOf(slot, at)?.focus();
      return true;
    });
  }

  function showProblems(problems: Map<number, ShownProblem>): void {
    state.invalid = problems;
    markFields();
    firstControlOf(slot, Math.min(...problems.keys()))?.focus();
  }

  /** Field `index` holds text the browser could not read as a number or date. */
  function unreadableIn(index: number): boolean {
    const control = slot.querySelector(`#${formFieldKeys(index).id('value')}`);
    return control instanceof HTMLInputElement && control.validity.badInput;
  }

  /** Show `state.invalid` on every field in place, leaving unchanged alerts alone. */
  function markFields(): void {
    const strings = context.strings();
    for (const [index, question] of questions.entries()) {
      const field = fieldOf(slot, index);
      if (!field) continue;
      const keys = formFieldKeys(index);
      const problem = state.invalid.get(index);
      if (problem === undefined) {
        clearInvalid(field, keys);
        continue;
      }
      const message = problemText(strings, question, problem);
      if (field.querySelector(`#${keys.id('invalid')}`)?.textContent !== message) markInvalid(field, message, keys);
    }
  }

  return {
    // A form page has no single heading; its first field's heading stands in.
    headingKey: formFieldKeys(0).focus('heading'),
    render() {
      const strings = context.strings();
      const invalid = new Map<number, string>();
      for (const [index, problem] of state.invalid) {
        const question = questions[index];
        if (question) invalid.set(index, problemText(strings, question, problem));
      }
      return renderFormPage(
        {
          questions,
          items: questions.map((_, index) => itemAt(state.draft, index)),
          invalid,
          error: state.error,
          busy: state.busy,
          urgency: pending.urgency,
          strings,
        },
        {
          field: (index) => ({
            choose: (label) => choose(index, label),
            typeCustom: (text) => typeIn(context, fieldAt(index), text),
            setChecked: (checked) => checkIn(context, fieldAt(index), checked),
            primary: () => next(index),
          }),
          submit,
          dismiss: () => sender.cancel(),
        },
      );
    },
    // Options on a form page are named per field (`f0-option-0`): number keys would be ambiguous.
    pickOption: () => false,
    destroy: () => sender.destroy(),
  };
}
