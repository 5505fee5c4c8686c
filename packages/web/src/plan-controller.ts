import type { PlanReview } from '@askseam/client';
import { isBlankText } from '@askseam/user-questions';
import { CardSender } from './card-send.js';
import type { CardContext, CardController } from './card-controller.js';
import { composerKeys } from './composer-view.js';
import { itemAt } from './draft.js';
import { typeIn } from './field-edits.js';
import { renderPlanCard } from './plan-view.js';

/**
 * The plan-review card's controller: Approve, the decline option if any, or feedback. Feedback is
 * the question's custom answer, kept in the draft of question 0 like any other typed text.
 */
export function planController(context: CardContext, review: PlanReview): CardController {
  const { pending, state } = context;
  const sender = new CardSender(context);
  const feedback = (): string => itemAt(state.draft, 0).custom.trim();

  /** Approval is the bare choice; feedback the person typed must not be dropped without a word. */
  function approve(): void {
    if (!isBlankText(feedback())) {
      state.error = context.strings().feedbackPending;
      context.redraw('feedback');
      return;
    }
    sender.answer({ answers: [{ id: review.id, selected: [review.approve] }] });
  }

  function decline(): void {
    // Typed feedback says more than "keep planning" alone, and is a way of keeping planning.
    if (!isBlankText(feedback())) sendFeedback();
    else if (review.decline !== undefined) sender.answer({ answers: [{ id: review.id, selected: [review.decline] }] });
  }

  function sendFeedback(): void {
    const text = feedback();
    if (isBlankText(text)) {
      // The plan card words this one itself ("write your feedback first").
      state.invalid = new Map([[0, { kind: 'incomplete' }]]);
      context.redraw('feedback');
      return;
    }
    // Feedback is a custom answer, which on this single-select question replaces the choice.
    sender.answer({ answers: [{ id: pending.questions[0]!.id, selected: [], custom: text }] });
  }

  return {
    headingKey: 'heading',
    render() {
      return renderPlanCard(
        {
          review,
          header: pending.questions[0]?.header,
          feedback: itemAt(state.draft, 0).custom,
          invalid: state.invalid.size > 0,
          error: state.error,
          busy: state.busy,
          urgency: pending.urgency,
          strings: context.strings(),
        },
        {
          approve,
          decline,
          typeFeedback: (text) => typeIn(context, { index: 0, scope: context.slot, keys: composerKeys }, text),
          sendFeedback,
          dismiss: () => sender.cancel(),
        },
      );
    },
    // The plan card has two buttons, not numbered options.
    pickOption: () => false,
    destroy: () => sender.destroy(),
  };
}
