// @askseam/store-postgres/testing: a throwaway PostgreSQL server for test suites (store, bus, multi-node hosts, bench).
export { startPostgresServer } from './postgres-server.js';
export type { StartPostgresServerOptions, TestPostgresServer } from './postgres-server.js';
