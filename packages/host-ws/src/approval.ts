import type { JsonValue, QuestionRecord, QuestionUrgency } from '@askseam/store';
import { approvalDecisionOf, approvalQuestions, type AgentRef, type ApprovalDecision, type ApprovalQuestionRequest, type ApprovalTool } from '@askseam/user-questions';
import type { DetachedAskRequest } from './detached.js';

// The detached twin of the seam's `askApproval`: the approval is saved with your state, the agent
// loop ends, and the person's decision reaches `onResume` (in this process or after a restart),
// where `approvalFromRecord` reads it back. Same question, same reading of the answer, as the
// blocking helper (both come from @askseam/user-questions).

export interface DetachedApprovalRequest extends ApprovalQuestionRequest {
  /** The asking agent; its id is the session. Give this or `sessionId`. */
  agent?: AgentRef;
  /** The session whose clients see the approval, when no live agent object is at hand. */
  sessionId?: string;
  /** Your JSON (say, the paused run and the tool call's id), handed back unchanged by `approvalFromRecord`. */
  state?: JsonValue;
  urgency?: QuestionUrgency;
}

/** The part of the host an approval is asked through (a `WebSocketHost` has it). */
export interface DetachedAsker {
  askDetached(request: DetachedAskRequest): Promise<{ rpcId: string }>;
}

/**
 * Ask for an approval without waiting: returns `{ rpcId }` once the question is saved. The
 * decision goes to the host's `onResume`; read it there with `approvalFromRecord`. Rejects like
 * `askDetached`: `BAD_INTENT` for a blank tool name or an input that is not JSON or over 64 KiB,
 * `INVALID_REQUEST` for state that is not JSON, `STORE_FAILED` when it could not be saved.
 */
export function askApprovalDetached(host: DetachedAsker, request: DetachedApprovalRequest): Promise<{ rpcId: string }> {
  let questions;
  try {
    questions = approvalQuestions(request);
  } catch (error) {
    return Promise.reject(error);
  }
  const { agent, sessionId, state, urgency } = request;
  return host.askDetached({ questions, agent, sessionId, state, urgency });
}

/** An approval handed to `onResume`, read back. */
export type ResumedApproval = {
  rpcId: string;
  /** The tool call the person was asked about, as the host kept it. */
  tool: ApprovalTool;
  /** The `state` given to `askApprovalDetached`. */
  state?: JsonValue;
} & (
  | { outcome: 'answered'; decision: ApprovalDecision }
  /**
   * Not a decision: the person dismissed the card (`cancelled`), or, for a record that did not
   * reach `onResume` from a person, the asker withdrew it or it is still waiting. The tool must not run.
   */
  | { outcome: 'cancelled' | 'aborted' | 'timed_out' | 'pending' }
);

/**
 * The approval in `record`, or `undefined` when the record is not an approval (so one `onResume`
 * can handle approvals and other detached questions). A dismissal is `outcome: 'cancelled'`,
 * never a denial: decide yourself what it means for the paused run.
 */
export function approvalFromRecord(record: QuestionRecord): ResumedApproval | undefined {
  const question = record.questions.find((each) => each.intent?.kind === 'tool-approval');
  if (question?.intent?.kind !== 'tool-approval') return undefined;
  const common = { rpcId: record.rpcId, tool: question.intent.tool, ...(record.state === undefined ? {} : { state: record.state }) };
  if (record.outcome === 'answered' && record.answer !== undefined) {
    return { ...common, outcome: 'answered', decision: approvalDecisionOf(record.questions, record.answer) };
  }
  return { ...common, outcome: record.outcome === undefined || record.outcome === 'answered' ? 'pending' : record.outcome };
}
