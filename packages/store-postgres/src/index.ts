// Everything a user may import from @askseam/store-postgres, named one by one.
export { PostgresQuestionStore, MAX_NOTIFY_PAYLOAD_BYTES } from './postgres-store.js';
export type { PostgresQuestionStoreOptions } from './postgres-store.js';
export type { PostgresConnectionOptions } from './connection.js';
export { migratePostgres, postgresStoreMigrations, STORE_APPLICATION } from './migrations.js';
export type { PostgresMigration } from './migrations.js';
export { PostgresQuestionBus } from './postgres-bus.js';
export type { PostgresQuestionBusLogger, PostgresQuestionBusOptions } from './postgres-bus.js';
