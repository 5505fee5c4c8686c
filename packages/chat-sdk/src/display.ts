import { isMultiSelect, type AskUserQuestionItem } from '@askseam/user-questions';

// What every platform's card shares: how a label is shown, which control a question gets, and the
// words around the controls. The answer always carries the full label; only the display is short.

// The same rule as the web UI's Recommended mark: a trailing "(recommended)" or "(推荐)".
const recommendedSuffix = /\s*(?:\((?:recommended|推荐)\)|（(?:recommended|推荐)）)\s*$/i;

/** Shorten to at most `max` code points, ending in "…" when something was cut. */
export function shorten(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return points.slice(0, Math.max(0, max - 1)).join('') + '…';
}

/** The option's label for display: the Recommended mark as a star in front, at most `max` code points. */
export function optionDisplay(label: string, max: number): { text: string; recommended: boolean } {
  const match = recommendedSuffix.exec(label);
  const recommended = match !== null && match.index > 0;
  const bare = recommended ? label.slice(0, match!.index) : label;
  return { text: shorten(recommended ? `★ ${bare}` : bare, max), recommended };
}

/** How one question is answered on a card. */
export type QuestionControl =
  /** One click on an option answers it. */
  | 'buttons'
  /** Too many options for buttons: a select menu. */
  | 'select'
  /** Several options may be chosen: checkboxes (Slack) and a Submit. */
  | 'checkboxes'
  /** Typed or free text: a form (modal) or a reply in the card's thread. */
  | 'text';

/** The most options shown as buttons before a select menu takes over. */
export const maxButtons = 5;

export function controlOf(question: AskUserQuestionItem): QuestionControl {
  const options = question.options ?? [];
  const kind = question.input?.kind;
  if (options.length === 0 || kind === 'text' || kind === 'textarea' || kind === 'number' || kind === 'date') return 'text';
  if (isMultiSelect(question)) return 'checkboxes';
  if (kind === 'select' || options.length > maxButtons) return 'select';
  return 'buttons';
}

/** Whether one click on an option can answer the whole batch. */
export function answersByClick(questions: readonly AskUserQuestionItem[]): boolean {
  return questions.length === 1 && (controlOf(questions[0]!) === 'buttons' || controlOf(questions[0]!) === 'select');
}

/** The line under a card telling the person how else to answer. */
export function replyHint(questions: readonly AskUserQuestionItem[]): string {
  const approval = questions.length === 1 && questions[0]!.intent?.kind === 'tool-approval';
  if (approval) return 'Or reply in this thread: "approve", or "deny: <reason>".';
  if (questions.length > 1) return 'Or reply in this thread, one line per question ("1: …", "2: …").';
  return 'Or reply in this thread with your answer.';
}

/** What a settled card says instead of its controls. */
export function settledText(outcome: string, answeredBy: { via: string; user?: string } | undefined, mention: (user: string) => string): string {
  if (outcome === 'answered' || outcome === 'cancelled') {
    const verb = outcome === 'answered' ? 'Answered' : 'Dismissed';
    if (answeredBy === undefined) return `${verb}.`;
    if (answeredBy.user !== undefined) return `${verb} by ${mention(answeredBy.user)}${answeredBy.via === 'websocket' || answeredBy.via === 'http' ? ' in askseam' : ''}.`;
    return `${verb} ${answeredBy.via === 'websocket' || answeredBy.via === 'http' ? 'in askseam' : `via ${answeredBy.via}`}.`;
  }
  if (outcome === 'timed_out') return 'Timed out: the agent stopped waiting.';
  return 'Withdrawn by the agent.';
}
