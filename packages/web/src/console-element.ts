import { ConsoleApi, ConsoleApiError, type HistoryFilter } from './console-api.js';
import { consoleStyles } from './console-styles.js';
import { chartsView, historyFilterForm, historyTable, pendingTable, quarantinedList, timelineList, type PendingActions } from './console-views.js';
import { h } from './dom.js';

// On a server (SSR) there is no HTMLElement; importing the module there must still work.
const ElementBase = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/** How often the pending list refreshes itself while the element is on the page. */
const REFRESH_MS = 5000;

/**
 * `<askseam-console>`: the operator console of an askseam host (docs/console.md). Attributes:
 * `base` (the host's path or URL, e.g. `/askseam`), `token` (an operator token, sent as a Bearer
 * header; without it the page's cookies go, for an app whose `authenticate` reads them),
 * `token-from-location` (take `?token=` from the page's URL, then drop it from the address bar),
 * and `hours` (the charts' window, default 24). Everything shown is text, never markup.
 */
export class AskseamConsoleElement extends ElementBase {
  static get observedAttributes(): string[] {
    return ['base', 'token', 'hours'];
  }

  readonly #root: ShadowRoot;
  readonly #status: HTMLDivElement;
  readonly #pending: HTMLDivElement;
  readonly #history: HTMLDivElement;
  readonly #timeline: HTMLDivElement;
  readonly #charts: HTMLDivElement;
  readonly #quarantined: HTMLDivElement;
  #api: ConsoleApi | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #withdrawing: string | undefined;
  #filter: HistoryFilter = {};
  /** Cursors of the history pages before this one, to go back. */
  #cursors: (string | undefined)[] = [];
  #pageToken: string | undefined;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = consoleStyles;
    this.#status = h('div', { class: 'status', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.#pending = h('div');
    this.#history = h('div');
    this.#timeline = h('div');
    this.#charts = h('div');
    this.#quarantined = h('div');
    const section = (title: string, body: HTMLElement, id: string, extra?: HTMLElement) =>
      h('section', { attrs: { 'aria-labelledby': id } }, h('h2', { text: title, attrs: { id } }), extra, body);
    const refresh = h('button', { text: 'Refresh', attrs: { type: 'button' }, on: { click: () => void this.refresh() } });
    this.#root.append(
      style,
      h('header', {}, h('h1', { text: 'askseam console' }), refresh),
      this.#status,
      section('Pending now', this.#pending, 'pending-title'),
      section('History', this.#history, 'history-title'),
      section('Session timeline', this.#timeline, 'timeline-title'),
      section('Charts', this.#charts, 'charts-title'),
      section('Quarantined records', this.#quarantined, 'quarantined-title'),
    );
  }

  connectedCallback(): void {
    if (this.hasAttribute('token-from-location') && this.#pageToken === undefined) {
      const url = new URL(location.href);
      const token = url.searchParams.get('token');
      if (token !== null) {
        this.#pageToken = token;
        // Out of the address bar and the history: a token on screen is a token someone copies.
        url.searchParams.delete('token');
        history.replaceState(history.state, '', url);
      }
    }
    this.#api = new ConsoleApi(this.#base(), this.getAttribute('token') ?? this.#pageToken);
    this.#timeline.replaceChildren(h('p', { class: 'empty', text: 'Pick a session (its name in either table) to see its whole audit log.' }));
    void this.refresh();
    this.#timer = setInterval(() => void this.#loadPending(), REFRESH_MS);
  }

  disconnectedCallback(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  attributeChangedCallback(): void {
    if (!this.isConnected) return;
    this.#api = new ConsoleApi(this.#base(), this.getAttribute('token') ?? this.#pageToken);
    void this.refresh();
  }

  /** Read everything again. */
  async refresh(): Promise<void> {
    await Promise.all([this.#loadPending(), this.#loadHistory(this.#cursors.at(-1)), this.#loadCharts(), this.#loadQuarantined()]);
  }

  /** Show one session's audit timeline. */
  async showSession(sessionId: string): Promise<void> {
    const api = this.#api;
    if (api === undefined) return;
    try {
      const { events } = await api.events(sessionId);
      this.#timeline.replaceChildren(h('h3', { text: `Session ${sessionId}` }), timelineList(sessionId, events));
    } catch (error) {
      this.#report(error);
    }
  }

  #base(): string {
    const base = this.getAttribute('base') ?? '/askseam';
    return base.endsWith('/') ? base.slice(0, -1) : base;
  }

  #actions(canNotify: boolean): PendingActions {
    return {
      canNotify,
      withdrawing: this.#withdrawing,
      openWithdraw: (rpcId) => {
        this.#withdrawing = rpcId;
        void this.#loadPending(true);
      },
      cancelWithdraw: () => {
        this.#withdrawing = undefined;
        void this.#loadPending(true);
      },
      confirmWithdraw: (rpcId, reason) => void this.#act(() => this.#api!.withdraw(rpcId, reason), `Withdrew question ${rpcId}.`),
      notify: (rpcId) => void this.#act(() => this.#api!.notify(rpcId), `Sent the notification of question ${rpcId} again.`),
      showSession: (sessionId) => void this.showSession(sessionId),
    };
  }

  async #act(action: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await action();
      this.#withdrawing = undefined;
      this.#say(done, 'ok');
    } catch (error) {
      this.#withdrawing = undefined;
      this.#report(error);
    }
    await this.refresh();
  }

  /** `redraw`: also while a withdraw form is open (the timer leaves it alone: it must not be redrawn under the operator's typing). */
  async #loadPending(redraw = false): Promise<void> {
    if (this.#api === undefined || (!redraw && this.#withdrawing !== undefined)) return;
    try {
      const { questions, canNotify } = await this.#api.pending();
      if (this.#withdrawing !== undefined && !questions.some((question) => question.rpcId === this.#withdrawing)) this.#withdrawing = undefined;
      this.#pending.replaceChildren(h('p', { class: 'count', text: `${questions.length} waiting` }), pendingTable(questions, this.#actions(canNotify)));
    } catch (error) {
      this.#report(error);
    }
  }

  async #loadHistory(cursor: string | undefined): Promise<void> {
    if (this.#api === undefined) return;
    try {
      const page = await this.#api.history({ ...this.#filter, ...(cursor === undefined ? {} : { cursor }) });
      const older = page.next;
      const nav = h(
        'p',
        { class: 'pager' },
        this.#cursors.length > 0 &&
          h('button', { text: 'Newer', attrs: { type: 'button' }, on: { click: () => void this.#loadHistory(this.#cursorsBack()) } }),
        older !== undefined &&
          h('button', {
            text: 'Older',
            attrs: { type: 'button' },
            on: {
              click: () => {
                this.#cursors.push(older);
                void this.#loadHistory(older);
              },
            },
          }),
      );
      const apply = (filter: HistoryFilter) => {
        this.#filter = filter;
        this.#cursors = [];
        void this.#loadHistory(undefined);
      };
      this.#history.replaceChildren(historyFilterForm(this.#filter, apply), historyTable(page.questions, (sessionId) => void this.showSession(sessionId)), nav);
    } catch (error) {
      this.#report(error);
    }
  }

  #cursorsBack(): string | undefined {
    this.#cursors.pop();
    return this.#cursors.at(-1);
  }

  async #loadCharts(): Promise<void> {
    if (this.#api === undefined) return;
    const hours = Number(this.getAttribute('hours') ?? '24');
    try {
      this.#charts.replaceChildren(chartsView(await this.#api.stats(Number.isInteger(hours) && hours >= 1 && hours <= 720 ? hours : 24)));
    } catch (error) {
      this.#report(error);
    }
  }

  async #loadQuarantined(): Promise<void> {
    if (this.#api === undefined) return;
    try {
      this.#quarantined.replaceChildren(quarantinedList((await this.#api.quarantined()).questions));
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown): void {
    const text = error instanceof ConsoleApiError ? `${error.status}: ${error.message}` : `The host could not be reached: ${String(error)}`;
    this.#say(text, 'error');
  }

  #say(text: string, kind: 'ok' | 'error'): void {
    this.#status.textContent = text;
    this.#status.dataset.kind = kind;
  }
}
