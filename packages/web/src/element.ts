import {
  QuestionClientError,
  connectQuestions,
  planReviewOf,
  type ClientStatus,
  type PendingQuestion,
  type QuestionClient,
  type QuestionResolvedEvent,
} from '@askseam/client';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import { renderComposer } from './composer-view.js';
import { h } from './dom.js';
import {
  answerFromDraft,
  chooseOption,
  createDraft,
  firstIncomplete,
  goToPage,
  isComplete,
  itemAt,
  setCustom,
  skipQuestion,
  type RequestDraft,
} from './draft.js';
import { resolveLang, stringsFor, type AskseamStrings } from './i18n.js';
import { renderPlanCard } from './plan-view.js';
import { styles } from './styles.js';

/** Detail of the `askseam-answered` event: an answer the host accepted. */
export interface AskseamAnsweredDetail {
  rpcId: string;
  sessionId: string;
  answer: AskUserQuestionAnswer;
}

/** Detail of the `askseam-cancelled` event: a request the person dismissed, accepted by the host. */
export interface AskseamCancelledDetail {
  rpcId: string;
  sessionId: string;
}

/** Detail of the `askseam-pendingchange` event: how many requests wait for an answer now. */
export interface AskseamPendingChangeDetail {
  count: number;
}

/** What the element remembers about one request; lives until the request is resolved. */
interface RequestState {
  draft: RequestDraft;
  /** Index of the question Submit found incomplete (or 0 for empty plan feedback). */
  invalidIndex: number | undefined;
  error: string | undefined;
  /** An answer or cancel is in flight, or was accepted and the resolved frame is on its way. */
  busy: boolean;
  /** Focus was in the card when the send began (locking the controls drops it to the body). */
  hadFocus: boolean;
}

// On a server (SSR) there is no HTMLElement; importing the package there must still work.
const ElementBase = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/**
 * `<askseam-questions>`: shows the oldest pending request of a question client, one at a time,
 * as the generic composer or the plan-review card. Give it `url` (+ `token`) attributes, or a
 * `client` property. Shows nothing while nothing is pending.
 */
export class AskseamQuestionsElement extends ElementBase {
  static get observedAttributes(): string[] {
    return ['url', 'token', 'lang'];
  }

  readonly #root: ShadowRoot;
  readonly #statusRegion: HTMLDivElement;
  /** Why the `url` attribute could not be used, shown in the status line until it is fixed. */
  #configError: string | undefined;
  readonly #cardSlot: HTMLDivElement;
  readonly #waitingNote: HTMLParagraphElement;
  readonly #states = new Map<string, RequestState>();

  #client: QuestionClient | undefined;
  /** The client came from our own url/token attributes, so we close it; a given one is the page's. */
  #ownsClient = false;
  /** The page set `client`; attributes are then ignored. */
  #givenClient: QuestionClient | undefined;
  #unsubscribe: (() => void)[] = [];
  #isConnected = false;
  /** The request on screen, to know when a render swaps requests (or clients: a new client's replay is a new object). */
  #shown: PendingQuestion | undefined;
  #lastCount = 0;
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
    this.#root.append(style, this.#statusRegion, this.#cardSlot, this.#waitingNote);
    this.#root.addEventListener('keydown', (event) => this.#onKeydown(event as KeyboardEvent));
  }

  /** The question client: the one given, or the one made from `url`/`token` while on the page. */
  get client(): QuestionClient | undefined {
    return this.#givenClient ?? this.#client;
  }

  /** Use this client instead of `url`/`token`. The element never closes a client it was given. */
  set client(value: QuestionClient | undefined) {
    this.#givenClient = value;
    this.#configError = undefined;
    if (!this.#isConnected) return;
    if (value) this.#useClient(value, false);
    else this.#connectFromAttributes();
  }

  connectedCallback(): void {
    this.#isConnected = true;
    if (this.#givenClient) this.#useClient(this.#givenClient, false);
    else if (!this.#client) this.#connectFromAttributes();
    this.#renderAll();
  }

  disconnectedCallback(): void {
    this.#isConnected = false;
    // Moving the element (remove + insert in one task) must not drop the connection. Once it is
    // really gone, stop listening (and close the client we made), so nothing keeps it alive.
    queueMicrotask(() => {
      if (!this.#isConnected) this.#useClient(undefined, false);
    });
  }

  attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void {
    if (oldValue === newValue) return;
    if (name === 'lang') {
      this.#renderCard();
      this.#renderChrome();
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
    if (!url) {
      this.#useClient(undefined, false);
      return;
    }
    const token = this.getAttribute('token') ?? undefined;
    let client: QuestionClient;
    try {
      const wsUrl = webSocketUrl(url);
      client = connectQuestions(token === undefined ? { url: wsUrl } : { url: wsUrl, token });
    } catch (error) {
      // Thrown from a lifecycle callback, this would vanish into the console; show it instead.
      this.#configError = error instanceof Error ? error.message : String(error);
      this.#useClient(undefined, false);
      return;
    }
    this.#configError = undefined;
    this.#useClient(client, true);
  }

  #useClient(client: QuestionClient | undefined, owns: boolean): void {
    if (client === this.#client) return;
    for (const stop of this.#unsubscribe) stop();
    this.#unsubscribe = [];
    if (this.#ownsClient) this.#client?.close();
    this.#client = client;
    this.#ownsClient = owns;
    if (client) {
      this.#unsubscribe = [
        client.on('requested', () => this.#renderAll()),
        client.on('resolved', (event) => this.#onResolved(event)),
        client.on('status', () => this.#renderChrome()),
      ];
    }
    this.#renderAll();
  }

  /** Pending requests, oldest first. */
  #queue(): PendingQuestion[] {
    const pending = [...(this.#client?.pending.values() ?? [])];
    // Stable sort: requests asked in the same millisecond keep the order the host sent them in.
    return pending.sort((a, b) => (a.askedAt < b.askedAt ? -1 : a.askedAt > b.askedAt ? 1 : 0));
  }

  #stateFor(question: PendingQuestion): RequestState {
    let state = this.#states.get(question.rpcId);
    if (!state) {
      state = { draft: createDraft(question.questions), invalidIndex: undefined, error: undefined, busy: false, hadFocus: false };
      this.#states.set(question.rpcId, state);
    }
    return state;
  }

  #onResolved(event: QuestionResolvedEvent): void {
    const hadFocus = this.#states.get(event.rpcId)?.hadFocus === true || this.#root.activeElement !== null;
    // The draft is no longer needed: the request was answered, cancelled or is gone.
    this.#states.delete(event.rpcId);
    // Whoever just answered is taken to the next request; anyone elsewhere on the page is left alone.
    if (event.rpcId === this.#shown?.rpcId && hadFocus) this.#focusAfterRender = 'heading';
    this.#renderAll();
  }

  // ── rendering ────────────────────────────────────────────────────────────────

  /** Render the card only when the request on screen changed, so typing is never interrupted. */
  #renderAll(): void {
    const current = this.#queue()[0];
    if (current !== this.#shown || current === undefined) this.#renderCard();
    this.#renderChrome();
  }

  /** The connection status line, the "n more waiting" note and the pending-change event. */
  #renderChrome(): void {
    const strings = this.#strings;
    const queue = this.#queue();
    const status: ClientStatus | undefined = this.#client?.status;
    const showStatus = queue.length > 0 && status !== undefined && status !== 'open';
    const statusText =
      this.#configError !== undefined ? strings.badUrl(this.#configError) : showStatus ? strings.status[status] : '';
    if (this.#statusRegion.textContent !== statusText) this.#statusRegion.textContent = statusText;
    if (this.#configError !== undefined) this.#statusRegion.dataset['status'] = 'error';
    else if (showStatus) this.#statusRegion.dataset['status'] = status;
    else delete this.#statusRegion.dataset['status'];
    const waitingText = queue.length > 1 ? strings.moreWaiting(queue.length - 1) : '';
    if (this.#waitingNote.textContent !== waitingText) this.#waitingNote.textContent = waitingText;
    if (queue.length !== this.#lastCount) {
      this.#lastCount = queue.length;
      this.dispatchEvent(new CustomEvent<AskseamPendingChangeDetail>('askseam-pendingchange', { detail: { count: queue.length }, bubbles: true, composed: true }));
    }
  }

  /** Rebuild the card of the oldest request, keeping focus on the same control when it survives. */
  #renderCard(): void {
    const current = this.#queue()[0];
    // Same request (even through another client's replay): the same control keeps focus.
    const keepFocus = current !== undefined && current.rpcId === this.#shown?.rpcId ? this.#focusedKey() : undefined;
    const focusKey = this.#focusAfterRender ?? keepFocus;
    this.#focusAfterRender = undefined;
    this.#shown = current;
    if (!current) {
      this.#cardSlot.replaceChildren();
      return;
    }
    const card = h('section', { class: 'card', attrs: { part: 'card' } }, this.#buildForm(current));
    this.#cardSlot.replaceChildren(card);
    if (focusKey) this.#focus(focusKey);
  }

  #buildForm(pending: PendingQuestion): HTMLFormElement {
    const state = this.#stateFor(pending);
    const strings = this.#strings;
    const review = planReviewOf(pending.questions);
    if (review) {
      return renderPlanCard(
        {
          review,
          header: pending.questions[0]?.header,
          feedback: itemAt(state.draft, 0).custom,
          invalid: state.invalidIndex !== undefined,
          error: state.error,
          busy: state.busy,
          strings,
        },
        {
          approve: () => this.#approvePlan(pending, review.id, review.approve),
          decline: () => {
            // Typed feedback says more than "keep planning" alone, and is a way of keeping planning.
            if (this.#hasFeedback(pending)) this.#sendFeedback(pending);
            else if (review.decline !== undefined) this.#send(pending, { answers: [{ id: review.id, selected: [review.decline] }] });
          },
          typeFeedback: (text) => this.#typeCustom(pending, text),
          sendFeedback: () => this.#sendFeedback(pending),
          dismiss: () => this.#dismiss(pending),
        },
      );
    }
    const index = state.draft.page;
    const question = pending.questions[index]!;
    return renderComposer(
      {
        question,
        index,
        count: pending.questions.length,
        item: itemAt(state.draft, index),
        invalid: state.invalidIndex === index,
        error: state.error,
        busy: state.busy,
        strings,
      },
      {
        choose: (label) => this.#choose(pending, label),
        typeCustom: (text) => this.#typeCustom(pending, text),
        skip: () => this.#skip(pending),
        back: () => this.#goTo(pending, index - 1),
        primary: () => (index === pending.questions.length - 1 ? this.#submit(pending) : this.#goTo(pending, index + 1)),
        dismiss: () => this.#dismiss(pending),
      },
    );
  }

  #focusedKey(): string | undefined {
    const active = this.#root.activeElement;
    return active instanceof HTMLElement ? active.dataset['focus'] : undefined;
  }

  #focus(key: string): void {
    const target = this.#cardSlot.querySelector<HTMLElement>(`[data-focus="${key}"]`);
    if (!target) return;
    target.focus();
    if (target instanceof HTMLTextAreaElement) target.setSelectionRange(target.value.length, target.value.length);
  }

  // ── what the person does ─────────────────────────────────────────────────────

  #choose(pending: PendingQuestion, label: string): void {
    const state = this.#stateFor(pending);
    const index = state.draft.page;
    state.draft = chooseOption(state.draft, pending.questions[index]!, index, label);
    if (state.invalidIndex === index && isComplete(state.draft, index)) state.invalidIndex = undefined;
    this.#renderCard();
  }

  /** Typing updates the draft and patches the card in place: a re-render would break IME input and the caret. */
  #typeCustom(pending: PendingQuestion, text: string): void {
    const state = this.#stateFor(pending);
    const index = state.draft.page;
    const question = pending.questions[index]!;
    state.draft = setCustom(state.draft, question, index, text);
    const item = itemAt(state.draft, index);
    if (question.multiSelect !== true && item.selected.length === 0) {
      for (const input of this.#cardSlot.querySelectorAll<HTMLInputElement>('input[name="q-options"]')) input.checked = false;
    }
    if (!item.skipped) this.#cardSlot.querySelector('[data-role="skipped"]')?.remove();
    if (state.invalidIndex === index && isComplete(state.draft, index)) {
      state.invalidIndex = undefined;
      this.#cardSlot.querySelector('#q-invalid')?.remove();
      for (const marked of this.#cardSlot.querySelectorAll('[aria-invalid]')) marked.removeAttribute('aria-invalid');
      for (const described of this.#cardSlot.querySelectorAll('[aria-describedby~="q-invalid"]')) {
        const rest = described.getAttribute('aria-describedby')!.split(' ').filter((id) => id !== 'q-invalid');
        if (rest.length > 0) described.setAttribute('aria-describedby', rest.join(' '));
        else described.removeAttribute('aria-describedby');
      }
    }
  }

  #skip(pending: PendingQuestion): void {
    const state = this.#stateFor(pending);
    const index = state.draft.page;
    state.draft = skipQuestion(state.draft, index);
    if (state.invalidIndex === index) state.invalidIndex = undefined;
    if (index < pending.questions.length - 1) this.#goTo(pending, index + 1);
    else this.#renderCard();
  }

  #goTo(pending: PendingQuestion, page: number): void {
    const state = this.#stateFor(pending);
    state.draft = goToPage(state.draft, page);
    this.#focusAfterRender = 'heading';
    this.#renderCard();
  }

  #submit(pending: PendingQuestion): void {
    const state = this.#stateFor(pending);
    const missing = firstIncomplete(state.draft);
    if (missing !== undefined) {
      state.invalidIndex = missing;
      state.draft = goToPage(state.draft, missing);
      this.#focusAfterRender = 'heading';
      this.#renderCard();
      return;
    }
    this.#send(pending, answerFromDraft(pending.questions, state.draft));
  }

  #hasFeedback(pending: PendingQuestion): boolean {
    return itemAt(this.#stateFor(pending).draft, 0).custom.trim() !== '';
  }

  /** Approval is the bare choice; feedback the person typed must not be dropped without a word. */
  #approvePlan(pending: PendingQuestion, id: string, approve: string): void {
    if (this.#hasFeedback(pending)) {
      const state = this.#stateFor(pending);
      state.error = this.#strings.feedbackPending;
      this.#focusAfterRender = 'feedback';
      this.#renderCard();
      return;
    }
    this.#send(pending, { answers: [{ id, selected: [approve] }] });
  }

  #sendFeedback(pending: PendingQuestion): void {
    const state = this.#stateFor(pending);
    const text = itemAt(state.draft, 0).custom.trim();
    const id = pending.questions[0]!.id;
    if (text === '') {
      state.invalidIndex = 0;
      this.#focusAfterRender = 'feedback';
      this.#renderCard();
      return;
    }
    // Feedback is a custom answer, which on this single-select question replaces the choice.
    this.#send(pending, { answers: [{ id, selected: [], custom: text }] });
  }

  #send(pending: PendingQuestion, answer: AskUserQuestionAnswer): void {
    const state = this.#stateFor(pending);
    if (state.busy) return;
    state.invalidIndex = undefined;
    // Check locally first: a misfit is shown at once and nothing is sent.
    const mismatch = pending.check(answer);
    if (mismatch) {
      state.error = this.#strings.errors['invalid-answer'](mismatch.message);
      this.#renderCard();
      return;
    }
    this.#lockWhile(pending, pending.answer(answer), () =>
      this.#emit<AskseamAnsweredDetail>('askseam-answered', { rpcId: pending.rpcId, sessionId: pending.sessionId, answer }),
    );
  }

  #dismiss(pending: PendingQuestion): void {
    if (this.#stateFor(pending).busy) return;
    this.#lockWhile(pending, pending.cancel(), () =>
      this.#emit<AskseamCancelledDetail>('askseam-cancelled', { rpcId: pending.rpcId, sessionId: pending.sessionId }),
    );
  }

  /**
   * Lock the controls until the host's receipt. Accepted: stay locked until the resolved frame
   * removes the request. Refused or failed: unlock, keep the draft, show why, and put focus back.
   */
  #lockWhile(pending: PendingQuestion, receipt: Promise<unknown>, onAccepted: () => void): void {
    const state = this.#stateFor(pending);
    const focusKey = this.#focusedKey() ?? 'heading';
    state.hadFocus = this.#root.activeElement !== null;
    state.busy = true;
    state.error = undefined;
    this.#renderCard();
    receipt.then(onAccepted, (error: unknown) => {
      if (this.#states.get(pending.rpcId) !== state) return;
      state.busy = false;
      state.error = this.#describe(error);
      if (this.#shown === pending) this.#focusAfterRender = focusKey;
      this.#renderCard();
    });
  }

  #describe(error: unknown): string {
    const { errors } = this.#strings;
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

  #emit<T>(type: string, detail: T): void {
    this.dispatchEvent(new CustomEvent<T>(type, { detail, bubbles: true, composed: true }));
  }

  /** Number keys 1–9 pick an option of the question on screen, unless the person is typing. */
  #onKeydown(event: KeyboardEvent): void {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (!/^[1-9]$/.test(event.key)) return;
    const target = event.composedPath()[0];
    if (target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type === 'text')) return;
    const input = this.#cardSlot.querySelector<HTMLInputElement>(`input[data-focus="option-${Number(event.key) - 1}"]`);
    if (!input || input.disabled) return;
    event.preventDefault();
    this.#focusAfterRender = input.dataset['focus'];
    const pending = this.#queue()[0];
    if (pending) this.#choose(pending, input.value);
  }
}

/**
 * The `url` attribute as a WebSocket URL. A path (`/askseam`) or an http(s) URL is resolved against
 * the page, so a page served by the host's own server need not know its port: http → ws, https → wss.
 */
function webSocketUrl(value: string): string {
  const resolved = new URL(value, document.baseURI);
  if (resolved.protocol === 'http:') resolved.protocol = 'ws:';
  else if (resolved.protocol === 'https:') resolved.protocol = 'wss:';
  return resolved.href;
}
