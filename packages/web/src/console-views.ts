// The console's sections as DOM, from the API's data. Every piece of data goes in as text (h's
// `text`), never as markup: question text comes from a model, ids and reasons from anyone.
import { barChart, formatDuration, lineChart } from './console-charts.js';
import type { ConsoleEvent, ConsolePending, ConsoleQuarantined, ConsoleSettled, ConsoleStatsView, HistoryFilter } from './console-api.js';
import { h } from './dom.js';

export interface PendingActions {
  canNotify: boolean;
  /** The rpcId whose withdraw form is open, if any. */
  withdrawing: string | undefined;
  openWithdraw(rpcId: string): void;
  confirmWithdraw(rpcId: string, reason: string): void;
  cancelWithdraw(): void;
  notify(rpcId: string): void;
  showSession(sessionId: string): void;
}

const questionText = (questions: { header?: string; question: string }[]): string =>
  questions.map((item) => (item.header === undefined ? item.question : `${item.header}: ${item.question}`)).join(' · ');

function sessionButton(sessionId: string, show: (sessionId: string) => void): HTMLButtonElement {
  return h('button', { class: 'link', text: sessionId, attrs: { type: 'button', title: 'Show this session\'s timeline' }, on: { click: () => show(sessionId) } });
}

export function pendingTable(questions: ConsolePending[], actions: PendingActions): HTMLElement {
  if (questions.length === 0) return h('p', { class: 'empty', text: 'Nothing is waiting.' });
  const withTier = questions.some((question) => question.tier !== undefined);
  const head = h('tr', {}, ...['Agent', 'Session', 'Question', 'Urgency', ...(withTier ? ['Tier'] : []), 'Waiting', ''].map((text) => h('th', { text, attrs: { scope: 'col' } })));
  const rows = questions.map((question) => {
    const actionsCell =
      actions.withdrawing === question.rpcId
        ? withdrawForm(question.rpcId, actions)
        : h(
            'td',
            { class: 'actions' },
            h('button', { text: 'Withdraw', attrs: { type: 'button' }, on: { click: () => actions.openWithdraw(question.rpcId) } }),
            actions.canNotify && h('button', { text: 'Re-send notification', attrs: { type: 'button' }, on: { click: () => actions.notify(question.rpcId) } }),
          );
    return h(
      'tr',
      { attrs: { 'data-rpc-id': question.rpcId } },
      h('td', { text: question.askedBy }),
      h('td', {}, sessionButton(question.sessionId, actions.showSession)),
      h('td', { class: 'question', text: questionText(question.questions) }),
      h('td', { text: question.urgency ?? 'medium', attrs: { 'data-urgency': question.urgency ?? 'medium' } }),
      withTier && h('td', { text: question.tier ?? '' }),
      h('td', { text: formatDuration(question.ageMs), attrs: { title: question.askedAt } }),
      actionsCell,
    );
  });
  return h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows));
}

function withdrawForm(rpcId: string, actions: PendingActions): HTMLElement {
  const reason = h('input', { attrs: { type: 'text', maxlength: 500, placeholder: 'Reason (shown to the asker and in the log)', 'aria-label': 'Reason for withdrawing' } });
  return h(
    'td',
    { class: 'actions' },
    reason,
    h('button', { text: 'Confirm withdraw', attrs: { type: 'button' }, on: { click: () => actions.confirmWithdraw(rpcId, reason.value.trim()) } }),
    h('button', { text: 'Keep it', attrs: { type: 'button' }, on: { click: () => actions.cancelWithdraw() } }),
  );
}

export function historyFilterForm(filter: HistoryFilter, apply: (filter: HistoryFilter) => void): HTMLElement {
  const agent = h('input', { attrs: { type: 'text', 'aria-label': 'Agent', placeholder: 'agent' }, props: { value: filter.agent ?? '' } });
  const session = h('input', { attrs: { type: 'text', 'aria-label': 'Session', placeholder: 'session' }, props: { value: filter.session ?? '' } });
  const outcome = h(
    'select',
    { attrs: { 'aria-label': 'Outcome' } },
    ...['', 'answered', 'cancelled', 'aborted', 'timed_out'].map((value) => h('option', { text: value === '' ? 'any outcome' : value, attrs: { value }, props: { selected: (filter.outcome ?? '') === value } })),
  );
  const submit = (event: Event) => {
    event.preventDefault();
    apply({ agent: agent.value.trim(), session: session.value.trim(), outcome: outcome.value });
  };
  // A form for Enter to work; `form-action 'none'` and preventDefault keep it from ever navigating.
  return h('form', { class: 'filters', on: { submit } }, agent, session, outcome, h('button', { text: 'Filter', attrs: { type: 'submit' } }));
}

export function historyTable(questions: ConsoleSettled[], showSession: (sessionId: string) => void): HTMLElement {
  if (questions.length === 0) return h('p', { class: 'empty', text: 'No settled questions match.' });
  const head = h('tr', {}, ...['Asked', 'Agent', 'Session', 'Question', 'Outcome', 'Answered by', 'Via', 'Time to settle'].map((text) => h('th', { text, attrs: { scope: 'col' } })));
  const rows = questions.map((question) =>
    h(
      'tr',
      { attrs: { 'data-rpc-id': question.rpcId } },
      h('td', { text: new Date(question.askedAt).toLocaleString(), attrs: { title: question.askedAt } }),
      h('td', { text: question.askedBy }),
      h('td', {}, sessionButton(question.sessionId, showSession)),
      h('td', { class: 'question', text: questionText(question.questions) }),
      h('td', { text: question.outcome, attrs: { 'data-outcome': question.outcome } }),
      h('td', { text: question.answeredBy === undefined ? '' : [question.answeredBy.principalId, question.answeredBy.user].filter(Boolean).join(' / ') }),
      h('td', { text: question.answeredBy?.via ?? '' }),
      h('td', { text: question.timeToSettleMs === undefined ? '' : formatDuration(question.timeToSettleMs) }),
    ),
  );
  return h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows));
}

/** One session's stored event log, oldest first, each event's data as JSON text. */
export function timelineList(sessionId: string, events: ConsoleEvent[]): HTMLElement {
  if (events.length === 0) return h('p', { class: 'empty', text: `Session ${sessionId} has no events.` });
  return h(
    'ol',
    { class: 'timeline', attrs: { 'aria-label': `Timeline of session ${sessionId}` } },
    ...events.map((event) =>
      h(
        'li',
        { attrs: { 'data-type': event.type } },
        h('time', { text: new Date(event.at).toLocaleTimeString(), attrs: { datetime: event.at } }),
        h('strong', { text: ` ${event.type} ` }),
        h('code', { text: event.rpcId }),
        h('pre', { text: JSON.stringify(event.data, null, 1) }),
      ),
    ),
  );
}

export function chartsView(stats: ConsoleStatsView): HTMLElement {
  const labels = stats.timeToAnswer.map((bucket) => bucket.at);
  return h(
    'div',
    { class: 'charts' },
    lineChart(
      'Time to answer',
      labels,
      [
        { name: 'p50', values: stats.timeToAnswer.map((bucket) => bucket.p50Ms), colour: '#1d4ed8' },
        { name: 'p90', values: stats.timeToAnswer.map((bucket) => bucket.p90Ms), colour: '#b45309' },
      ],
      formatDuration,
    ),
    lineChart('Pending over time', stats.pending.map((point) => point.at), [{ name: 'pending', values: stats.pending.map((point) => point.count), colour: '#047857' }], (value) => String(Math.round(value))),
    barChart('Rejected responses by reason', stats.rejections.map((entry) => ({ label: entry.reason, count: entry.count }))),
    !stats.sample.complete && h('p', { class: 'note', text: `Drawn from the newest ${stats.sample.settled} settled questions and ${stats.sample.sessions} sessions' logs only.` }),
  );
}

export function quarantinedList(questions: ConsoleQuarantined[]): HTMLElement {
  if (questions.length === 0) return h('p', { class: 'empty', text: 'No quarantined records on this node.' });
  return h(
    'ul',
    { class: 'quarantined' },
    ...questions.map((entry) =>
      h('li', {}, h('code', { text: entry.rpcId }), entry.sessionId !== undefined && h('span', { text: ` (session ${entry.sessionId})` }), h('p', { text: entry.reason }), h('p', { class: 'advice', text: entry.advice })),
    ),
  );
}
