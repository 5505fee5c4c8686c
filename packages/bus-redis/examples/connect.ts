// The two ways to give RedisQuestionBus its connection (shown in the package README).
import { RedisQuestionBus } from '@askseam/bus-redis';
import { Redis } from 'ioredis';

// #region bus-on-url
/** The bus opens and owns its connections: `close()` closes both. */
export function busOnUrl(url: string): RedisQuestionBus {
  return new RedisQuestionBus({ url, keyPrefix: 'myapp:askseam:', logger: console });
}
// #endregion bus-on-url

/** An ioredis client the app already has, set to fail fast while Redis is unreachable. */
// #region app-redis
export function appRedis(url: string): Redis {
  // No offline queue, no retry of a cut-off command: calls fail at once during an outage,
  // and ioredis still reconnects by itself.
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
}

/** Commands go on the app's client (left open by `close()`); pub/sub gets a duplicate the bus closes. */
export function busOnAppClient(client: Redis): RedisQuestionBus {
  return new RedisQuestionBus({ client, keyPrefix: 'myapp:askseam:' });
}
// #endregion app-redis
