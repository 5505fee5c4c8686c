import { QuestionStoreError, redisServerName } from '@askseam/store';
import { Cluster, Redis, type ClusterNode, type ClusterOptions, type RedisOptions } from 'ioredis';

/** What the store (and the bus) talk to: one Redis (or a primary behind Sentinel), or a Redis Cluster. */
export type StoreClient = Redis | Cluster;

/**
 * The ioredis settings the store uses for the client it creates from a URL, exported for apps that
 * build their own client (TLS, ACL user, Sentinel) and want the same behaviour: while Redis is
 * unreachable a command fails at once instead of waiting in a queue, a command caught by a dropped
 * connection is failed rather than silently sent again after the reconnect (a resent claim could
 * report "lost" for a claim it had won), and the client keeps reconnecting by itself.
 */
export const recommendedRedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  connectTimeout: 5_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
} as const satisfies RedisOptions;

/**
 * The same for an ioredis `Cluster`. A Cluster opens its connection to each master when it first
 * needs it, so a command may meet one still connecting: it waits in that connection's queue, and
 * `maxRetriesPerRequest: 0` fails it at the first failed reconnect (a master down fails within a
 * second, not after an outage). A command whose connection closed is not sent again after a slot
 * refresh (`retryDelayOnFailover: 0`): a claim that may have run must be read back, not resent.
 * MOVED and ASK are followed, and TRYAGAIN and CLUSTERDOWN (the command did not run) retried, as
 * ioredis does by default.
 */
export const recommendedClusterOptions = {
  retryDelayOnFailover: 0,
  redisOptions: { maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false, connectTimeout: 5_000 },
  clusterRetryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
} as const satisfies ClusterOptions;

/** A client the store owns: made from the URL (or a Cluster from its nodes), with the recommended settings, closed by `close()`. */
export function createOwnedClient(where: string | readonly (string | ClusterNode)[]): StoreClient {
  const client = typeof where === 'string' ? new Redis(where, { ...recommendedRedisOptions }) : new Cluster([...where], { ...recommendedClusterOptions });
  // Connection errors surface as STORE_UNAVAILABLE on the calls they affect; without a listener
  // ioredis would also print every failed reconnect attempt.
  client.on('error', () => {});
  return client;
}

/** The nodes a Cluster client was made with, as `host:port`. */
function clusterNodes(cluster: Cluster): string[] {
  // ioredis keeps them as given (URL strings, ports or { host, port }); `startupNodes` is not in its types.
  const nodes = (cluster as unknown as { startupNodes?: (string | number | ClusterNode)[] }).startupNodes ?? [];
  return nodes.map((node) => {
    if (typeof node === 'number') return `127.0.0.1:${node}`;
    if (typeof node === 'string') {
      const url = /^\w+:\/\//.test(node) ? new URL(node) : new URL(`redis://${node}`);
      return `${url.hostname}:${url.port || 6379}`;
    }
    return `${node.host ?? '127.0.0.1'}:${node.port ?? 6379}`;
  });
}

/** `host:port` (or the socket path) the client talks to, for messages; for a Cluster its nodes. Never the password. */
export function describeTarget(client: StoreClient): string {
  if (client instanceof Cluster) return `cluster ${clusterNodes(client).join(',')}`;
  const { path, host, port } = client.options;
  return path ? `unix:${path}` : `${host ?? '127.0.0.1'}:${port ?? 6379}`;
}

/**
 * The server a client publishes on, for `announcesOn`/`publishesOn`: `redisServerName` for one
 * Redis, `redis-cluster://[user@]<its nodes, sorted>` for a Cluster (undefined with its own
 * ioredis keyPrefix, which rewrites keys but not what a script builds).
 */
export function publisherName(client: StoreClient): string | undefined {
  if (!(client instanceof Cluster)) return redisServerName(client.options);
  const options = client.options;
  if ((options.keyPrefix ?? options.redisOptions?.keyPrefix ?? '') !== '') return undefined;
  const name = options.redisOptions?.username ?? '';
  const user = name === '' || name === 'default' ? '' : `${encodeURIComponent(name)}@`;
  return `redis-cluster://${user}${[...new Set(clusterNodes(client))].sort().join(',')}`;
}

/** The ioredis keyPrefix the client adds to the keys a command declares (not to keys a script builds). */
export function clientKeyPrefix(client: StoreClient): string {
  return client instanceof Cluster ? (client.options.keyPrefix ?? client.options.redisOptions?.keyPrefix ?? '') : (client.options.keyPrefix ?? '');
}

/**
 * Resolves when the client can take a command now. A client in the middle of a connection attempt
 * (its first, one created with `lazyConnect`, or a reconnect already under way) is waited for, up
 * to its connect timeout; a client that lost Redis and waits to retry fails at once, so callers
 * hear about an outage without waiting for it to end.
 */
export async function whenReady(client: StoreClient, fail: (reason: string) => Error): Promise<void> {
  const status = client.status;
  if (status === 'ready') return;
  if (status === 'reconnecting' || status === 'close') throw fail('the connection is down and the client is reconnecting');
  if (status === 'end') throw fail('the client has ended its connection and will not reconnect');
  if (status === 'wait') client.connect().catch(() => {});
  else if (status !== 'connecting' && status !== 'connect') return; // e.g. monitoring: let the command itself decide
  // One wait per client, shared by every call that arrives during the attempt (no listeners per call).
  let wait = firstConnections.get(client);
  if (wait === undefined) {
    wait = waitForReady(client).finally(() => firstConnections.delete(client));
    firstConnections.set(client, wait);
  }
  try {
    await wait;
  } catch (error) {
    throw fail((error as Error).message);
  }
}

const firstConnections = new WeakMap<StoreClient, Promise<void>>();

/** Resolves on `ready`; rejects with the reason when the attempt fails or takes longer than the connect timeout. */
function waitForReady(client: StoreClient): Promise<void> {
  const connectTimeout = client instanceof Cluster ? client.options.redisOptions?.connectTimeout : client.options.connectTimeout;
  const waitMs = (connectTimeout ?? 10_000) + 1_000;
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error): void => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('close', onClose);
      client.off('end', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onReady = (): void => settle();
    const onClose = (): void => settle(new Error('the connection attempt failed'));
    const timer = setTimeout(() => settle(new Error(`no connection within ${waitMs} ms`)), waitMs);
    client.once('ready', onReady);
    client.once('close', onClose);
    client.once('end', onClose);
  });
}

/**
 * `STORE_UNAVAILABLE`. `sent`: the command may have reached Redis before the connection dropped,
 * so the caller cannot know whether it ran; every write is one script, so it ran whole or not at all.
 */
export function unavailable(target: string, reason: string, options: { cause?: unknown; sent?: boolean } = {}): QuestionStoreError {
  const outcome = options.sent
    ? 'the connection dropped before Redis answered, so the change was made whole or not at all. Once Redis is back (the client reconnects by itself), read it back before retrying.'
    : 'nothing was changed. Retry once Redis is back: the client reconnects by itself.';
  return new QuestionStoreError('STORE_UNAVAILABLE', `The Redis question store cannot reach Redis at ${target} (${reason}); ${outcome}`, {
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    // Callers act on it: a claim that surely never reached Redis is "nothing recorded, send again".
    sent: options.sent ?? false,
  });
}

// Replies from a Redis that is up but cannot serve us right now: the same as unreachable to a caller.
const unavailableReplies = /^(LOADING|READONLY|MASTERDOWN|BUSY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS|MISCONF)\b/;

/** Whether the command surely never left this process (the client refused to write it). */
export function wasNotSent(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A Cluster client gave up after redirections and retries whose every reply said "not run here".
  if (/^Too many Cluster redirections\. Last error: ReplyError: (MOVED|ASK|TRYAGAIN|CLUSTERDOWN)\b/.test(error.message)) return true;
  return /isn't writeable|Cluster isn't ready and enableOfflineQueue/.test(error.message);
}

/** Whether an error from ioredis means "Redis could not be reached or could not serve", not a fault in the data. */
export function isUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name !== 'ReplyError') return true; // connection closed, refused, timed out, retries exhausted, not writable
  return unavailableReplies.test(error.message);
}
