import type { ToolApproval } from '@askseam/client';
import { toolInputKeys } from '@askseam/user-questions';
import { renderApprovalCard } from './approval-view.js';
import { CardSender } from './card-send.js';
import type { CardContext, CardController } from './card-controller.js';
import { composerKeys } from './composer-view.js';
import { itemAt } from './draft.js';
import { typeIn } from './field-edits.js';

/**
 * Arguments longer than this many lines start folded, so Approve and Deny stay in view. Only an
 * object's: its keys are all named above the fold, while a folded list or value would show nothing.
 */
const unfoldedLines = 24;

/**
 * The approval card's controller: Approve, Deny, or Deny with a reason. The reason is the
 * question's custom answer, kept in the draft of question 0 like any typed text, so it survives a
 * reconnect; a denial with a reason sends only the reason (custom replaces the choice).
 */
export function approvalController(context: CardContext, approval: ToolApproval): CardController {
  const { state } = context;
  const sender = new CardSender(context);
  const reason = (): string => itemAt(state.draft, 0).custom.trim();
  // Kept here, not in the DOM: the card is redrawn on every change, and a fold must survive that.
  let argumentsOpen = toolInputKeys(approval.input) === undefined || approval.inputJson.split('\n').length <= unfoldedLines;

  /** Approval is the bare choice: a reason the person wrote must not be dropped without a word. */
  function approve(): void {
    if (reason() !== '') {
      state.error = context.strings().approvalReasonPending;
      context.redraw('reason');
      return;
    }
    sender.answer({ answers: [{ id: approval.id, selected: [approval.approve] }] });
  }

  function deny(): void {
    const text = reason();
    if (text !== '') sender.answer({ answers: [{ id: approval.id, selected: [], custom: text }] });
    else if (approval.deny !== undefined) sender.answer({ answers: [{ id: approval.id, selected: [approval.deny] }] });
    else {
      // No deny option to send: a denial needs the person's words.
      state.invalid = new Map([[0, { kind: 'incomplete' }]]);
      context.redraw('reason');
    }
  }

  return {
    headingKey: 'heading',
    render() {
      return renderApprovalCard(
        {
          approval,
          reason: itemAt(state.draft, 0).custom,
          invalid: state.invalid.size > 0,
          error: state.error,
          busy: state.busy,
          argumentsOpen,
          urgency: context.pending.urgency,
          votes: context.pending.votes,
          strings: context.strings(),
        },
        {
          approve,
          deny,
          typeReason: (text) => typeIn(context, { index: 0, scope: context.slot, keys: composerKeys }, text),
          toggleArguments: (open) => {
            argumentsOpen = open;
          },
          dismiss: () => sender.cancel(),
        },
      );
    },
    // No number keys: an approval is given by pressing Approve, never by a stray digit.
    pickOption: () => false,
    destroy: () => sender.destroy(),
  };
}
