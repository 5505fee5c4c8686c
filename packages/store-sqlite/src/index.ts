// Everything a user may import from @askseam/store-sqlite, named one by one.
export { SqliteQuestionStore } from './sqlite-store.js';
export type { SqliteQuestionStoreOptions } from './sqlite-store.js';
export { migrate, questionStoreMigrations, APPLICATION_ID } from './migrations.js';
export type { Migration } from './migrations.js';
