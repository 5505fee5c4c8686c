/** What a request handler of the MCP SDK gets as `extra`, narrowed to what progress needs. */
export interface ProgressSink {
  _meta?: { progressToken?: string | number | undefined } | undefined;
  sendNotification(notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; message?: string } }): Promise<void>;
}

/** How often a waiting tool call tells the client it is still waiting, when the client asked. */
export const defaultProgressIntervalMs = 15_000;

/**
 * Send `notifications/progress` every `intervalMs` while a person has not answered, but only when
 * the client asked for progress (a `progressToken` on the request). Clients that reset their
 * request timeout on progress (`resetTimeoutOnProgress` in the SDK) then keep the call alive
 * however long the person takes. Returns the stop function; a failed send is ignored (the
 * connection may be closing, and the question's own fate is decided elsewhere).
 */
export function keepAliveWithProgress(extra: ProgressSink, intervalMs: number, message: string): () => void {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => {};
  let progress = 0;
  const timer = setInterval(() => {
    // The spec asks for a value that grows with every notification; there is no total to reach.
    progress += 1;
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(() => {});
  }, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
