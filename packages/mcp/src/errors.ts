import { AskseamError } from '@askseam/user-questions';

/** Every code an `McpBridgeError` can carry. */
export const mcpBridgeErrorCodes = [
  /** The connected MCP client did not declare form elicitation, so nothing was sent to it. */
  'NO_ELICITATION',
  /** A question asks for a secret, which the MCP spec forbids in a form; nothing was sent to the client. */
  'SENSITIVE_QUESTION',
  /** The client accepted with content the requested schema refuses (the SDK's -32602), or that does not rebuild into a fitting answer. */
  'ELICITATION_CONTENT_INVALID',
  /** The elicitation request itself failed (transport closed, the client answered with an error). */
  'ELICITATION_FAILED',
  /** `handleElicitation` was called on a client that is already connected. */
  'CLIENT_ALREADY_CONNECTED',
  /** An option of this package was given a value it cannot use. */
  'INVALID_OPTIONS',
] as const;

export type McpBridgeErrorCode = (typeof mcpBridgeErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.McpBridgeError') as never;

/** A fault between askseam and an MCP peer: the message says what went wrong and what to do. */
export class McpBridgeError extends AskseamError<McpBridgeErrorCode> {
  readonly [marker] = true;
  override readonly name = 'McpBridgeError';

  static override isInstance(value: unknown): value is McpBridgeError {
    return AskseamError.hasMarker(value, marker);
  }
}
