// The element's DOM-free types: event details, attributes, the event map. Nothing here refers to
// DOM globals (HTMLElement, CustomEvent, …), so a server-side tsconfig without the `dom` lib can
// import them (through `@askseam/web/server`). The element and the framework typings build on them.
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import type { AskseamLang } from './i18n.js';

/** The tag name `defineAskseamQuestions()` registers by default. */
export type AskseamQuestionsTagName = 'askseam-questions';

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

/**
 * Detail of the `askseam-attention` event: a request arrived while the page was hidden, and the
 * element called for the person's attention (the tab title always; a notification and a sound when
 * the host app enabled them).
 */
export interface AskseamAttentionDetail {
  rpcId: string;
  sessionId: string;
  /** How many requests wait now: the number in the tab title. */
  count: number;
  /** `shown`; `off` without the `notify` attribute; `not-permitted` when the person has not allowed notifications (or the browser cannot show them). */
  notification: 'shown' | 'off' | 'not-permitted';
  /** `played`; `off` without the `sound` attribute; `blocked` when the browser kept the page silent (nobody has interacted with it yet). */
  sound: 'played' | 'off' | 'blocked';
}

/** Each event the element dispatches (bubbling, composed), by name, with the type of its `detail`. */
export interface AskseamQuestionsEventDetails {
  'askseam-answered': AskseamAnsweredDetail;
  'askseam-attention': AskseamAttentionDetail;
  'askseam-cancelled': AskseamCancelledDetail;
  'askseam-pendingchange': AskseamPendingChangeDetail;
}

/** The element's attributes, as strings in markup. */
export interface AskseamQuestionsAttributes {
  /** The host's WebSocket URL, or a path or http(s) URL on the page's own server. Changing it reconnects. */
  url?: string | undefined;
  /** The host's shared token, sent as `?token=…`. Changing it reconnects. */
  token?: string | undefined;
  /**
   * A one-question link's capability (the `?link=` of the page a notification opened), sent to the
   * host instead of `token`: the element then shows that question alone, and says so once it is settled.
   */
  link?: string | undefined;
  /** `en` (default) or `zh` (any `zh-…` tag); anything else falls back to English. */
  lang?: AskseamLang | (string & {}) | undefined;
  /**
   * Present: when a request arrives while the page is hidden, show a Web Notification (once the
   * person has allowed them with the element's "Notify me" button). A boolean attribute.
   */
  notify?: boolean | undefined;
  /** Present: when a request arrives while the page is hidden, play a short chime. A boolean attribute. */
  sound?: boolean | undefined;
}
