import type { AskUserQuestionAnswer } from '@askseam/user-questions';

// The events `<askseam-questions>` dispatches (bubbling, composed), named in the README's API table.

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

/** The event map, so one `emit` is typed for every event. */
export interface AskseamEventDetails {
  'askseam-answered': AskseamAnsweredDetail;
  'askseam-cancelled': AskseamCancelledDetail;
  'askseam-pendingchange': AskseamPendingChangeDetail;
}
