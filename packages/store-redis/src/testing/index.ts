// @askseam/store-redis/testing: a throwaway redis-server (or Redis Cluster) for test suites (Redis store, bus, multi-node hosts).
export { startRedisServer } from './redis-server.js';
export type { StartRedisServerOptions, TestRedisServer } from './redis-server.js';
export { startRedisCluster } from './redis-cluster.js';
export type { StartRedisClusterOptions, TestRedisCluster } from './redis-cluster.js';
