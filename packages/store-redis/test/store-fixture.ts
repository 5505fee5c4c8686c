// One real redis-server per test file, stores on fresh prefixes, and plain clients to look at what
// they wrote; everything a test opened is closed after it.
import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { RedisQuestionStore, type RedisQuestionStoreOptions } from '../src/redis-store.js';
import { startRedisServer, type TestRedisServer } from '../src/testing/redis-server.js';

export interface RedisStoreFixture {
  /** The file's server; read it inside a test (it starts in `beforeAll`). */
  readonly server: TestRedisServer;
  /** A store on its own connection; a fresh prefix per call unless one is given. */
  open(options?: RedisQuestionStoreOptions): RedisQuestionStore;
  /** A plain client (of the file's server unless `url` names another) for looking at (or damaging) what a store wrote, or for listening. */
  raw(options?: RedisOptions, url?: string): Redis;
  /** Close `store` after the test, like the ones `open` made. */
  own(store: RedisQuestionStore): RedisQuestionStore;
}

/** Register the hooks of one test file and return its helpers. */
export function useRedisStoreFixture(): RedisStoreFixture {
  let server: TestRedisServer | undefined;
  const stores: RedisQuestionStore[] = [];
  const clients: Redis[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const client of clients.splice(0)) client.disconnect();
  });

  const started = (): TestRedisServer => {
    if (!server) throw new Error('The Redis server starts in beforeAll; use the fixture inside a test.');
    return server;
  };
  return {
    get server() {
      return started();
    },
    open(options = {}) {
      const store = new RedisQuestionStore({ url: options.client ? undefined : started().url, keyPrefix: `test-${randomUUID()}:`, ...options });
      stores.push(store);
      return store;
    },
    raw(options = {}, url = started().url) {
      const client = new Redis(url, options);
      client.on('error', () => {});
      clients.push(client);
      return client;
    },
    own(store) {
      stores.push(store);
      return store;
    },
  };
}
