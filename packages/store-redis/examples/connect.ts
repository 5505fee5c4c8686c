// The two ways to give RedisQuestionStore its connection (shown in the package README).
import { RedisQuestionStore, recommendedRedisOptions } from '@askseam/store-redis';
import { Redis } from 'ioredis';

// #region store-on-url
/** The store opens and owns its connection: `close()` closes it. */
export function storeOnUrl(url: string): RedisQuestionStore {
  return new RedisQuestionStore({ url, keyPrefix: 'myapp:askseam:' });
}
// #endregion store-on-url

/** An ioredis client the app already has (TLS, an ACL user, Sentinel…), set to fail fast like the store's own. */
// #region app-redis
export function appRedis(url: string): Redis {
  return new Redis(url, { ...recommendedRedisOptions, connectionName: 'myapp' });
}

/** The app's client stays the app's: `close()` leaves it open. Finished questions expire after a week. */
export function storeOnAppClient(client: Redis): RedisQuestionStore {
  return new RedisQuestionStore({ client, keyPrefix: 'myapp:askseam:', retainFinishedMs: 7 * 24 * 60 * 60 * 1000 });
}
// #endregion app-redis
