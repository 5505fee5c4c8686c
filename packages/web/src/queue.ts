import type { AskUserQuestionItem, AskUserQuestionUrgency } from '@askseam/user-questions';
import { cardKindOf, type CardKind } from './card-kind.js';
import { createDraft, type RequestDraft } from './draft.js';
import type { ShownProblem } from './problem-text.js';

// The element's queue of pending requests, without a DOM: in which order they wait, which one is
// on screen, and what the element remembers about each until it is resolved. The client's pending
// map is the truth about what waits; this module only orders it and keeps the drafts beside it,
// keyed by rpcId, so a replay of the same rpcId (a reconnect, or a new client) finds its draft.

/** What the queue needs of a request (a `PendingQuestion` has all of it). */
export interface QueuedRequest {
  readonly rpcId: string;
  readonly askedAt: string;
  readonly urgency?: AskUserQuestionUrgency;
  readonly questions: readonly AskUserQuestionItem[];
}

/** What the element remembers about one request; lives until the request is resolved. */
export interface RequestState {
  /** The card that draws this request, decided once when the state is made. */
  readonly card: CardKind;
  draft: RequestDraft;
  /**
   * The questions Submit (or Next) found not ready to send, and why, by question index (worded at
   * render time, so a language switch rewords it). The composer shows one at a time; a form page
   * marks all of them at once.
   */
  invalid: Map<number, ShownProblem>;
  error: string | undefined;
  /** An answer or cancel is in flight, or was accepted and the resolved frame is on its way. */
  busy: boolean;
  /** Focus was in the card when the send began (locking the controls drops it to the body). */
  hadFocus: boolean;
  /** The person has started on this request: it stays on screen even when a more urgent one arrives. */
  touched: boolean;
}

/** Where the person's focus is, which the queue cannot see for itself. */
export interface FocusFacts {
  /** Focus is somewhere inside the element's card. */
  focusInCard: boolean;
}

/** Queue order: high urgency first, then medium (or unsaid, as the seam reads it), then low. */
const urgencyRank: Record<AskUserQuestionUrgency, number> = { high: 0, medium: 1, low: 2 };

export class RequestQueue<R extends QueuedRequest> {
  readonly #states = new Map<string, RequestState>();
  #shown: R | undefined;
  /** The request the person asked to see (by clicking its notification), until it is resolved. */
  #wanted: string | undefined;

  /** The request on screen (the object last shown: a new client's replay is a new object). */
  get shown(): R | undefined {
    return this.#shown;
  }

  /** Record what is on screen now. */
  show(request: R | undefined): void {
    this.#shown = request;
  }

  /** Pending requests, most urgent first, then oldest first. */
  order(pending: Iterable<R>): R[] {
    // Stable sort: requests asked in the same millisecond keep the order the host sent them in.
    return [...pending].sort(
      (a, b) =>
        urgencyRank[a.urgency ?? 'medium'] - urgencyRank[b.urgency ?? 'medium'] || (a.askedAt < b.askedAt ? -1 : a.askedAt > b.askedAt ? 1 : 0),
    );
  }

  /**
   * The request to show: the one on screen while the person has started on it (or has focus in it),
   * so a more urgent arrival never pulls the card from under their hands; otherwise the head of
   * `ordered`. By rpcId, since a new client's replay brings new objects for the same requests.
   */
  current(ordered: readonly R[], { focusInCard }: FocusFacts): R | undefined {
    // Asked for by name: the person chose it, so it wins over urgency and over the card on screen
    // (whose draft is kept by rpcId and comes back with it).
    const wanted = this.#wanted === undefined ? undefined : ordered.find((each) => each.rpcId === this.#wanted);
    if (wanted) return wanted;
    const shown = this.#shown;
    if (shown !== undefined && (this.#states.get(shown.rpcId)?.touched === true || focusInCard)) {
      const still = ordered.find((each) => each.rpcId === shown.rpcId);
      if (still) return still;
    }
    return ordered[0];
  }

  /** Show `rpcId` next and keep it on screen while it waits (the person clicked its notification). */
  want(rpcId: string): void {
    this.#wanted = rpcId;
  }

  /** The state of `request`, made (and its card decided) the first time its rpcId is seen. */
  stateOf(request: R): RequestState {
    let state = this.#states.get(request.rpcId);
    if (!state) {
      state = {
        card: cardKindOf(request.questions),
        draft: createDraft(request.questions),
        invalid: new Map(),
        error: undefined,
        busy: false,
        hadFocus: false,
        touched: false,
      };
      this.#states.set(request.rpcId, state);
    }
    return state;
  }

  /** True while `state` is still the one kept for `rpcId`: a late receipt must not touch a resolved request. */
  holds(rpcId: string, state: RequestState): boolean {
    return this.#states.get(rpcId) === state;
  }

  /**
   * Request `rpcId` was answered, cancelled or is gone: forget its draft. `focusNext` says whether
   * focus should move to the next request: only for whoever just answered the one on screen, so
   * anyone elsewhere on the page is left alone.
   */
  resolved(rpcId: string, { focusInCard }: FocusFacts): { focusNext: boolean } {
    const hadFocus = this.#states.get(rpcId)?.hadFocus === true || focusInCard;
    this.#states.delete(rpcId);
    if (rpcId === this.#wanted) this.#wanted = undefined;
    return { focusNext: rpcId === this.#shown?.rpcId && hadFocus };
  }
}

/** What the chrome says about `ordered`: how many wait in all, and how many besides `current`. */
export interface QueueCounts {
  count: number;
  /** How many of them are marked high urgency. */
  urgent: number;
  /** How many wait besides the one on screen. */
  waiting: number;
  urgentWaiting: number;
}

export function queueCounts(ordered: readonly QueuedRequest[], current: QueuedRequest | undefined): QueueCounts {
  const waiting = ordered.filter((each) => each !== current);
  return {
    count: ordered.length,
    urgent: ordered.filter((each) => each.urgency === 'high').length,
    waiting: waiting.length,
    urgentWaiting: waiting.filter((each) => each.urgency === 'high').length,
  };
}
