import type { ClientStatus, PendingQuestion, QuestionClient, QuestionResolvedEvent } from '@askseam/client';
import { createAttention, type Attention } from './attention.js';
import { cardFor, type CardContext, type CardController } from './card-controller.js';
import { bindClient, clientFromAttributes, type ClientBinding } from './client-binding.js';
import { h } from './dom.js';
import type { AskseamQuestionsEventDetails } from './element-types.js';
import { resolveLang, stringsFor, type AskseamStrings } from './i18n.js';
import { RequestQueue, queueCounts } from './queue.js';
import { styles } from './styles.js';

// The element itself is a shell: attributes, lifecycle, the `client` property and drawing. What
// waits and in which order is the queue (queue.ts); what the person does with the card on screen
// is that card's controller (card-controller.ts), made when the request goes on screen and
// destroyed when it leaves.

// Kept importable from here, where they always were.
export type { AskseamAnsweredDetail, AskseamAttentionDetail, AskseamCancelledDetail, AskseamPendingChangeDetail } from './element-types.js';

// On a server (SSR) there is no HTMLElement; importing the package there must still work.
const ElementBase = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/**
 * `<askseam-questions>`: shows the oldest pending request of a question client, one at a time,
 * as the generic composer or the plan-review card. Give it `url` (+ `token`, or a one-question
 * `link`) attributes, or a
 * `client` property. Shows nothing while nothing is pending.
 */
export class AskseamQuestionsElement extends ElementBase {
  static get observedAttributes(): string[] {
    return ['url', 'token', 'link', 'lang', 'notify', 'sound'];
  }

  readonly #root: ShadowRoot;
  readonly #statusRegion: HTMLDivElement;
  /** The agent answerer that settled the last question resolved here, until another question arrives. */
  #answeredByAgent: string | undefined;
  /** Why the `url` attribute could not be used, shown in the status line until it is fixed. */
  #configError: string | undefined;
  readonly #cardSlot: HTMLDivElement;
  readonly #waitingNote: HTMLParagraphElement;
  /** Where attention puts its "Notify me" button. */
  readonly #attentionSlot: HTMLDivElement;
  /** Title, notification and sound for arrivals while the page is hidden; lives while on the page. */
  #attention: Attention | undefined;
  readonly #queue = new RequestQueue<PendingQuestion>();

  /** The client listened to now: the one given, or the one made from `url`/`token`. */
  #binding: ClientBinding | undefined;
  /** The page set `client`; attributes are then ignored. */
  #givenClient: QuestionClient | undefined;
  #isConnected = false;
  /** The controller of the request on screen (`#queue.shown`). */
  #card: CardController | undefined;
  #lastCount = 0;
  #lastUrgent = 0;
  /** A `data-focus` key to focus after the next card render. */
  #focusAfterRender: string | undefined;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = styles;
    // Persistent, so that screen readers hear "Reconnecting…" when it changes.
    this.#statusRegion = h('div', { class: 'status', attrs: { role: 'status', 'aria-live': 'polite', part: 'status' } });
    this.#cardSlot = h('div', { class: 'slot' });
    this.#waitingNote = h('p', { class: 'waiting', attrs: { 'aria-live': 'polite', part: 'waiting' } });
    this.#attentionSlot = h('div', { class: 'attention' });
    this.#root.append(style, this.#statusRegion, this.#cardSlot, this.#waitingNote, this.#attentionSlot);
    this.#root.addEventListener('keydown', (event) => this.#onKeydown(event as KeyboardEvent));
  }

  /** The question client: the one given, or the one made from `url`/`token` while on the page. */
  get client(): QuestionClient | undefined {
    return this.#givenClient ?? this.#binding?.client;
  }

  /** Use this client instead of `url`/`token`. The element never closes a client it was given. */
  set client(value: QuestionClient | undefined) {
    this.#givenClient = value;
    this.#configError = undefined;
    if (!this.#isConnected) return;
    if (value) this.#useClient(value, { owned: false });
    else this.#connectFromAttributes();
  }

  connectedCallback(): void {
    this.#isConnected = true;
    this.#attention ??= createAttention(
      {
        strings: () => this.#strings,
        lang: () => resolveLang(this.getAttribute('lang')),
        notify: () => this.hasAttribute('notify'),
        sound: () => this.hasAttribute('sound'),
        count: () => this.#binding?.client.pending.size ?? 0,
        focusRequest: (rpcId) => this.#focusRequest(rpcId),
        emit: (detail) => this.#emit('askseam-attention', detail),
      },
      this.#attentionSlot,
    );
    if (this.#givenClient) this.#useClient(this.#givenClient, { owned: false });
    else if (!this.#binding) this.#connectFromAttributes();
    this.#renderAll();
  }

  disconnectedCallback(): void {
    this.#isConnected = false;
    // Moving the element (remove + insert in one task) must not drop the connection. Once it is
    // really gone, stop listening (and close the client we made), so nothing keeps it alive.
    queueMicrotask(() => {
      if (this.#isConnected) return;
      this.#useClient(undefined, { owned: false });
      this.#attention?.destroy();
      this.#attention = undefined;
    });
  }

  attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void {
    if (oldValue === newValue) return;
    if (name === 'lang') {
      this.#renderCard();
      this.#renderChrome();
      this.#attention?.refresh();
    } else if (name === 'notify' || name === 'sound') {
      this.#attention?.refresh();
    } else if (this.#isConnected && !this.#givenClient) {
      this.#connectFromAttributes();
    }
  }

  get #strings(): AskseamStrings {
    return stringsFor(resolveLang(this.getAttribute('lang')));
  }

  /** A new client from the `url` and `token` attributes (or none without a `url`). */
  #connectFromAttributes(): void {
    const url = this.getAttribute('url');
    const made = url ? clientFromAttributes(url, this.getAttribute('token') ?? undefined, this.getAttribute('link') ?? undefined) : undefined;
    this.#configError = made !== undefined && 'problem' in made ? made.problem : undefined;
    this.#useClient(made !== undefined && 'client' in made ? made.client : undefined, { owned: true });
  }

  #useClient(client: QuestionClient | undefined, { owned }: { owned: boolean }): void {
    if (client === this.#binding?.client) return;
    this.#binding?.release();
    this.#binding =
      client &&
      bindClient(
        client,
        { owned },
        {
          requested: (pending) => this.#onRequested(pending),
          // The card on screen shows the progress; one waiting in the queue reads it when shown.
          votes: (pending) => {
            if (this.#queue.shown === pending) this.#renderCard();
          },
          resolved: (event) => this.#onResolved(event),
          status: () => this.#renderChrome(),
        },
      );
    this.#renderAll();
  }

  #onRequested(pending: PendingQuestion): void {
    this.#answeredByAgent = undefined;
    this.#renderAll();
    this.#attention?.arrived(pending);
  }

  #onResolved(event: QuestionResolvedEvent): void {
    // An agent of the host's route answered it: say so, rather than have it vanish unexplained.
    const agent = event.answeredBy?.via === 'agent' ? event.answeredBy.principalId.replace(/^agent:/, '') : undefined;
    if (agent !== undefined) this.#answeredByAgent = agent;
    const { focusNext } = this.#queue.resolved(event.rpcId, { focusInCard: this.#focusInCard() });
    if (focusNext) this.#focusAfterRender = 'heading';
    this.#renderAll();
    this.#attention?.resolved(event.rpcId);
  }

  /** The person clicked the notification of `rpcId`: show that request and put focus on it. */
  #focusRequest(rpcId: string): void {
    if (!this.#binding?.client.pending.has(rpcId)) return;
    this.#queue.want(rpcId);
    this.#focusAfterRender = 'heading';
    this.#renderCard();
    this.#renderChrome();
    this.scrollIntoView({ block: 'nearest' });
  }

  #focusInCard(): boolean {
    return this.#root.activeElement !== null;
  }

  /** Pending requests, most urgent first, then oldest first. */
  #ordered(): PendingQuestion[] {
    return this.#queue.order(this.#binding?.client.pending.values() ?? []);
  }

  #current(ordered: PendingQuestion[] = this.#ordered()): PendingQuestion | undefined {
    return this.#queue.current(ordered, { focusInCard: this.#focusInCard() });
  }

  // ── drawing ──────────────────────────────────────────────────────────────────

  /** Render the card only when the request on screen changed, so typing is never interrupted. */
  #renderAll(): void {
    const current = this.#current();
    if (current !== this.#queue.shown || current === undefined) this.#renderCard();
    this.#renderChrome();
  }

  /** The connection status line, the "n more waiting" note and the pending-change event. */
  #renderChrome(): void {
    const strings = this.#strings;
    const ordered = this.#ordered();
    const status: ClientStatus | undefined = this.#binding?.client.status;
    const showStatus = ordered.length > 0 && status !== undefined && status !== 'open';
    // A page opened from a one-question link whose question is over says so, rather than stay blank.
    const linkSettled = ordered.length === 0 && this.#binding?.client.link?.settled === true;
    const statusText =
      this.#configError !== undefined
        ? strings.badUrl(this.#configError)
        : linkSettled
          ? strings.linkSettled
          : showStatus
            ? strings.status[status]
            : this.#answeredByAgent !== undefined
              ? strings.answeredByAgent(this.#answeredByAgent)
              : '';
    if (this.#statusRegion.textContent !== statusText) this.#statusRegion.textContent = statusText;
    if (this.#configError !== undefined) this.#statusRegion.dataset['status'] = 'error';
    else if (linkSettled) this.#statusRegion.dataset['status'] = 'link-settled';
    else if (showStatus) this.#statusRegion.dataset['status'] = status;
    else if (this.#answeredByAgent !== undefined) this.#statusRegion.dataset['status'] = 'answered-by-agent';
    else delete this.#statusRegion.dataset['status'];
    const { count, urgent, waiting, urgentWaiting } = queueCounts(ordered, this.#current(ordered));
    const waitingText = waiting > 0 ? strings.moreWaiting(waiting, urgentWaiting) : '';
    if (this.#waitingNote.textContent !== waitingText) this.#waitingNote.textContent = waitingText;
    if (count !== this.#lastCount || urgent !== this.#lastUrgent) {
      this.#lastCount = count;
      this.#lastUrgent = urgent;
      this.#emit('askseam-pendingchange', { count, urgent });
    }
  }

  /** Draw the card of the request to show, keeping focus on the same control when it survives. */
  #renderCard(): void {
    const current = this.#current();
    const shown = this.#queue.shown;
    // Same request (even through another client's replay): the same control keeps focus.
    const keepFocus = current !== undefined && current.rpcId === shown?.rpcId ? this.#focusedKey() : undefined;
    const focusKey = this.#focusAfterRender ?? keepFocus;
    this.#focusAfterRender = undefined;
    if (current !== shown) {
      this.#card?.destroy();
      this.#card = current && cardFor(this.#contextFor(current));
      this.#queue.show(current);
    }
    if (!this.#card) {
      this.#cardSlot.replaceChildren();
      return;
    }
    this.#cardSlot.replaceChildren(h('section', { class: 'card', attrs: { part: 'card' } }, this.#card.render()));
    if (focusKey) this.#focus(focusKey, this.#card.headingKey);
  }

  #contextFor(pending: PendingQuestion): CardContext {
    const state = this.#queue.stateOf(pending);
    return {
      pending,
      state,
      slot: this.#cardSlot,
      strings: () => this.#strings,
      redraw: (focusKey) => {
        if (focusKey !== undefined) this.#focusAfterRender = focusKey;
        this.#renderCard();
      },
      focusedKey: () => this.#focusedKey(),
      focusInCard: () => this.#focusInCard(),
      stillPending: () => this.#queue.holds(pending.rpcId, state),
      emit: (type, detail) => this.#emit(type, detail),
    };
  }

  #focusedKey(): string | undefined {
    const active = this.#root.activeElement;
    return active instanceof HTMLElement ? active.dataset['focus'] : undefined;
  }

  #focus(key: string, headingKey: string): void {
    const target =
      this.#cardSlot.querySelector<HTMLElement>(`[data-focus="${key}"]`) ??
      (key === 'heading' ? this.#cardSlot.querySelector<HTMLElement>(`[data-focus="${headingKey}"]`) : null);
    if (!target) return;
    target.focus();
    // Number and date inputs have no caret to place (setSelectionRange throws on them).
    if (target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type === 'text')) {
      target.setSelectionRange(target.value.length, target.value.length);
    }
  }

  #emit<K extends keyof AskseamQuestionsEventDetails>(type: K, detail: AskseamQuestionsEventDetails[K]): void {
    this.dispatchEvent(new CustomEvent<AskseamQuestionsEventDetails[K]>(type, { detail, bubbles: true, composed: true }));
  }

  /** Number keys 1–9 pick an option of the question on screen, unless the person is typing. */
  #onKeydown(event: KeyboardEvent): void {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (!/^[1-9]$/.test(event.key)) return;
    const target = event.composedPath()[0];
    // Digits typed into a text, number or date control are the value, not option shortcuts.
    if (target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type !== 'radio' && target.type !== 'checkbox')) return;
    if (this.#card?.pickOption(Number(event.key) - 1) === true) event.preventDefault();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'askseam-questions': AskseamQuestionsElement;
  }
  // The events bubble and cross the shadow boundary, so a listener on any ancestor (or the
  // document) gets them: typed here, `event.detail` needs no cast.
  interface HTMLElementEventMap extends AskseamQuestionsEventMap {}
}

/** The element's events as DOM events: `CustomEvent`s with a typed `detail`. */
export type AskseamQuestionsEventMap = { [Name in keyof AskseamQuestionsEventDetails]: CustomEvent<AskseamQuestionsEventDetails[Name]> };
