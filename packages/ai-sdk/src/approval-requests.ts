import type { ApprovalDecision } from '@askseam/user-questions';
import type { ToolApprovalRequestOutput, ToolApprovalResponse, ToolModelMessage, ToolSet } from 'ai';
import { AiSdkError } from './errors.js';
import { approvalAsker, toolDescription, type ApprovalCardOptions } from './tool-approval.js';

// The 'user-approval' round trip: the SDK stops at a tool call whose approval is 'user-approval'
// and emits a `tool-approval-request`; whoever answers adds a `tool-approval-response` to the
// messages and runs again. These helpers let askseam be that answerer, now or after a restart.

/** A part of `result.content`, `step.content` or a stream: only its `type` is read first. */
type ContentPart = { readonly type: string };

/**
 * The approval requests in `content` that wait for a person: `tool-approval-request` parts that
 * the SDK did not decide itself (`isAutomatic`) and that no `tool-approval-response` answers yet.
 */
export function pendingApprovalRequests<TOOLS extends ToolSet>(content: readonly ContentPart[]): ToolApprovalRequestOutput<TOOLS>[] {
  const answered = new Set(
    content.filter((part): part is { type: 'tool-approval-response'; approvalId: string } => part.type === 'tool-approval-response').map((part) => part.approvalId),
  );
  return content.filter(
    (part): part is ToolApprovalRequestOutput<TOOLS> =>
      part.type === 'tool-approval-request' && (part as ToolApprovalRequestOutput<TOOLS>).isAutomatic !== true && !answered.has((part as ToolApprovalRequestOutput<TOOLS>).approvalId),
  );
}

/** The SDK's `tool-approval-response` part for a person's decision (a denial carries their reason). */
export function toolApprovalResponse(approvalId: string, decision: ApprovalDecision): ToolApprovalResponse {
  if (typeof approvalId !== 'string' || approvalId === '') {
    throw new AiSdkError('INVALID_OPTIONS', 'toolApprovalResponse: approvalId must be the approvalId of the tool-approval-request being answered.');
  }
  if (decision.approved) return { type: 'tool-approval-response', approvalId, approved: true };
  return decision.reason === undefined
    ? { type: 'tool-approval-response', approvalId, approved: false }
    : { type: 'tool-approval-response', approvalId, approved: false, reason: decision.reason };
}

export interface AnswerApprovalRequestsOptions extends ApprovalCardOptions {
  /** The requests to ask about, e.g. `pendingApprovalRequests(result.content)`. */
  requests: readonly ToolApprovalRequestOutput<ToolSet>[];
  /** The run's tools, for the descriptions shown on the cards. */
  tools?: ToolSet;
}

/**
 * Ask the person about each request in turn (one approval card each; the request's `reason` is
 * the card's reason unless `reason` says otherwise) and return the tool message to append to the
 * run's messages before running again. Nobody deciding is answered as in `askseamToolApproval`:
 * not approved, with a reason saying nobody decided. Resolves `undefined` when there is nothing to ask.
 */
export async function answerApprovalRequests(options: AnswerApprovalRequestsOptions): Promise<ToolModelMessage | undefined> {
  if (!Array.isArray(options?.requests)) {
    throw new AiSdkError('INVALID_OPTIONS', 'answerApprovalRequests: requests must be an array, e.g. pendingApprovalRequests(result.content).');
  }
  const content: ToolApprovalResponse[] = [];
  for (const request of options.requests) {
    const reason = options.reason ?? (() => request.reason);
    const { requests: _requests, tools: _tools, ...asking } = options;
    const ask = approvalAsker('answerApprovalRequests', { ...asking, reason }, { signalRequired: false });
    const status = await ask(request.toolCall, toolDescription(options.tools, request.toolCall.toolName));
    const part: ToolApprovalResponse = { type: 'tool-approval-response', approvalId: request.approvalId, approved: status === 'approved' };
    if (typeof status === 'object' && status.reason !== undefined) part.reason = status.reason;
    content.push(part);
  }
  return content.length === 0 ? undefined : { role: 'tool', content };
}
