// Everything a user may import from @askseam/store-redis, named one by one.
export { RedisQuestionStore } from './redis-store.js';
export type { RedisQuestionStoreOptions } from './redis-store.js';
export { describeTarget, publisherName, recommendedClusterOptions, recommendedRedisOptions } from './connection.js';
export type { StoreClient } from './connection.js';
export type { RedisBusAnnouncement } from './announce.js';
export { bucketCount, bucketTag, redisStoreKeys, sessionBucket, sessionChannel } from './keys.js';
export type { RedisStoreKeys } from './keys.js';
