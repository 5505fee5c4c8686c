import { UserQuestionError } from '@askseam/user-questions';

/**
 * Why a tool did not run when nobody decided, worded for the model that reads it in the SDK's
 * `execution-denied` output. A dismissal, a timeout or a withdrawn run is not the person's "no":
 * the text says so, so the model neither retries blindly nor reports a refusal that never came.
 */
export function noDecisionReason(toolName: string, error: unknown): string {
  const code = UserQuestionError.isInstance(error) ? error.code : undefined;
  switch (code) {
    case 'ASK_CANCELLED':
      return `Not run: the person dismissed the approval request for ${toolName} without deciding. Ask them what they want before calling it again.`;
    case 'ASK_TIMEOUT':
      return `Not run: nobody decided on the approval request for ${toolName} in time. Do not call it again unasked; tell the person it is waiting for their approval.`;
    case 'ASK_ABORTED':
      return abortedReason(toolName);
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `Not run: the approval for ${toolName} could not be asked (${code ?? 'ERROR'}: ${message}).`;
    }
  }
}

/** Why a tool did not run whose run was stopped before (or while) the person decided. */
export function abortedReason(toolName: string): string {
  return `Not run: the approval request for ${toolName} was withdrawn because the run was stopped.`;
}
