// listPending('all') behind a long settled history: it reads the partial index of pending rows, not
// the table, and still lists every pending question of every session in the order they were saved.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleQuestionRecord } from '@askseam/store-testing';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteQuestionStore, pendingAllSql } from './sqlite-store.js';

const dirs: string[] = [];
const stores: SqliteQuestionStore[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openTemp(): SqliteQuestionStore {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-sqlite-pending-'));
  dirs.push(dir);
  const store = new SqliteQuestionStore(join(dir, 'questions.db'));
  stores.push(store);
  return store;
}

describe('listPending("all") behind a settled history', () => {
  it('lists the pending questions of every session in save order, none of the settled ones', async () => {
    const store = openTemp();
    const saved = [];
    // Sessions interleaved so that the index's own order (session, then seq) differs from save order.
    for (let i = 0; i < 600; i++) {
      const record = sampleQuestionRecord({ rpcId: `q-${i}`, sessionId: `session-${(i * 7) % 5}` });
      saved.push(record);
    }
    await Promise.all(saved.map((record) => store.save(record)));
    const keep = new Set(['q-3', 'q-100', 'q-101', 'q-333', 'q-598']);
    await Promise.all(saved.filter((record) => !keep.has(record.rpcId)).map((record) => store.claim(record.rpcId, 'aborted')));

    const pending = await store.listPending('all');
    expect(pending.map((record) => record.rpcId)).toEqual(['q-3', 'q-100', 'q-101', 'q-333', 'q-598']);
    expect(pending.map((record) => record.sessionId)).toEqual(['session-1', 'session-0', 'session-2', 'session-1', 'session-1']);

    // A question asked after the history is listed last, and one settled leaves the list.
    const late = sampleQuestionRecord({ rpcId: 'q-late', sessionId: 'session-0' });
    await store.save(late);
    await store.claim('q-100', 'cancelled');
    expect((await store.listPending('all')).map((record) => record.rpcId)).toEqual(['q-3', 'q-101', 'q-333', 'q-598', 'q-late']);
  });

  it('reads the partial index of pending rows, not the whole table', () => {
    const store = openTemp();
    const raw = new Database(store.filename, { readonly: true });
    try {
      const plan = (raw.prepare(`EXPLAIN QUERY PLAN ${pendingAllSql}`).all() as { detail: string }[]).map((row) => row.detail);
      expect(plan.some((detail) => detail.includes('USING INDEX questions_pending_by_session'))).toBe(true);
      expect(plan).not.toContain('SCAN questions');
    } finally {
      raw.close();
    }
  });
});
