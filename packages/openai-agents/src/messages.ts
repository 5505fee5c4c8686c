import type { ApprovalDecision } from '@askseam/user-questions';

// What the model reads in place of a tool's output when the tool did not run. The SDK sends the
// rejection message as the call's output, so it says what happened and, in the person's own
// words, why.

/** The output of a call the person denied. */
export function deniedMessage(toolName: string, decision: Extract<ApprovalDecision, { approved: false }>): string {
  if (decision.reason === undefined) return `The user denied running ${toolName}. It did not run.`;
  return `The user denied running ${toolName}. It did not run. Their reason: ${decision.reason}`;
}

/** The output of a call nobody decided on (the card was dismissed, or it timed out). */
export function undecidedMessage(toolName: string, why: 'cancelled' | 'timed_out'): string {
  const what = why === 'cancelled' ? 'dismissed the approval request' : 'did not answer the approval request in time';
  return `The user ${what} for ${toolName}, so it did not run. Do not assume it was approved.`;
}
