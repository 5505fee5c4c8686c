import { QuestionClientError } from '@askseam/client';
import type { AnswerMismatch, AskUserQuestionAnswer } from '@askseam/user-questions';
import type { CardContext } from './card-controller.js';
import type { AskseamStrings } from './i18n.js';

// Sending from a card: lock the controls until the host's receipt, then either wait for the
// resolved frame (accepted) or unlock and say why (refused). The answer is checked once, by the
// client's `answer()` (the host's own rule); a misfit comes back as its `invalid-answer`
// rejection, whose mismatch the card may show beside the question to blame.

/**
 * Shows a misfit beside its question and redraws; false when the card has no place for it.
 * `focusBefore` is the control that had focus when the send began (locking the card dropped it).
 */
export type MisfitHandler = (mismatch: AnswerMismatch, focusBefore: string) => boolean;

export class CardSender {
  readonly #context: CardContext;
  /** The card is still on screen: only then may a late receipt move focus. */
  #live = true;

  constructor(context: CardContext) {
    this.#context = context;
  }

  destroy(): void {
    this.#live = false;
  }

  /** Send `answer`; a misfit the client finds goes to `onMisfit`, anything else to the error line. */
  answer(answer: AskUserQuestionAnswer, onMisfit?: MisfitHandler): void {
    const { pending, state } = this.#context;
    if (state.busy) return;
    state.invalid.clear();
    this.#lockWhile(pending.answer(answer), onMisfit, () =>
      this.#context.emit('askseam-answered', { rpcId: pending.rpcId, sessionId: pending.sessionId, answer }),
    );
  }

  /** Dismiss the whole request. */
  cancel(): void {
    const { pending, state } = this.#context;
    if (state.busy) return;
    this.#lockWhile(pending.cancel(), undefined, () => this.#context.emit('askseam-cancelled', { rpcId: pending.rpcId, sessionId: pending.sessionId }));
  }

  /**
   * Lock the controls until the host's receipt. Accepted: stay locked; the client removes the
   * request on that accepted receipt (protocol 2), or on `question/resolved` when settled elsewhere. Refused or failed: unlock, keep the draft, show why, and put focus back.
   */
  #lockWhile(receipt: Promise<unknown>, onMisfit: MisfitHandler | undefined, onAccepted: () => void): void {
    const context = this.#context;
    const { state } = context;
    const focusKey = context.focusedKey() ?? 'heading';
    state.hadFocus = context.focusInCard();
    state.busy = true;
    state.touched = true;
    state.error = undefined;
    context.redraw();
    receipt.then((accepted: unknown) => {
      // One approval of a quorum approval: counted, and the question waits for more. The card
      // stays, unlocked, and shows the progress (the person may still deny).
      if (isVoteReceipt(accepted) && context.stillPending()) {
        state.busy = false;
        context.redraw(this.#live ? focusKey : undefined);
      }
      onAccepted();
    }, (error: unknown) => {
      if (!context.stillPending()) return;
      state.busy = false;
      const mismatch = misfitOf(error);
      if (mismatch !== undefined && this.#live && onMisfit?.(mismatch, focusKey) === true) return;
      state.error = refusalText(context.strings(), error);
      context.redraw(this.#live ? focusKey : undefined);
    });
  }
}

/** The client's mismatch, when `error` is its `invalid-answer` rejection (older client copies carry none). */
export function misfitOf(error: unknown): AnswerMismatch | undefined {
  return QuestionClientError.isInstance(error) && error.code === 'invalid-answer' ? error.mismatch : undefined;
}

/** The error line for a refused or failed answer or cancel, in the element's language. */
export function refusalText(strings: AskseamStrings, error: unknown): string {
  const { errors } = strings;
  if (!QuestionClientError.isInstance(error)) return errors.unknown(error instanceof Error ? error.message : String(error));
  const detail = error.detail ?? error.message;
  switch (error.code) {
    case 'invalid-answer':
      return errors['invalid-answer'](detail);
    case 'bad-response':
      return errors['bad-response'](detail);
    case 'not-pending':
    case 'forbidden':
    case 'not-connected':
    case 'closed':
      return errors[error.code];
    default:
      return errors.unknown(error.message);
  }
}

/** An accepted receipt that counted a vote and left the question pending (it carries `votes`). */
function isVoteReceipt(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Array.isArray((value as { votes?: unknown }).votes);
}
