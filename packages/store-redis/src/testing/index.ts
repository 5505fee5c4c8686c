// @askseam/store-redis/testing: a throwaway redis-server for test suites (Redis store, bus, multi-node hosts).
export { startRedisServer } from './redis-server.js';
export type { StartRedisServerOptions, TestRedisServer } from './redis-server.js';
