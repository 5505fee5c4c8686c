import { AskseamError } from '@askseam/user-questions';

/** Every code a `WebSocketHostError` can carry. Errors of a question itself are `UserQuestionError`s. */
export const webSocketHostErrorCodes = [
  'INVALID_OPTIONS',
  'NO_AUTHENTICATION',
  'NOT_LISTENING',
  /** `askDetached` got a request it cannot keep (state that is not JSON, an unknown urgency, two different sessions). */
  'INVALID_REQUEST',
  /** The question store failed, so the question was not asked (`askDetached`) or the host could not start. */
  'STORE_FAILED',
  /** `linkFor` was called on a host without `linkBaseUrl`: there is no page for the link to open. */
  'NO_LINK_BASE_URL',
  /** `linkFor` was asked for a question that is not pending on this host (unknown, or already settled). */
  'NOT_PENDING',
  /** A quorum approval was asked on a host whose question store has no `vote()` to count approvals with. */
  'QUORUM_UNSUPPORTED',
  /** `options.route` threw or returned tiers that cannot be used (the question was not asked), or `agentAnswerer` got a bad definition. */
  'INVALID_ROUTE',
  /** The `cause` of the `ASK_ABORTED` an asker gets when an operator withdrew its question (`host.withdraw`, the console). */
  'WITHDRAWN',
  /** `resendNotification` on a host without `notify`: there is nothing to send it with. */
  'NO_NOTIFY',
  /** `openChannel` on a closed host, or `respond` through a channel that was closed (or whose host was). */
  'CLOSED',
] as const;

export type WebSocketHostErrorCode = (typeof webSocketHostErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.WebSocketHostError') as never;

/** A host that cannot be set up as asked (bad options, no authentication chosen, not listening, a failing store), or a detached ask it cannot keep. */
export class WebSocketHostError extends AskseamError<WebSocketHostErrorCode> {
  readonly [marker] = true;
  override readonly name = 'WebSocketHostError';

  /** True for a `WebSocketHostError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is WebSocketHostError {
    return AskseamError.hasMarker(value, marker);
  }
}
