/**
 * Where everything lives in Redis, under one prefix (default `askseam:`). Every session belongs to
 * one of 1024 buckets (`sessionBucket`: FNV-1a of its id), and every key of a session and of its
 * bucket carries the bucket's hash tag `{b<n>}`, so everything one Lua script touches lies in one
 * Redis Cluster slot. The variable part (an rpcId or a session id) always comes last, so no two
 * kinds of key can collide whatever the ids hold. `<t>` below is `<p>{b<n>}`.
 *
 * | key | type | holds |
 * |---|---|---|
 * | `<p>layout` | string | the layout version (`2`); a store refuses a prefix holding keys of the old, untagged layout |
 * | `<p>buckets` | set | every bucket a question was ever saved in: the lists across sessions read only these |
 * | `<p>rpc:<rpcId>` | string | the bucket of the rpcId's session: how `get`, `claim`, `vote` and `markResumed` find the record |
 * | `<t>q:<rpcId>` | hash | `record` (the saved record as JSON), `session`, `seq`, `node` (askedOn), then `outcome`, `answer` (JSON), `settledAt`, `resumedAt`, `votes`, `answeredBy` |
 * | `<t>clock` | string | the bucket's last save number or event id (all ≡ the bucket modulo 1024, so unique across buckets): each new one is above it and at least the writer's clock (ms × 1024 + bucket) |
 * | `<t>pending` | sorted set | the bucket's pending rpcIds, scored by `seq` |
 * | `<t>pending:<sessionId>` | sorted set | the session's pending rpcIds, scored by `seq` |
 * | `<t>awaiting` | sorted set | the bucket's settled rpcIds with a person's outcome not yet marked resumed, scored by `seq` |
 * | `<t>settled` | sorted set | the bucket's settled rpcIds, scored by `seq`: the history `listSettled` pages through |
 * | `<t>events:<sessionId>` | stream | the session's events; entry id `<event id>-0` |
 */
export interface RedisStoreKeys {
  /** How many buckets the sessions are spread over. */
  readonly bucketCount: number;
  readonly layout: string;
  readonly buckets: string;
  pointer(rpcId: string): string;
  record(bucket: number, rpcId: string): string;
  /** The record key around its bucket number, before the rpcId: for a script that finds the bucket itself. */
  readonly recordAround: readonly [before: string, after: string];
  clock(bucket: number): string;
  pending(bucket: number): string;
  /** Without the session id: the Lua claim script appends the record's own session to it. */
  sessionPendingPrefix(bucket: number): string;
  sessionPending(sessionId: string): string;
  awaiting(bucket: number): string;
  settled(bucket: number): string;
  /** Without the session id: the Lua vote script appends the record's own session to it. */
  eventsPrefix(bucket: number): string;
  events(sessionId: string): string;
  /** The keys of the layout before buckets (one index for the whole store): a store refuses a prefix that holds one. */
  readonly oldLayout: readonly string[];
}

/** Sessions are spread over this many buckets (hash slots on a Redis Cluster). Fixed: changing it would move every session. */
export const bucketCount = 1024;

/** The bucket of a session: FNV-1a (32 bit) of its UTF-8 bytes, modulo `bucketCount`. The bus uses it too, for session channels in the same slot. */
export function sessionBucket(sessionId: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(sessionId)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % bucketCount;
}

/** `<prefix>{b<n>}`: the start of every key (and session channel) of a bucket. */
export function bucketTag(prefix: string, bucket: number): string {
  return `${prefix}{b${bucket}}`;
}

/** The channel a session's bus news goes to: in the same hash slot as the session's keys (SPUBLISH from the store's scripts). */
export function sessionChannel(prefix: string, sessionId: string): string {
  return `${bucketTag(prefix, sessionBucket(sessionId))}news:${sessionId}`;
}

export function redisStoreKeys(prefix: string): RedisStoreKeys {
  const tag = (bucket: number) => bucketTag(prefix, bucket);
  return {
    bucketCount,
    layout: `${prefix}layout`,
    buckets: `${prefix}buckets`,
    pointer: (rpcId) => `${prefix}rpc:${rpcId}`,
    record: (bucket, rpcId) => `${tag(bucket)}q:${rpcId}`,
    recordAround: [`${prefix}{b`, '}q:'],
    clock: (bucket) => `${tag(bucket)}clock`,
    pending: (bucket) => `${tag(bucket)}pending`,
    sessionPendingPrefix: (bucket) => `${tag(bucket)}pending:`,
    sessionPending: (sessionId) => `${tag(sessionBucket(sessionId))}pending:${sessionId}`,
    awaiting: (bucket) => `${tag(bucket)}awaiting`,
    settled: (bucket) => `${tag(bucket)}settled`,
    eventsPrefix: (bucket) => `${tag(bucket)}events:`,
    events: (sessionId) => `${tag(sessionBucket(sessionId))}events:${sessionId}`,
    oldLayout: ['seq', 'pending', 'awaiting', 'settled', 'event-id'].map((name) => `${prefix}${name}`),
  };
}
