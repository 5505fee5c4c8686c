import { AskseamError } from '@askseam/user-questions';

/** Every way the deferred-tool helpers can refuse. */
export const claudeAgentSdkErrorCodes = ['NOT_DEFERRED', 'INVALID_DEFERRED_TOOL', 'NOT_SETTLED', 'MISSING_CAN_USE_TOOL', 'DEFERRED_TOOL_UNAVAILABLE', 'RESUME_FAILED'] as const;

/**
 * `NOT_DEFERRED`: the result handed to `askDeferredToolUse` did not end with a deferred tool call
 * (`terminal_reason` is not `tool_deferred`). `INVALID_DEFERRED_TOOL`: the deferred AskUserQuestion
 * input cannot be asked (the message says what is wrong). `NOT_SETTLED`: `resumeDeferredToolUse`
 * got a question that nobody has settled yet. `MISSING_CAN_USE_TOOL`: a deferred AskUserQuestion
 * was to be resumed without `canUseTool` (the CLI offers the tool only to a run that has one).
 * `DEFERRED_TOOL_UNAVAILABLE`: the resumed CLI could not run the deferred call, because its tool or
 * MCP server is missing; nothing ran, and the person's decision is still unused. `RESUME_FAILED`:
 * the Claude Code process resuming the session failed before the turn ended (its error is the `cause`).
 */
export type ClaudeAgentSdkErrorCode = (typeof claudeAgentSdkErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.ClaudeAgentSdkError') as never;

/** Thrown by the deferred-tool helpers. `canUseTool` never throws at the SDK: it denies with a message. */
export class ClaudeAgentSdkError extends AskseamError<ClaudeAgentSdkErrorCode> {
  readonly [marker] = true;
  override readonly name = 'ClaudeAgentSdkError';

  /** True for a `ClaudeAgentSdkError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is ClaudeAgentSdkError {
    return AskseamError.hasMarker(value, marker);
  }
}
