/**
 * Where everything lives in Redis, under one prefix (default `askseam:`). The variable part (an
 * rpcId or a session id) always comes last, so no two kinds of key can collide whatever the ids hold.
 *
 * | key | type | holds |
 * |---|---|---|
 * | `<p>q:<rpcId>` | hash | `record` (the saved record as JSON), `session`, `seq`, then `outcome`, `answer` (JSON), `settledAt`, `resumedAt` |
 * | `<p>seq` | string | the save counter: each saved record's `seq`, so lists keep save order |
 * | `<p>pending` | sorted set | every pending rpcId, scored by `seq` |
 * | `<p>pending:<sessionId>` | sorted set | the session's pending rpcIds, scored by `seq` |
 * | `<p>awaiting` | sorted set | settled rpcIds with a person's outcome not yet marked resumed, scored by `seq` |
 * | `<p>settled` | sorted set | every settled rpcId (from this version on), scored by `seq`: the history `listSettled` pages through |
 * | `<p>event-id` | string | the event counter: every event's `id`, across all sessions |
 * | `<p>events:<sessionId>` | stream | the session's events; entry id `<event id>-0` |
 */
export interface RedisStoreKeys {
  record(rpcId: string): string;
  readonly saveCounter: string;
  readonly pending: string;
  /** Without the session id: the Lua claim script appends the record's own session to it. */
  readonly sessionPendingPrefix: string;
  sessionPending(sessionId: string): string;
  readonly awaiting: string;
  readonly settled: string;
  readonly eventCounter: string;
  events(sessionId: string): string;
}

export function redisStoreKeys(prefix: string): RedisStoreKeys {
  return {
    record: (rpcId) => `${prefix}q:${rpcId}`,
    saveCounter: `${prefix}seq`,
    pending: `${prefix}pending`,
    sessionPendingPrefix: `${prefix}pending:`,
    sessionPending: (sessionId) => `${prefix}pending:${sessionId}`,
    awaiting: `${prefix}awaiting`,
    settled: `${prefix}settled`,
    eventCounter: `${prefix}event-id`,
    events: (sessionId) => `${prefix}events:${sessionId}`,
  };
}
