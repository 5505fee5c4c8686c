import { questionStoreErrorCode, sampleQuestionRecord } from '@askseam/store-testing';
import { describe, expect, it } from 'vitest';
import { usePostgresFixture } from '../test/fixture.js';
import { migratePostgres, postgresStoreMigrations } from './migrations.js';
import { PostgresQuestionStore } from './postgres-store.js';

const fixture = usePostgresFixture();

describe('the schema the store owns', () => {
  it('creates its schema once when many stores open it at the same moment', async () => {
    const schema = fixture.schema();
    const stores = Array.from({ length: 8 }, () => fixture.own(new PostgresQuestionStore({ connectionString: fixture.server.url, schema })));
    await Promise.all(stores.map((store) => store.ready()));
    const record = sampleQuestionRecord();
    await stores[3]!.save(record);
    expect(await stores[7]!.get(record.rpcId)).toEqual(record);
    const { rows } = await fixture.raw().query(`SELECT application, schema_version FROM ${schema}.store_meta`);
    expect(rows).toEqual([{ application: 'askseam question store', schema_version: postgresStoreMigrations.length }]);
  });

  it('refuses a schema holding another application\'s tables (NOT_A_STORE) and leaves it untouched', async () => {
    const schema = fixture.schema();
    const raw = fixture.raw();
    await raw.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.orders (id int); INSERT INTO ${schema}.orders VALUES (1)`);
    const store = fixture.own(new PostgresQuestionStore({ connectionString: fixture.server.url, schema }));
    expect(await questionStoreErrorCode(store.ready())).toBe('NOT_A_STORE');
    expect(await questionStoreErrorCode(store.save(sampleQuestionRecord()))).toBe('NOT_A_STORE');
    expect(await questionStoreErrorCode(PostgresQuestionStore.open({ connectionString: fixture.server.url, schema }))).toBe('NOT_A_STORE');
    const { rows } = await raw.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [schema]);
    expect(rows).toEqual([{ table_name: 'orders' }]);
  });

  it('refuses a store written by a newer release (NEWER_SCHEMA) and changes nothing in it', async () => {
    const first = await PostgresQuestionStore.open({ connectionString: fixture.server.url, schema: fixture.schema() });
    const record = sampleQuestionRecord();
    await first.save(record);
    await first.close();
    const raw = fixture.raw();
    await raw.query(`UPDATE ${first.schema}.store_meta SET schema_version = 99`);
    expect(await questionStoreErrorCode(PostgresQuestionStore.open({ connectionString: fixture.server.url, schema: first.schema }))).toBe('NEWER_SCHEMA');
    const { rows } = await raw.query(`SELECT rpc_id, outcome FROM ${first.schema}.questions`);
    expect(rows).toEqual([{ rpc_id: record.rpcId, outcome: null }]);
    expect((await raw.query(`SELECT schema_version FROM ${first.schema}.store_meta`)).rows).toEqual([{ schema_version: 99 }]);
  });

  it('makes an empty schema someone created for it into a store', async () => {
    const schema = fixture.schema();
    await fixture.raw().query(`CREATE SCHEMA ${schema}`);
    const store = fixture.own(await PostgresQuestionStore.open({ connectionString: fixture.server.url, schema }));
    const record = sampleQuestionRecord();
    await store.save(record);
    expect(await store.get(record.rpcId)).toEqual(record);
  });

  it('refuses a bad schema name or both a pool and a connection string (INVALID_INPUT)', () => {
    expect(() => new PostgresQuestionStore({ connectionString: fixture.server.url, schema: 'Robert"; DROP' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => new PostgresQuestionStore({ connectionString: fixture.server.url, pool: fixture.raw() })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('keeps the event log append-only, even for the store\'s own login', async () => {
    const store = fixture.own(await PostgresQuestionStore.open({ connectionString: fixture.server.url, schema: fixture.schema() }));
    await store.appendEvent({ type: 'timed_out', sessionId: 's', rpcId: 'r', data: {} });
    await expect(fixture.raw().query(`DELETE FROM ${store.schema}.events`)).rejects.toThrow(/append-only/);
    await expect(fixture.raw().query(`UPDATE ${store.schema}.events SET type = 'aborted'`)).rejects.toThrow(/append-only/);
    expect(await store.readEvents('s')).toHaveLength(1);
  });

  it('migrates a version 1 store to version 2 (trace_context, votes) and keeps its records', async () => {
    const schema = fixture.schema();
    const client = await fixture.raw().connect();
    try {
      expect(await migratePostgres(client, schema, postgresStoreMigrations.slice(0, 1))).toEqual({ from: 0, to: 1 });
      await client.query(
        `INSERT INTO ${schema}.questions (rpc_id, session_id, asked_by, asked_at, mode, questions) VALUES ('old-1', 's', 'agent', '2026-01-01T00:00:00.000Z', 'blocking', $1::json)`,
        [JSON.stringify(sampleQuestionRecord().questions)],
      );
    } finally {
      client.release();
    }
    const store = fixture.own(await PostgresQuestionStore.open({ connectionString: fixture.server.url, schema }));
    const old = await store.get('old-1');
    expect(old).toMatchObject({ rpcId: 'old-1', sessionId: 's' });
    expect(old !== undefined && ('traceContext' in old || 'votes' in old)).toBe(false);
    const traced = sampleQuestionRecord({ traceContext: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
    await store.save(traced);
    expect(await store.get(traced.rpcId)).toEqual(traced);
    expect((await fixture.raw().query(`SELECT schema_version FROM ${schema}.store_meta`)).rows).toEqual([{ schema_version: 2 }]);
  });
});
