/**
 * Every WebSocket close code an askseam peer sends, in one table for the host and the clients.
 * The 1xxx codes are the standard ones (RFC 6455); the one 4xxx code is the client's own.
 */
export const closeCodes = {
  /** The client closed normally (`client.close()`). */
  normal: 1000,
  /** The host is shutting down (`close()` on the host). */
  goingAway: 1001,
  /** Too many unreadable frames, or a consumer that does not read what it is sent (host). */
  policyViolation: 1008,
  /** A frame bigger than the host's `maxPayload` (sent by `ws` itself). */
  messageTooBig: 1009,
  /** The host failed while handling the connection. */
  internalError: 1011,
  /** The client heard nothing back after a ping and is dropping the connection to reconnect. */
  heartbeatTimeout: 4000,
} as const;

export type CloseCode = (typeof closeCodes)[keyof typeof closeCodes];
