import { isValueInput } from '@askseam/user-questions';
import { CardSender } from './card-send.js';
import type { CardContext, CardController } from './card-controller.js';
import { composerKeys, markInvalid, renderComposer } from './composer-view.js';
import { answerFromDraft, firstProblem, goToPage, itemAt, questionProblem, skipQuestion, valueProblem } from './draft.js';
import { blamedIndex, checkIn, chooseIn, typeIn, type FieldPlace } from './field-edits.js';
import { problemText, type ShownProblem } from './problem-text.js';

/**
 * The composer's controller: one question per page, Next / Back / Skip, Submit on the last. What
 * it owns: the pager, the checks that hold the person on a page (a value on screen that cannot be
 * sent) or send them back to one (Submit finds a question not ready), and sending.
 */
export function composerController(context: CardContext): CardController {
  const { pending, state, slot } = context;
  const { questions } = pending;
  const sender = new CardSender(context);
  const here = (index: number): FieldPlace => ({ index, scope: slot, keys: composerKeys });

  function choose(label: string, focusKey?: string): void {
    const index = state.draft.page;
    chooseIn(context, index, label);
    if (state.invalid.has(index) && questionProblem(questions[index]!, itemAt(state.draft, index)) === undefined) state.invalid.delete(index);
    context.redraw(focusKey);
  }

  function skip(): void {
    const index = state.draft.page;
    // A required question cannot be skipped (the button is not even shown).
    if (questions[index]?.required === true) return;
    state.draft = skipQuestion(state.draft, index);
    state.touched = true;
    state.invalid.delete(index);
    if (index < questions.length - 1) goTo(index + 1);
    else context.redraw();
  }

  function goTo(page: number): void {
    state.draft = goToPage(state.draft, page);
    state.touched = true;
    context.redraw('heading');
  }

  /**
   * Next (or Submit on the last question), from the button, Enter in a control or an option. A
   * value on screen that cannot be sent is pointed out here, before moving on: it is easiest to
   * fix while it is in view. An empty question may still be answered later, so it lets you pass.
   */
  function primary(): void {
    const index = state.draft.page;
    const question = questions[index]!;
    const problem: ShownProblem | undefined = unreadableOnScreen() ? { kind: 'unreadable' } : valueProblem(question, itemAt(state.draft, index));
    if (problem) {
      showInPlace(index, problem);
      return;
    }
    if (index < questions.length - 1) goTo(index + 1);
    else submit();
  }

  /** The number or date input on screen holds text the browser could not read as a value (its value is then ""). */
  function unreadableOnScreen(): boolean {
    const control = slot.querySelector('#q-value');
    return control instanceof HTMLInputElement && control.validity.badInput;
  }

  /** Mark the question on screen invalid without re-rendering, so unreadable text stays for the person to fix. */
  function showInPlace(index: number, problem: ShownProblem): void {
    state.invalid = new Map([[index, problem]]);
    markInvalid(slot, problemText(context.strings(), questions[index]!, problem));
    slot.querySelector<HTMLElement>('[data-focus="value"]')?.focus();
  }

  /**
   * Submit goes to the first question that cannot be sent (unanswered and not skipped, required
   * and unanswered, or a value that breaks its input's rules) and says why, instead of sending.
   * The whole answer is then checked once, by the client as it sends; a misfit it finds is shown
   * on its question the same way.
   */
  function submit(): void {
    const found = firstProblem(questions, state.draft);
    if (found !== undefined) {
      jumpToProblem(found.index, found.problem);
      return;
    }
    sender.answer(answerFromDraft(questions, state.draft), (mismatch, focusBefore) => {
      const at = blamedIndex(questions, mismatch.questionId);
      if (at === -1) return false;
      const onPage = at === state.draft.page;
      state.invalid = new Map([[at, { kind: 'value', rule: mismatch.rule, message: mismatch.message }]]);
      state.draft = goToPage(state.draft, at);
      context.redraw(!onPage ? 'heading' : isValueInput(questions[at]!.input) ? 'value' : focusBefore);
      return true;
    });
  }

  function jumpToProblem(index: number, problem: ShownProblem): void {
    if (index === state.draft.page && problem.kind === 'value') {
      showInPlace(index, problem);
      return;
    }
    state.invalid = new Map([[index, problem]]);
    state.draft = goToPage(state.draft, index);
    context.redraw('heading');
  }

  return {
    headingKey: 'heading',
    render() {
      const index = state.draft.page;
      const question = questions[index]!;
      const shownProblem = state.invalid.get(index);
      const strings = context.strings();
      return renderComposer(
        {
          question,
          index,
          count: questions.length,
          item: itemAt(state.draft, index),
          invalid: shownProblem === undefined ? undefined : problemText(strings, question, shownProblem),
          error: state.error,
          busy: state.busy,
          urgency: pending.urgency,
          strings,
        },
        {
          choose: (label) => choose(label),
          typeCustom: (text) => typeIn(context, here(state.draft.page), text),
          setChecked: (checked) => checkIn(context, here(state.draft.page), checked),
          skip,
          back: () => goTo(index - 1),
          primary,
          dismiss: () => sender.cancel(),
        },
      );
    },
    pickOption(index) {
      const input = slot.querySelector<HTMLInputElement>(`input[data-focus="option-${index}"]`);
      if (!input || input.disabled) return false;
      choose(input.value, input.dataset['focus']);
      return true;
    },
    destroy: () => sender.destroy(),
  };
}
