import { randomUUID } from 'node:crypto';
import { sampleQuestionRecord } from '@askseam/store-testing';
import { startPostgresServer, type TestPostgresServer } from '@askseam/store-postgres/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appPool, nodeOnAppPool, storeOnUrl } from './connect.js';

let server: TestPostgresServer;

beforeAll(async () => {
  server = await startPostgresServer();
}, 60_000);
afterAll(async () => {
  await server?.destroy();
});

it('lets a question saved through a store on a url be claimed through a node on the app\'s pool, and leaves that pool open', async () => {
  const pool = appPool(server.url);
  const onUrl = await storeOnUrl(server.url);
  const { store, bus } = nodeOnAppPool(pool, `node-${randomUUID()}`);
  expect(store.announcesOn).toBe(bus.publishesOn);
  const record = sampleQuestionRecord({ askedOn: 'node-a' });
  await onUrl.save(record);
  expect(await store.listPending([record.sessionId])).toEqual([record]);
  expect(await store.claim(record.rpcId, 'cancelled')).toMatchObject({ rpcId: record.rpcId, outcome: 'cancelled', askedOn: 'node-a' });
  expect(await onUrl.claim(record.rpcId, 'cancelled')).toBeUndefined();
  // A host closes its bus; the store and bus leave the app's pool open.
  await bus.subscribe({ message: () => {}, resync: () => {} });
  expect(await bus.isNodeAlive(bus.nodeId)).toBe(true);
  await bus.close();
  await store.close();
  await onUrl.close();
  expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  await pool.end();
});
