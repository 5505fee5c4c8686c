// The payload of LangChain's humanInTheLoopMiddleware and the answer it takes back, written
// structurally (the same shapes as langchain's HITLRequest / HITLResponse, which a type test pins),
// so this package needs no runtime import of langchain.

export type HitlDecisionType = 'approve' | 'edit' | 'reject';

export interface HitlActionRequest {
  name: string;
  args: Record<string, unknown>;
  description?: string;
}

export interface HitlReviewConfig {
  actionName: string;
  allowedDecisions: HitlDecisionType[];
  /** JSON Schema of the arguments, when the middleware was given one: it types the edit form. */
  argsSchema?: Record<string, unknown>;
}

/** What `interrupt()` carries when humanInTheLoopMiddleware pauses an agent. */
export interface HitlRequest {
  actionRequests: HitlActionRequest[];
  reviewConfigs: HitlReviewConfig[];
}

export type HitlDecision =
  | { type: 'approve' }
  | { type: 'edit'; editedAction: { name: string; args: Record<string, unknown> } }
  | { type: 'reject'; message: string };

/** What the agent is resumed with: `new Command({ resume: response })`, one decision per action, in order. */
export interface HitlResponse {
  decisions: HitlDecision[];
}

const decisionTypes: readonly string[] = ['approve', 'edit', 'reject'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value of an interrupt as a humanInTheLoopMiddleware request, or `undefined` when it is some
 * other interrupt (a graph's own `interrupt(…)`), so one handler can serve both.
 */
export function hitlRequestOf(value: unknown): HitlRequest | undefined {
  if (!isPlainObject(value) || !Array.isArray(value.actionRequests) || !Array.isArray(value.reviewConfigs)) return undefined;
  const actionsFit = value.actionRequests.every(
    (action) => isPlainObject(action) && typeof action.name === 'string' && isPlainObject(action.args) && (action.description === undefined || typeof action.description === 'string'),
  );
  const reviewsFit = value.reviewConfigs.every(
    (review) =>
      isPlainObject(review) &&
      typeof review.actionName === 'string' &&
      Array.isArray(review.allowedDecisions) &&
      review.allowedDecisions.every((decision) => typeof decision === 'string' && decisionTypes.includes(decision)),
  );
  return actionsFit && reviewsFit ? (value as unknown as HitlRequest) : undefined;
}
