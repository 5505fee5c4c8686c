import { QuestionStoreError } from '@askseam/store';
import { questionStoreErrorCode, sampleQuestionRecord } from '@askseam/store-testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { usePostgresFixture } from '../test/fixture.js';
import { PostgresQuestionStore } from './postgres-store.js';

const fixture = usePostgresFixture();
const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

describe('when PostgreSQL goes away', () => {
  it('rejects STORE_UNAVAILABLE (sent: false) at once while the server is down, and works again once it is back', async () => {
    const store = fixture.open();
    const record = sampleQuestionRecord();
    await store.save(record);
    await fixture.server.stop();
    try {
      const failed = await store.claim(record.rpcId, 'answered', yes).catch((error: unknown) => error);
      expect(QuestionStoreError.isInstance(failed) && failed.code).toBe('STORE_UNAVAILABLE');
      expect((failed as QuestionStoreError).sent).toBe(false);
      expect(await questionStoreErrorCode(store.get(record.rpcId))).toBe('STORE_UNAVAILABLE');
    } finally {
      await fixture.server.start();
    }
    expect(await store.claim(record.rpcId, 'answered', yes)).toMatchObject({ outcome: 'answered' });
    expect(await store.claim(record.rpcId, 'answered', yes)).toBeUndefined();
  });

  it('keeps every committed record through a crash of the server (immediate shutdown, WAL recovery)', async () => {
    const store = fixture.open();
    const records = Array.from({ length: 20 }, () => sampleQuestionRecord());
    for (const record of records) await store.save(record);
    await store.claim(records[0]!.rpcId, 'answered', yes);
    await fixture.server.kill();
    await fixture.server.start();
    const after = fixture.open({ schema: store.schema });
    expect((await after.listPending('all')).map((record) => record.rpcId)).toEqual(records.slice(1).map((record) => record.rpcId));
    expect(await after.get(records[0]!.rpcId)).toMatchObject({ outcome: 'answered', answer: yes });
  });

  it('reports a connection killed under a claim as STORE_UNAVAILABLE (sent: true), and the claim ran whole or not at all', async () => {
    const pool = new pg.Pool({ connectionString: fixture.server.url, max: 1 });
    pool.on('error', () => {});
    const store = fixture.own(new PostgresQuestionStore({ pool, schema: fixture.schema() }));
    const record = sampleQuestionRecord();
    await store.save(record);
    const raw = fixture.raw();
    // Hold the row so the claim waits on it, then cut the claim's connection while it waits.
    const holder = await raw.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM ${store.schema}.questions WHERE rpc_id = $1 FOR UPDATE`, [record.rpcId]);
    const claiming = store.claim(record.rpcId, 'answered', yes).catch((error: unknown) => error);
    for (let i = 0; i < 200; i += 1) {
      const { rows } = await raw.query("SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH settled%'");
      if (rows.length === 1) {
        await raw.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const failed = await claiming;
    await holder.query('ROLLBACK');
    holder.release();
    expect(QuestionStoreError.isInstance(failed) && failed.code).toBe('STORE_UNAVAILABLE');
    expect((failed as QuestionStoreError).sent).toBe(true);
    // The terminated transaction rolled back: the record is still pending, and the next claim (a fresh connection) wins it.
    expect((await store.get(record.rpcId))?.outcome).toBeUndefined();
    expect(await store.claim(record.rpcId, 'answered', yes)).toMatchObject({ outcome: 'answered' });
    await pool.end();
  });
});

describe('retention', () => {
  it('deletes finished records once past retainFinishedMs, never a pending one or one awaiting its resume', async () => {
    const store = fixture.open({ retainFinishedMs: 1 });
    const [resumed, aborted, awaiting, pending] = [1, 2, 3, 4].map(() => sampleQuestionRecord());
    for (const record of [resumed!, aborted!, awaiting!, pending!]) await store.save(record);
    await store.claim(resumed!.rpcId, 'answered', yes);
    await store.markResumed(resumed!.rpcId);
    await store.claim(aborted!.rpcId, 'aborted');
    await store.claim(awaiting!.rpcId, 'cancelled');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A later claim takes the old finished ones with it.
    const trigger = sampleQuestionRecord();
    await store.save(trigger);
    await store.claim(trigger.rpcId, 'timed_out');
    expect(await store.get(resumed!.rpcId)).toBeUndefined();
    expect(await store.get(aborted!.rpcId)).toBeUndefined();
    expect((await store.get(awaiting!.rpcId))?.outcome).toBe('cancelled');
    expect((await store.get(pending!.rpcId))?.outcome).toBeUndefined();
    expect((await store.listAwaitingResume()).map((record) => record.rpcId)).toEqual([awaiting!.rpcId]);
  });
});
