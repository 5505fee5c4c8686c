import type { ReceiptRejectionReason } from '@askseam/protocol';
import type { AnsweredBy } from '@askseam/store';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';
import type { HostLogger } from './logger.js';

/**
 * Where a response came in (`AnsweredBy.via`): `'websocket'` (a `question/respond` frame), `'http'`
 * (the HTTP API), or the `via` of an in-process channel (`host.openChannel`): `'slack'`, `'email'`, …
 */
export type ResponseChannel = 'websocket' | 'http' | (string & {});

/**
 * Something the host did, for metrics and logs. Delivered synchronously to `onEvent`. (The durable,
 * per-session audit log is the store's event log; see `QuestionStore.readEvents`.) A response
 * that came over HTTP has `connectionId: 'http'` and `channel: 'http'`.
 */
export type HostEvent =
  | { type: 'asked'; rpcId: string; sessionId: string; questions: AskUserQuestionItem[]; askedAt: string }
  /** One question frame sent to one connection: live when asked, or replayed when the connection arrived. */
  | { type: 'delivered'; rpcId: string; sessionId: string; connectionId: string; replay: boolean }
  /** `answeredBy`: who answered, as the settled record keeps it (its `via` is `channel`). */
  | { type: 'answered'; rpcId: string; sessionId: string; connectionId: string; principalId: string; answer: AskUserQuestionAnswer; channel?: ResponseChannel; answeredBy: AnsweredBy }
  /**
   * One approval of a quorum approval was counted (`approvals` of `needed`); the question stays
   * pending. The vote that completes the quorum is reported as `answered` instead.
   */
  | { type: 'voted'; rpcId: string; sessionId: string; connectionId: string; principalId: string; channel?: ResponseChannel; user?: string; destination?: string; approvals: number; needed: number }
  /** The person dismissed the questions (a `cancelled` response); the ask rejected `ASK_CANCELLED`. */
  | { type: 'cancelled'; rpcId: string; sessionId: string; connectionId: string; principalId: string; channel?: ResponseChannel; user?: string; destination?: string }
  /**
   * The asker gave up (its signal aborted) or the host closed; the ask rejected `ASK_ABORTED`.
   * `timedOut` is true when the seam's `timeoutMs` fired the signal (the ask rejected `ASK_TIMEOUT`;
   * the event log writes `timed_out`). Always set by this host; optional for hooks typed before it.
   */
  | { type: 'aborted'; rpcId: string; sessionId: string; by: 'signal' | 'host-close'; timedOut?: boolean }
  /**
   * A routed question reached tier `tier` (≥ 1): `after` its time came, or `fall-through` when the
   * agent answerers of the tier before gave up. Once per tier across nodes. `answerers` as in the event log.
   */
  | { type: 'escalated'; rpcId: string; sessionId: string; tier: number; reason: 'after' | 'fall-through'; answerers: string[] }
  /** An operator withdrew the question (`host.withdraw` or the console): `principalId` is the operator's, `reason` theirs. */
  | { type: 'aborted'; rpcId: string; sessionId: string; by: 'operator'; timedOut?: false; principalId: string; reason?: string }
  | { type: 'response-rejected'; rpcId: string; connectionId: string; principalId: string; reason: ReceiptRejectionReason; detail?: string; channel?: ResponseChannel; user?: string; destination?: string }
  /** A stored question the host cannot use (unreadable, or an answer that does not fit it): skipped and listed by `host.quarantined()`. Once per record and process. */
  | { type: 'quarantined'; rpcId: string; sessionId?: string; reason: string }
  | { type: 'connected'; connectionId: string; principalId: string }
  | { type: 'disconnected'; connectionId: string; principalId: string; code: number; reason: string }
  /** An upgrade refused before any WebSocket existed: 401 (authentication) or 403 (Origin). */
  | { type: 'auth-failed'; status: 401 | 403; reason: string; remoteAddress?: string };

export type HostEventType = HostEvent['type'];

/**
 * An `emit` that survives a throwing `onEvent`: observability must never break delivery. The hook
 * gets a deep copy: the questions and answers in an event are the ones the host delivers,
 * validates against and hands to the asker, and an audit hook that redacts in place must not
 * change what the person is asked or what the model gets.
 */
export function eventEmitter(onEvent: ((event: HostEvent) => void) | undefined, logger: HostLogger): (event: HostEvent) => void {
  if (onEvent === undefined) return () => {};
  return (event) => {
    try {
      // Only `asked` and `answered` carry nested objects; every other event is flat, and a shallow copy is a whole one.
      onEvent(event.type === 'asked' || event.type === 'answered' || event.type === 'escalated' ? structuredClone(event) : { ...event });
    } catch (error) {
      logger.error('onEvent threw; the event was dropped', { event: event.type, error: String(error) });
    }
  };
}
