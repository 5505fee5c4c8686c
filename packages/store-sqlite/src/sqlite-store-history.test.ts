// listSettled with filters behind a long history: each filter walks its own partial index of settled
// rows (schema version 6) instead of every settled row, and the pages are the same as a plain reading
// of the history would give, combination by combination, cursor by cursor.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ListSettledOptions, QuestionOutcome } from '@askseam/store';
import { sampleQuestionRecord } from '@askseam/store-testing';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, questionStoreMigrations } from './migrations.js';
import { SqliteQuestionStore, settledPageSql } from './sqlite-store.js';

const dirs: string[] = [];
const stores: SqliteQuestionStore[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-sqlite-history-'));
  dirs.push(dir);
  return join(dir, 'questions.db');
}

function open(file: string): SqliteQuestionStore {
  const store = new SqliteQuestionStore(file);
  stores.push(store);
  return store;
}

/** An answer that fits sampleQuestionRecord's question. */
const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };
const outcomes: QuestionOutcome[] = ['answered', 'cancelled', 'aborted', 'timed_out'];
interface Asked {
  rpcId: string;
  sessionId: string;
  askedBy: string;
  outcome: QuestionOutcome | undefined;
}

/** `count` questions over 4 sessions, 3 agents and 4 outcomes in patterns that do not line up; every 10th stays pending. */
async function fill(store: SqliteQuestionStore, count: number): Promise<Asked[]> {
  const asked: Asked[] = Array.from({ length: count }, (_, i) => ({
    rpcId: `q-${i}`,
    sessionId: `session-${i % 4}`,
    askedBy: `agent-${i % 3}`,
    outcome: i % 10 === 9 ? undefined : outcomes[(i * 7) % 11 % 4],
  }));
  await Promise.all(asked.map(({ rpcId, sessionId, askedBy }) => store.save(sampleQuestionRecord({ rpcId, sessionId, askedBy }))));
  await Promise.all(asked.filter((q) => q.outcome !== undefined).map((q) => store.claim(q.rpcId, q.outcome!, q.outcome === 'answered' ? yes : undefined)));
  return asked;
}

/** Every page of one filter, following `next`, as rpcIds. */
async function allPages(store: SqliteQuestionStore, filter: Omit<ListSettledOptions, 'cursor' | 'limit'>, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listSettled({ ...filter, limit, ...(cursor === undefined ? {} : { cursor }) });
    expect(page.records.length).toBeLessThanOrEqual(limit);
    if (page.next !== undefined) expect(page.records).toHaveLength(limit);
    seen.push(...page.records.map((record) => record.rpcId));
    cursor = page.next;
  } while (cursor !== undefined);
  return seen;
}

describe('listSettled filters on their own indexes', () => {
  it('pages every combination of session, agent and outcome exactly as the history reads, newest first', async () => {
    const store = open(tempFile());
    const asked = await fill(store, 400);
    const newestFirst = [...asked].reverse();
    const filters: Omit<ListSettledOptions, 'cursor' | 'limit'>[] = [];
    for (const sessionId of [undefined, 'session-1']) {
      for (const askedBy of [undefined, 'agent-2']) {
        for (const outcome of [undefined, 'cancelled' as const]) {
          filters.push({ ...(sessionId === undefined ? {} : { sessionId }), ...(askedBy === undefined ? {} : { askedBy }), ...(outcome === undefined ? {} : { outcome }) });
        }
      }
    }
    for (const filter of filters) {
      const expected = newestFirst
        .filter((q) => q.outcome !== undefined)
        .filter((q) => (filter.sessionId === undefined || q.sessionId === filter.sessionId) && (filter.askedBy === undefined || q.askedBy === filter.askedBy) && (filter.outcome === undefined || q.outcome === filter.outcome))
        .map((q) => q.rpcId);
      expect(expected.length).toBeGreaterThan(3);
      expect(await allPages(store, filter, 7)).toEqual(expected);
    }
    // Nothing matches: an empty page and no cursor.
    expect(await store.listSettled({ askedBy: 'agent-who-never-asked' })).toEqual({ records: [] });
    expect(await store.listSettled({ sessionId: 'session-1', outcome: 'cancelled', askedBy: 'agent-who-never-asked' })).toEqual({ records: [] });
  });

  it('reads an index for every filter, and the primary key without one; never the whole table', () => {
    const store = open(tempFile());
    const raw = new Database(store.filename, { readonly: true });
    try {
      const plan = (columns: Parameters<typeof settledPageSql>[0]) =>
        (raw.prepare(`EXPLAIN QUERY PLAN ${settledPageSql(columns)}`).all({ before: 1, limit: 1, ...Object.fromEntries(columns.map((column) => [column, 'x'])) }) as { detail: string }[]).map((row) => row.detail).join(' | ');
      expect(plan([])).toMatch(/USING INTEGER PRIMARY KEY/);
      expect(plan(['session_id'])).toMatch(/USING INDEX questions_settled_by_session/);
      expect(plan(['session_id', 'asked_by', 'outcome'])).toMatch(/USING INDEX questions_settled_by_session/);
      expect(plan(['asked_by'])).toMatch(/USING INDEX questions_settled_by_agent/);
      expect(plan(['asked_by', 'outcome'])).toMatch(/USING INDEX questions_settled_by_agent/);
      expect(plan(['outcome'])).toMatch(/USING INDEX questions_settled_by_outcome/);
      for (const columns of [[], ['session_id'], ['asked_by'], ['outcome']] as const) expect(plan(columns)).not.toMatch(/SCAN questions(?! USING)|TEMP B-TREE/);
    } finally {
      raw.close();
    }
  });

  it('adds the indexes to a version-5 store on open, covering the questions settled before the upgrade', async () => {
    const file = tempFile();
    const old = new Database(file);
    migrate(old, questionStoreMigrations.slice(0, 5));
    const insert = old.prepare(
      `INSERT INTO questions (rpc_id, session_id, asked_by, asked_at, mode, questions, outcome, settled_at)
       VALUES (?, ?, ?, '2026-01-02T03:04:05.000Z', 'detached', ?, ?, ?)`,
    );
    const questions = JSON.stringify(sampleQuestionRecord().questions);
    for (let i = 0; i < 30; i++) insert.run(`old-${i}`, `session-${i % 2}`, `agent-${i % 3}`, questions, i % 5 === 0 ? null : 'answered', i % 5 === 0 ? null : '2026-01-02T03:05:00.000Z');
    old.close();

    const store = open(file);
    expect(store.schemaVersion).toBe(6);
    const expected = Array.from({ length: 30 }, (_, i) => i)
      .reverse()
      .filter((i) => i % 3 === 1 && i % 5 !== 0)
      .map((i) => `old-${i}`);
    expect(await allPages(store, { askedBy: 'agent-1' }, 4)).toEqual(expected);
    expect(await allPages(store, { sessionId: 'session-0', outcome: 'answered' }, 4)).toEqual(
      Array.from({ length: 30 }, (_, i) => i).reverse().filter((i) => i % 2 === 0 && i % 5 !== 0).map((i) => `old-${i}`),
    );
  });
});
