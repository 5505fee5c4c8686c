import {
  QuestionClientError,
  connectQuestions,
  planReviewOf,
  type ClientStatus,
  type PendingQuestion,
  type QuestionClient,
  type QuestionResolvedEvent,
} from '@askseam/client';
import { isBlankText, isMultiSelect, type AskUserQuestionAnswer, type AskUserQuestionUrgency } from '@askseam/user-questions';
import { clearInvalid, composerKeys, formFieldKeys, markInvalid, renderComposer, type FieldKeys } from './composer-view.js';
import { h } from './dom.js';
import { isFormBatch } from './form-batch.js';
import { fieldOf, firstControlOf, renderFormPage } from './form-view.js';
import {
  answerFromDraft,
  chooseOption,
  createDraft,
  firstProblem,
  goToPage,
  itemAt,
  questionProblem,
  setChecked,
  setCustom,
  skipQuestion,
  valueProblem,
  type RequestDraft,
} from './draft.js';
import { resolveLang, stringsFor, type AskseamStrings } from './i18n.js';
import { renderPlanCard } from './plan-view.js';
import { problemText, type ShownProblem } from './problem-text.js';
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
  /** How many of them are marked high urgency. */
  urgent: number;
}

/** What the element remembers about one request; lives until the request is resolved. */
interface RequestState {
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

/** Queue order: high urgency first, then medium (or unsaid, as the seam reads it), then low. */
const urgencyRank: Record<AskUserQuestionUrgency, number> = { high: 0, medium: 1, low: 2 };

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

  /** Pending requests, most urgent first, then oldest first. */
  #queue(): PendingQuestion[] {
    const pending = [...(this.#client?.pending.values() ?? [])];
    // Stable sort: requests asked in the same millisecond keep the order the host sent them in.
    return pending.sort(
      (a, b) =>
        urgencyRank[a.urgency ?? 'medium'] - urgencyRank[b.urgency ?? 'medium'] || (a.askedAt < b.askedAt ? -1 : a.askedAt > b.askedAt ? 1 : 0),
    );
  }

  /**
   * The request to show: the one on screen while the person has started on it (or has focus in it),
   * so a more urgent arrival never pulls the card from under their hands; otherwise the head of
   * the queue. By rpcId, since a new client's replay brings new objects for the same requests.
   */
  #current(queue: PendingQuestion[] = this.#queue()): PendingQuestion | undefined {
    const shown = this.#shown;
    if (shown !== undefined && (this.#states.get(shown.rpcId)?.touched === true || this.#root.activeElement !== null)) {
      const still = queue.find((each) => each.rpcId === shown.rpcId);
      if (still) return still;
    }
    return queue[0];
  }

  #stateFor(question: PendingQuestion): RequestState {
    let state = this.#states.get(question.rpcId);
    if (!state) {
      state = { draft: createDraft(question.questions), invalid: new Map(), error: undefined, busy: false, hadFocus: false, touched: false };
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
    const current = this.#current();
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
    const current = this.#current(queue);
    const waiting = queue.filter((each) => each !== current);
    const urgentWaiting = waiting.filter((each) => each.urgency === 'high').length;
    const waitingText = waiting.length > 0 ? strings.moreWaiting(waiting.length, urgentWaiting) : '';
    if (this.#waitingNote.textContent !== waitingText) this.#waitingNote.textContent = waitingText;
    const urgent = queue.filter((each) => each.urgency === 'high').length;
    if (queue.length !== this.#lastCount || urgent !== this.#lastUrgent) {
      this.#lastCount = queue.length;
      this.#lastUrgent = urgent;
      this.dispatchEvent(new CustomEvent<AskseamPendingChangeDetail>('askseam-pendingchange', { detail: { count: queue.length, urgent }, bubbles: true, composed: true }));
    }
  }

  /** Rebuild the card of the oldest request, keeping focus on the same control when it survives. */
  #renderCard(): void {
    const current = this.#current();
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
          invalid: state.invalid.size > 0,
          error: state.error,
          busy: state.busy,
          urgency: pending.urgency,
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
    if (isFormBatch(pending.questions)) return this.#buildFormPage(pending, state);
    const index = state.draft.page;
    const question = pending.questions[index]!;
    const shownProblem = state.invalid.get(index);
    return renderComposer(
      {
        question,
        index,
        count: pending.questions.length,
        item: itemAt(state.draft, index),
        invalid: shownProblem === undefined ? undefined : problemText(strings, question, shownProblem),
        error: state.error,
        busy: state.busy,
        urgency: pending.urgency,
        strings,
      },
      {
        choose: (label) => this.#choose(pending, label),
        typeCustom: (text) => this.#typeCustom(pending, text),
        setChecked: (checked) => this.#setChecked(pending, checked),
        skip: () => this.#skip(pending),
        back: () => this.#goTo(pending, index - 1),
        primary: () => this.#primary(pending),
        dismiss: () => this.#dismiss(pending),
      },
    );
  }

  /** A form page: every question at once, each field's problem shown beside it. */
  #buildFormPage(pending: PendingQuestion, state: RequestState): HTMLFormElement {
    const strings = this.#strings;
    const { questions } = pending;
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
          choose: (label) => this.#choose(pending, label, index),
          typeCustom: (text) => this.#typeCustom(pending, text, index),
          setChecked: (checked) => this.#setChecked(pending, checked, index),
          primary: () => this.#formNext(pending, index),
        }),
        submit: () => this.#formSubmit(pending),
        dismiss: () => this.#dismiss(pending),
      },
    );
  }

  #focusedKey(): string | undefined {
    const active = this.#root.activeElement;
    return active instanceof HTMLElement ? active.dataset['focus'] : undefined;
  }

  #focus(key: string): void {
    // A form page has no single heading; its first field's heading stands in.
    const target =
      this.#cardSlot.querySelector<HTMLElement>(`[data-focus="${key}"]`) ??
      (key === 'heading' ? this.#cardSlot.querySelector<HTMLElement>(`[data-focus="${formFieldKeys(0).focus('heading')}"]`) : null);
    if (!target) return;
    target.focus();
    // Number and date inputs have no caret to place (setSelectionRange throws on them).
    if (target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type === 'text')) {
      target.setSelectionRange(target.value.length, target.value.length);
    }
  }

  // ── what the person does ─────────────────────────────────────────────────────

  /** The question an edit is about: `index` on a form page, otherwise the page on screen. */
  #indexOf(state: RequestState, index: number | undefined): number {
    return index ?? state.draft.page;
  }

  /** Where question `index` is drawn: its field on a form page, otherwise the whole card. */
  #scopeOf(pending: PendingQuestion, index: number): { scope: ParentNode; keys: FieldKeys } {
    if (!isFormBatch(pending.questions)) return { scope: this.#cardSlot, keys: composerKeys };
    return { scope: fieldOf(this.#cardSlot, index) ?? this.#cardSlot, keys: formFieldKeys(index) };
  }

  #choose(pending: PendingQuestion, label: string, at?: number): void {
    const state = this.#stateFor(pending);
    const index = this.#indexOf(state, at);
    state.draft = chooseOption(state.draft, pending.questions[index]!, index, label);
    state.touched = true;
    if (isFormBatch(pending.questions)) {
      // The browser already shows the choice; patch the rest in place, since re-rendering the page
      // would empty any other field's number or date text that the browser could not read.
      const { scope, keys } = this.#scopeOf(pending, index);
      const custom = scope.querySelector<HTMLTextAreaElement>(`#${keys.id('custom')}`);
      if (custom) custom.value = itemAt(state.draft, index).custom;
      this.#afterEdit(pending, state, index);
      return;
    }
    if (state.invalid.has(index) && questionProblem(pending.questions[index]!, itemAt(state.draft, index)) === undefined) state.invalid.delete(index);
    this.#renderCard();
  }

  /** Typing updates the draft and patches the card in place: a re-render would break IME input and the caret. */
  #typeCustom(pending: PendingQuestion, text: string, at?: number): void {
    const state = this.#stateFor(pending);
    const index = this.#indexOf(state, at);
    const question = pending.questions[index]!;
    state.draft = setCustom(state.draft, question, index, text);
    state.touched = true;
    const item = itemAt(state.draft, index);
    if (!isMultiSelect(question) && item.selected.length === 0) {
      const { scope, keys } = this.#scopeOf(pending, index);
      for (const input of scope.querySelectorAll<HTMLInputElement>(`input[name="${keys.id('options')}"]`)) input.checked = false;
    }
    this.#afterEdit(pending, state, index);
  }

  #setChecked(pending: PendingQuestion, checked: boolean, at?: number): void {
    const state = this.#stateFor(pending);
    const index = this.#indexOf(state, at);
    state.draft = setChecked(state.draft, pending.questions[index]!, index, checked);
    state.touched = true;
    this.#afterEdit(pending, state, index);
  }

  /**
   * After an edit on the page on screen (patched in place, never re-rendered): drop the skipped
   * note once it is answered, and once an error is showing, let it follow the value: gone when
   * the value fits, the new reason when it still does not. Emptiness is judged again at Submit.
   */
  #afterEdit(pending: PendingQuestion, state: RequestState, index: number): void {
    const question = pending.questions[index]!;
    const item = itemAt(state.draft, index);
    const { scope, keys } = this.#scopeOf(pending, index);
    if (!item.skipped) scope.querySelector('[data-role="skipped"]')?.remove();
    const shown = state.invalid.get(index);
    if (shown === undefined) return;
    const live = questionProblem(question, item);
    if (live?.kind === 'value') {
      const message = problemText(this.#strings, question, live);
      state.invalid.set(index, live);
      // Unchanged words: leave the alert alone so screen readers do not repeat it at every key.
      if (message !== problemText(this.#strings, question, shown)) markInvalid(scope, message, keys);
      return;
    }
    // Fixed; or a wrong value was erased, and emptiness is judged again at Submit.
    const stillEmpty = live !== undefined && (shown.kind === 'incomplete' || shown.kind === 'required');
    if (!stillEmpty) {
      state.invalid.delete(index);
      clearInvalid(scope, keys);
    }
  }

  #skip(pending: PendingQuestion): void {
    const state = this.#stateFor(pending);
    const index = state.draft.page;
    // A required question cannot be skipped (the button is not even shown).
    if (pending.questions[index]?.required === true) return;
    state.draft = skipQuestion(state.draft, index);
    state.touched = true;
    state.invalid.delete(index);
    if (index < pending.questions.length - 1) this.#goTo(pending, index + 1);
    else this.#renderCard();
  }

  #goTo(pending: PendingQuestion, page: number): void {
    const state = this.#stateFor(pending);
    state.draft = goToPage(state.draft, page);
    state.touched = true;
    this.#focusAfterRender = 'heading';
    this.#renderCard();
  }

  /**
   * Next (or Submit on the last question), from the button, Enter in a control or an option. A
   * value on screen that cannot be sent is pointed out here, before moving on: it is easiest to
   * fix while it is in view. An empty question may still be answered later, so it lets you pass.
   */
  #primary(pending: PendingQuestion): void {
    const state = this.#stateFor(pending);
    const index = state.draft.page;
    const question = pending.questions[index]!;
    const problem: ShownProblem | undefined = this.#unreadableOnScreen() ? { kind: 'unreadable' } : valueProblem(question, itemAt(state.draft, index));
    if (problem) {
      this.#showInPlace(pending, state, index, problem);
      return;
    }
    if (index < pending.questions.length - 1) this.#goTo(pending, index + 1);
    else this.#submit(pending);
  }

  /** The number or date input on screen holds text the browser could not read as a value (its value is then ""). */
  #unreadableOnScreen(): boolean {
    const control = this.#cardSlot.querySelector('#q-value');
    return control instanceof HTMLInputElement && control.validity.badInput;
  }

  /** Mark the question on screen invalid without re-rendering, so unreadable text stays for the person to fix. */
  #showInPlace(pending: PendingQuestion, state: RequestState, index: number, problem: ShownProblem): void {
    state.invalid = new Map([[index, problem]]);
    markInvalid(this.#cardSlot, problemText(this.#strings, pending.questions[index]!, problem));
    this.#cardSlot.querySelector<HTMLElement>('[data-focus="value"]')?.focus();
  }

  /**
   * Submit goes to the first question that cannot be sent (unanswered and not skipped, required
   * and unanswered, or a value that breaks its input's rules) and says why, instead of sending.
   * What is left is checked once more exactly as the host will check it (`PendingQuestion.check`).
   */
  #submit(pending: PendingQuestion): void {
    const state = this.#stateFor(pending);
    const found = firstProblem(pending.questions, state.draft);
    if (found !== undefined) {
      this.#jumpToProblem(pending, state, found.index, found.problem);
      return;
    }
    const answer = answerFromDraft(pending.questions, state.draft);
    const mismatch = pending.check(answer);
    const at = mismatch?.questionId === undefined ? -1 : pending.questions.findIndex((question) => question.id === mismatch.questionId);
    if (mismatch && at !== -1) {
      this.#jumpToProblem(pending, state, at, { kind: 'value', rule: mismatch.rule, message: mismatch.message });
      return;
    }
    this.#send(pending, answer);
  }

  #jumpToProblem(pending: PendingQuestion, state: RequestState, index: number, problem: ShownProblem): void {
    if (index === state.draft.page && problem.kind === 'value') {
      this.#showInPlace(pending, state, index, problem);
      return;
    }
    state.invalid = new Map([[index, problem]]);
    state.draft = goToPage(state.draft, index);
    this.#focusAfterRender = 'heading';
    this.#renderCard();
  }

  // ── the form page ────────────────────────────────────────────────────────────

  /**
   * Enter in field `index` of a form page: a value in it that cannot be sent is pointed out on the
   * spot (as Next does in the composer); otherwise focus goes to the next field, or the last submits.
   */
  #formNext(pending: PendingQuestion, index: number): void {
    const state = this.#stateFor(pending);
    const question = pending.questions[index]!;
    const problem: ShownProblem | undefined = this.#unreadableInField(index) ? { kind: 'unreadable' } : valueProblem(question, itemAt(state.draft, index));
    if (problem) {
      state.invalid.set(index, problem);
      this.#markFields(pending, state);
      firstControlOf(this.#cardSlot, index)?.focus();
      return;
    }
    if (index < pending.questions.length - 1) firstControlOf(this.#cardSlot, index + 1)?.focus();
    else this.#formSubmit(pending);
  }

  /**
   * Submit on a form page: every field is checked at once with the composer's rules, except that an
   * empty optional field is a skip (a form has no Skip buttons). All problems are marked together,
   * in place (a re-render would empty unreadable number or date text), and focus goes to the first.
   * What is left is checked once more exactly as the host will check it, then sent.
   */
  #formSubmit(pending: PendingQuestion): void {
    const state = this.#stateFor(pending);
    if (state.busy) return;
    state.touched = true;
    const problems = new Map<number, ShownProblem>();
    for (const [index, question] of pending.questions.entries()) {
      const problem: ShownProblem | undefined = this.#unreadableInField(index) ? { kind: 'unreadable' } : questionProblem(question, itemAt(state.draft, index));
      if (problem !== undefined && problem.kind !== 'incomplete') problems.set(index, problem);
    }
    const answer = answerFromDraft(pending.questions, state.draft);
    if (problems.size === 0) {
      const mismatch = pending.check(answer);
      const at = mismatch?.questionId === undefined ? -1 : pending.questions.findIndex((question) => question.id === mismatch.questionId);
      if (mismatch && at !== -1) problems.set(at, { kind: 'value', rule: mismatch.rule, message: mismatch.message });
    }
    if (problems.size > 0) {
      state.invalid = problems;
      this.#markFields(pending, state);
      firstControlOf(this.#cardSlot, Math.min(...problems.keys()))?.focus();
      return;
    }
    this.#send(pending, answer);
  }

  /** Field `index` of a form page holds text the browser could not read as a number or date. */
  #unreadableInField(index: number): boolean {
    const control = this.#cardSlot.querySelector(`#${formFieldKeys(index).id('value')}`);
    return control instanceof HTMLInputElement && control.validity.badInput;
  }

  /** Show `state.invalid` on every field of the form page in place, leaving unchanged alerts alone. */
  #markFields(pending: PendingQuestion, state: RequestState): void {
    for (const [index, question] of pending.questions.entries()) {
      const field = fieldOf(this.#cardSlot, index);
      if (!field) continue;
      const keys = formFieldKeys(index);
      const problem = state.invalid.get(index);
      if (problem === undefined) {
        clearInvalid(field, keys);
        continue;
      }
      const message = problemText(this.#strings, question, problem);
      if (field.querySelector(`#${keys.id('invalid')}`)?.textContent !== message) markInvalid(field, message, keys);
    }
  }

  #hasFeedback(pending: PendingQuestion): boolean {
    return !isBlankText(itemAt(this.#stateFor(pending).draft, 0).custom);
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
    if (isBlankText(text)) {
      // The plan card words this one itself ("write your feedback first").
      state.invalid = new Map([[0, { kind: 'incomplete' }]]);
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
    state.invalid.clear();
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
    state.touched = true;
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
    // Digits typed into a text, number or date control are the value, not option shortcuts.
    if (target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type !== 'radio' && target.type !== 'checkbox')) return;
    const input = this.#cardSlot.querySelector<HTMLInputElement>(`input[data-focus="option-${Number(event.key) - 1}"]`);
    if (!input || input.disabled) return;
    event.preventDefault();
    this.#focusAfterRender = input.dataset['focus'];
    const pending = this.#current();
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
