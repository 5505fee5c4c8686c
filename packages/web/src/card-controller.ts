import type { PendingQuestion } from '@askseam/client';
import { approvalController } from './approval-controller.js';
import { composerController } from './composer-controller.js';
import type { AskseamQuestionsEventDetails } from './element-types.js';
import { formController } from './form-controller.js';
import type { AskseamStrings } from './i18n.js';
import { planController } from './plan-controller.js';
import type { RequestState } from './queue.js';

// One controller per card kind (composer, form page, plan review, approval), each beside its view. The
// element creates one when a request goes on screen and destroys it when the request leaves; the
// controller owns what the person does with that card, the element only draws it.

/** What the element gives the controller of the request on screen. */
export interface CardContext {
  readonly pending: PendingQuestion;
  /** The request's state in the queue: it outlives this controller (drafts survive replays). */
  readonly state: RequestState;
  /** Where the card is drawn: controllers patch fields in place and read controls here. */
  readonly slot: HTMLElement;
  /** The words of the element's current language (a `lang` change rewords the next render). */
  strings(): AskseamStrings;
  /** Draw the card on screen again; then focus the control with this `data-focus` key, or keep focus where it is. */
  redraw(focusKey?: string): void;
  /** The `data-focus` key of the focused control in the card, if any. */
  focusedKey(): string | undefined;
  focusInCard(): boolean;
  /** False once the request was resolved: a late receipt then changes nothing. */
  stillPending(): boolean;
  emit<K extends keyof AskseamQuestionsEventDetails>(type: K, detail: AskseamQuestionsEventDetails[K]): void;
}

/** The one shape every card controller has. */
export interface CardController {
  /** The card's form for the state now (called on every render of this request). */
  render(): HTMLFormElement;
  /** The `data-focus` key of the card's heading, where focus goes when a request is done or a page turns. */
  readonly headingKey: string;
  /** Number key `index + 1` pressed outside a text control: pick that option if the card shows one. Returns whether it did. */
  pickOption(index: number): boolean;
  /** The request left the screen: a receipt that arrives later must not move focus. */
  destroy(): void;
}

/** The controller for the request in `context`, by the card kind its state decided once. */
export function cardFor(context: CardContext): CardController {
  const card = context.state.card;
  switch (card.kind) {
    case 'plan-review':
      return planController(context, card.review);
    case 'tool-approval':
      return approvalController(context, card.approval);
    case 'form':
      return formController(context);
    case 'composer':
      return composerController(context);
  }
}
