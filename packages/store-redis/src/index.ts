// Everything a user may import from @askseam/store-redis, named one by one.
export { RedisQuestionStore } from './redis-store.js';
export type { RedisQuestionStoreOptions } from './redis-store.js';
export { recommendedRedisOptions } from './connection.js';
export { redisStoreKeys } from './keys.js';
export type { RedisStoreKeys } from './keys.js';
