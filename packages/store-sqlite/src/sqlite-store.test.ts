import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { QuestionStoreError, type QuestionStoreErrorCode } from '@askseam/store';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { describeQuestionStoreContract, sampleQuestionRecord } from '@askseam/store-testing';
import { migrate, questionStoreMigrations } from './migrations.js';
import { SqliteQuestionStore } from './sqlite-store.js';

const dirs: string[] = [];
const stores: SqliteQuestionStore[] = [];

function tempFile(name = 'questions.db'): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-sqlite-'));
  dirs.push(dir);
  return join(dir, name);
}

function open(filename: string): SqliteQuestionStore {
  const store = new SqliteQuestionStore(filename);
  stores.push(store);
  return store;
}

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// #region describe-question-store-contract
describeQuestionStoreContract('SqliteQuestionStore', () => open(tempFile()));
// #endregion describe-question-store-contract

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

function openError(filename: string): QuestionStoreErrorCode | 'opened' {
  try {
    open(filename);
    return 'opened';
  } catch (error) {
    if (QuestionStoreError.isInstance(error)) return error.code;
    throw error;
  }
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** Another program writes its own WAL database and is killed before it can close it: -wal and -shm stay behind. */
function crashAfterWritingForeignWalDatabase(file: string, sql = 'CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (1.5), (3);'): void {
  const program = `
    const Database = require(${JSON.stringify(betterSqlite3)});
    const db = new Database(${JSON.stringify(file)});
    db.pragma('journal_mode = WAL');
    db.exec(${JSON.stringify(sql)});
    process.kill(process.pid, 'SIGKILL');
  `;
  const run = spawnSync(process.execPath, ['-e', program]);
  expect(run.signal).toBe('SIGKILL');
}

/** Overwrite the middle fifth of a database file with noise, as a failing disk would. */
function damageMiddlePages(file: string): void {
  const size = statSync(file).size;
  const noise = Buffer.alloc(Math.floor(size / 5), 0xa5);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, noise, 0, noise.length, Math.floor(size * 0.4));
  } finally {
    closeSync(fd);
  }
}

describe('surviving a restart', () => {
  it('gives back pending and settled records and the event log after close and reopen', async () => {
    const file = tempFile();
    const first = open(file);
    const pending = sampleQuestionRecord({ mode: 'detached', state: { tool: 'deploy', args: { version: '1.2.3' } }, urgency: 'high' });
    const settled = sampleQuestionRecord();
    await first.save(pending);
    await first.save(settled);
    const claimed = await first.claim(settled.rpcId, 'answered', yes);
    const event = await first.appendEvent({ type: 'timed_out', sessionId: pending.sessionId, rpcId: pending.rpcId, data: {} });
    await first.close();

    const second = open(file);
    expect(await second.listPending('all')).toEqual([pending]);
    expect(await second.get(settled.rpcId)).toEqual(claimed);
    expect(await second.listAwaitingResume()).toEqual([claimed]);
    expect(await second.readEvents(pending.sessionId)).toEqual([event]);
    // Ids keep growing after a reopen, so a cursor read before the restart still works.
    const next = await second.appendEvent({ type: 'timed_out', sessionId: pending.sessionId, rpcId: pending.rpcId, data: {} });
    expect(await second.readEvents(pending.sessionId, { after: event.id })).toEqual([next]);
  });

  it('keeps a state of JSON null apart from no state', async () => {
    const file = tempFile();
    const store = open(file);
    const withNull = sampleQuestionRecord({ state: null });
    const without = sampleQuestionRecord();
    await store.save(withNull);
    await store.save(without);
    expect(await store.get(withNull.rpcId)).toHaveProperty('state', null);
    expect(await store.get(without.rpcId)).not.toHaveProperty('state');
  });

  it('lets exactly one of two stores on the same file claim a question', async () => {
    const file = tempFile();
    const one = open(file);
    const two = open(file);
    const record = sampleQuestionRecord();
    await one.save(record);
    const claims = await Promise.all([one.claim(record.rpcId, 'answered', yes), two.claim(record.rpcId, 'cancelled'), one.claim(record.rpcId, 'cancelled'), two.claim(record.rpcId, 'answered', yes)]);
    expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
  });

  it('writes the file in WAL mode with its schema version', async () => {
    const file = tempFile();
    const store = open(file);
    await store.close();
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.prepare('SELECT version FROM schema_version').pluck().get()).toBe(store.schemaVersion);
      expect(store.schemaVersion).toBe(3);
    } finally {
      raw.close();
    }
  });
});

describe('askedOn, the node holding a blocking asker', () => {
  it('comes back from get, claim, listPending and listAwaitingResume, and after a reopen', async () => {
    const file = tempFile();
    const store = open(file);
    const record = sampleQuestionRecord({ askedOn: 'node-a' });
    await store.save(record);
    expect(await store.get(record.rpcId)).toEqual(record);
    expect(await store.listPending('all')).toEqual([record]);
    const claimed = await store.claim(record.rpcId, 'answered', yes);
    expect(claimed).toMatchObject({ askedOn: 'node-a', outcome: 'answered' });
    expect(await store.listAwaitingResume()).toEqual([claimed]);
    await store.close();
    expect(await open(file).get(record.rpcId)).toEqual(claimed);
  });

  it('stays absent on a record saved without it', async () => {
    const store = open(tempFile());
    const record = sampleQuestionRecord();
    await store.save(record);
    expect(await store.get(record.rpcId)).not.toHaveProperty('askedOn');
    expect(await store.claim(record.rpcId, 'cancelled')).not.toHaveProperty('askedOn');
  });
});

describe('answeredBy, who settled a question', () => {
  const alex = { principalId: 'alice', via: 'slack', user: 'U0ALEX', destination: 'slack:C0123' };

  it('is kept by claim and comes back from get and listAwaitingResume, also after a reopen', async () => {
    const file = tempFile();
    const store = open(file);
    const record = sampleQuestionRecord();
    await store.save(record);
    const claimed = await store.claim(record.rpcId, 'answered', yes, { answeredBy: alex });
    expect(claimed?.answeredBy).toEqual(alex);
    expect(await store.listAwaitingResume()).toEqual([claimed]);
    await store.close();
    expect((await open(file).get(record.rpcId))?.answeredBy).toEqual(alex);
  });

  it('upgrades a version-2 file: its settled question has none, a new claim keeps one', async () => {
    const file = tempFile();
    const raw = new Database(file);
    const old = sampleQuestionRecord();
    try {
      expect(migrate(raw, questionStoreMigrations.slice(0, 2))).toEqual({ from: 0, to: 2 });
      raw
        .prepare("INSERT INTO questions (rpc_id, session_id, asked_by, asked_at, mode, questions, outcome, answer, settled_at) VALUES (?, ?, ?, ?, ?, ?, 'answered', ?, ?)")
        .run(old.rpcId, old.sessionId, old.askedBy, old.askedAt, old.mode, JSON.stringify(old.questions), JSON.stringify(yes), old.askedAt);
    } finally {
      raw.close();
    }
    const store = open(file);
    expect(store.schemaVersion).toBe(3);
    expect(await store.get(old.rpcId)).not.toHaveProperty('answeredBy');
    const fresh = sampleQuestionRecord();
    await store.save(fresh);
    expect((await store.claim(fresh.rpcId, 'cancelled', undefined, { answeredBy: alex }))?.answeredBy).toEqual(alex);
  });
});

describe('upgrading a version-1 store', () => {
  /** A file exactly as the version-1 release left it: migration 1 only, with one pending question written through its columns. */
  function versionOneFile(record: ReturnType<typeof sampleQuestionRecord>): string {
    const file = tempFile();
    const raw = new Database(file);
    try {
      expect(migrate(raw, questionStoreMigrations.slice(0, 1))).toEqual({ from: 0, to: 1 });
      raw.pragma('journal_mode = WAL');
      raw
        .prepare('INSERT INTO questions (rpc_id, session_id, asked_by, asked_at, mode, urgency, questions, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(record.rpcId, record.sessionId, record.askedBy, record.askedAt, record.mode, record.urgency ?? null, JSON.stringify(record.questions), record.state === undefined ? null : JSON.stringify(record.state));
    } finally {
      raw.close();
    }
    return file;
  }

  it('brings the file to version 3 on open and keeps its pending question', async () => {
    const record = sampleQuestionRecord({ mode: 'detached', urgency: 'high', state: { tool: 'deploy' } });
    const file = versionOneFile(record);
    const store = open(file);
    expect(store.schemaVersion).toBe(3);
    expect(await store.listPending('all')).toEqual([record]);
    await store.close();
    const check = new Database(file, { readonly: true });
    try {
      expect(check.prepare('SELECT version FROM schema_version').pluck().get()).toBe(3);
    } finally {
      check.close();
    }
  });

  it('stores askedOn once upgraded, and still claims the question it kept', async () => {
    const kept = sampleQuestionRecord({ state: null });
    const store = open(versionOneFile(kept));
    const fresh = sampleQuestionRecord({ askedOn: 'node-b' });
    await store.save(fresh);
    expect(await store.get(fresh.rpcId)).toEqual(fresh);
    expect(await store.claim(kept.rpcId, 'answered', yes)).toMatchObject({ rpcId: kept.rpcId, state: null, outcome: 'answered' });
  });

  it('is refused as NEWER_SCHEMA by version-1 code once upgraded, and left as it is', async () => {
    const record = sampleQuestionRecord({ askedOn: 'node-a' });
    const file = tempFile();
    const store = open(file);
    await store.save(record);
    await store.close();

    // What the version-1 release runs on open: migrate with the one step it knows.
    const raw = new Database(file);
    try {
      let code: unknown;
      try {
        migrate(raw, questionStoreMigrations.slice(0, 1));
      } catch (error) {
        code = QuestionStoreError.isInstance(error) ? error.code : error;
      }
      expect(code).toBe('NEWER_SCHEMA');
      expect(raw.prepare('SELECT version FROM schema_version').pluck().get()).toBe(3);
      expect(raw.prepare('SELECT rpc_id, asked_on FROM questions').all()).toEqual([{ rpc_id: record.rpcId, asked_on: 'node-a' }]);
    } finally {
      raw.close();
    }
  });
});

describe('refusing what it cannot vouch for', () => {
  it('refuses a file that is not a database with CORRUPT_STORE and leaves it byte for byte', () => {
    const file = tempFile('garbage.db');
    const bytes = Buffer.from('this is not a database, but it is somebody\'s file '.repeat(200));
    writeFileSync(file, bytes);
    expect(openError(file)).toBe('CORRUPT_STORE');
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('refuses another application\'s database with NOT_A_STORE and keeps its data', () => {
    const file = tempFile('app.db');
    const other = new Database(file);
    other.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (12.5);");
    other.close();
    expect(openError(file)).toBe('NOT_A_STORE');
    const check = new Database(file, { readonly: true });
    expect(check.prepare('SELECT total FROM invoices').pluck().all()).toEqual([12.5]);
    expect(check.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'questions'").pluck().get()).toBe(0);
    check.close();
  });

  it('refuses a store written by a newer release with NEWER_SCHEMA and keeps its questions', async () => {
    const file = tempFile();
    const store = open(file);
    const record = sampleQuestionRecord();
    await store.save(record);
    await store.close();
    const raw = new Database(file);
    raw.prepare('UPDATE schema_version SET version = 99').run();
    raw.close();

    expect(openError(file)).toBe('NEWER_SCHEMA');
    const check = new Database(file, { readonly: true });
    expect(check.prepare('SELECT rpc_id FROM questions').pluck().all()).toEqual([record.rpcId]);
    check.close();
  });

  it('refuses a store whose version table was damaged with CORRUPT_STORE', async () => {
    const file = tempFile();
    await open(file).close();
    const raw = new Database(file);
    raw.exec('DELETE FROM schema_version');
    raw.close();
    expect(openError(file)).toBe('CORRUPT_STORE');
  });

  it('reports a row edited into something that is not a record as CORRUPT_STORE, naming it', async () => {
    const file = tempFile();
    const store = open(file);
    const record = sampleQuestionRecord();
    await store.save(record);
    const raw = new Database(file);
    raw.prepare("UPDATE questions SET questions = '[{\"nope\":1}]' WHERE rpc_id = ?").run(record.rpcId);
    raw.close();
    const error = await store.get(record.rpcId).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CORRUPT_STORE', message: expect.stringContaining(record.rpcId) });
  });

  it('with onUnreadable, lists every readable record and reports a damaged row (rpcId, session, CORRUPT_STORE) instead of failing', async () => {
    const file = tempFile();
    const store = open(file);
    const before = sampleQuestionRecord({ sessionId: 'a' });
    const damaged = sampleQuestionRecord({ sessionId: 'a' });
    const after = sampleQuestionRecord({ sessionId: 'b' });
    const answered = sampleQuestionRecord({ sessionId: 'b' });
    const damagedAnswered = sampleQuestionRecord({ sessionId: 'b' });
    for (const record of [before, damaged, after, answered, damagedAnswered]) await store.save(record);
    const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };
    const settled = await store.claim(answered.rpcId, 'answered', yes);
    await store.claim(damagedAnswered.rpcId, 'answered', yes);
    const raw = new Database(file);
    raw.prepare("UPDATE questions SET questions = '[{\"nope\":1}]' WHERE rpc_id = ?").run(damaged.rpcId);
    raw.prepare("UPDATE questions SET answer = '{\"answers\":7}' WHERE rpc_id = ?").run(damagedAnswered.rpcId);
    raw.close();
    const reported: { rpcId: string; sessionId?: string; code: string }[] = [];
    const onUnreadable = ({ rpcId, sessionId, error }: { rpcId: string; sessionId?: string; error: { code: string } }) =>
      reported.push({ rpcId, ...(sessionId === undefined ? {} : { sessionId }), code: error.code });

    expect(await store.listPending('all', { onUnreadable })).toEqual([before, after]);
    expect(await store.listPending(['a'], { onUnreadable })).toEqual([before]);
    expect(await store.listAwaitingResume({ onUnreadable })).toEqual([settled]);
    expect(reported).toEqual([
      { rpcId: damaged.rpcId, sessionId: 'a', code: 'CORRUPT_STORE' },
      { rpcId: damaged.rpcId, sessionId: 'a', code: 'CORRUPT_STORE' },
      { rpcId: damagedAnswered.rpcId, sessionId: 'b', code: 'CORRUPT_STORE' },
    ]);
    // Without the callback the list still refuses, so a caller that does not handle damage never sees a partial list.
    const error = await store.listPending('all').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CORRUPT_STORE', message: expect.stringContaining(damaged.rpcId) });
  });

  it('refuses a foreign WAL database left with its -wal and -shm as NOT_A_STORE, leaving all three files byte for byte', () => {
    const file = tempFile('crashed-app.db');
    crashAfterWritingForeignWalDatabase(file);
    const files = [file, `${file}-wal`, `${file}-shm`];
    for (const each of files) expect(existsSync(each), each).toBe(true);
    const before = files.map(sha256);
    const listing = readdirSync(dirname(file)).sort();

    expect(openError(file)).toBe('NOT_A_STORE');
    expect(files.map(sha256)).toEqual(before);
    expect(readdirSync(dirname(file)).sort()).toEqual(listing);
  });

  it('refuses an empty database whose -wal holds another program\'s changes as NOT_A_STORE, byte for byte', () => {
    const file = tempFile('in-the-making.db');
    crashAfterWritingForeignWalDatabase(file, 'PRAGMA user_version = 7;');
    const files = [file, `${file}-wal`, `${file}-shm`];
    const before = files.map(sha256);
    expect(openError(file)).toBe('NOT_A_STORE');
    expect(files.map(sha256)).toEqual(before);
  });

  it('refuses a file too short to be a database as CORRUPT_STORE, untouched', () => {
    const file = tempFile('short.db');
    writeFileSync(file, 'SQLite format 3\0');
    expect(openError(file)).toBe('CORRUPT_STORE');
    expect(readFileSync(file, 'latin1')).toBe('SQLite format 3\0');
  });

  it('refuses a cleanly closed foreign WAL database without leaving -wal or -shm files beside it', () => {
    const file = tempFile('app.db');
    const other = new Database(file);
    other.pragma('journal_mode = WAL');
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    other.close();
    const before = sha256(file);
    expect(openError(file)).toBe('NOT_A_STORE');
    expect(sha256(file)).toBe(before);
    expect(readdirSync(dirname(file))).toEqual(['app.db']);
  });

  it('refuses a database marked with another application\'s id as NOT_A_STORE, untouched', () => {
    const file = tempFile('app.db');
    const other = new Database(file);
    other.pragma('application_id = 1234');
    other.close();
    const before = sha256(file);
    expect(openError(file)).toBe('NOT_A_STORE');
    expect(sha256(file)).toBe(before);
  });

  it('still makes a store of an empty SQLite database', async () => {
    const file = tempFile('empty.db');
    const empty = new Database(file);
    empty.pragma('journal_mode = WAL');
    empty.close();
    const store = open(file);
    await store.save(sampleQuestionRecord());
    expect(await store.listPending('all')).toHaveLength(1);
  });

  it('reports a store whose pages were damaged as CORRUPT_STORE, not as a raw SQLite error', async () => {
    const file = tempFile();
    const store = open(file);
    for (let i = 0; i < 200; i++) await store.save(sampleQuestionRecord({ questions: [{ id: 'deploy', question: `Deploy build ${i} of ${'the service '.repeat(20)}?` }] }));
    await store.close();
    damageMiddlePages(file);

    let error: unknown;
    try {
      await open(file).listPending('all');
    } catch (caught) {
      error = caught;
    }
    expect(QuestionStoreError.isInstance(error), String(error)).toBe(true);
    expect(error).toMatchObject({ code: 'CORRUPT_STORE', message: expect.stringContaining(file) });
  });

  it('keeps the event log append-only, even against direct SQL', async () => {
    const file = tempFile();
    const store = open(file);
    await store.appendEvent({ type: 'timed_out', sessionId: 's', rpcId: 'r', data: {} });
    const raw = new Database(file);
    try {
      expect(() => raw.exec("UPDATE events SET type = 'cancelled'")).toThrow(/append-only/);
      expect(() => raw.exec('DELETE FROM events')).toThrow(/append-only/);
    } finally {
      raw.close();
    }
    expect(await store.readEvents('s')).toHaveLength(1);
  });
});

describe('appendEvents, one transaction per batch', () => {
  it('stores nothing of a batch whose insert fails midway, and keeps working after', async () => {
    const file = tempFile();
    const store = open(file);
    const raw = new Database(file);
    try {
      // A real failure inside SQLite on the second row, after the first row was inserted.
      raw.exec("CREATE TRIGGER refuse_boom BEFORE INSERT ON events WHEN NEW.rpc_id = 'boom' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    } finally {
      raw.close();
    }
    const batch = [
      { type: 'timed_out', sessionId: 's', rpcId: 'r1', data: {} },
      { type: 'timed_out', sessionId: 's', rpcId: 'boom', data: {} },
      { type: 'timed_out', sessionId: 't', rpcId: 'r2', data: {} },
    ] as const;
    await expect(store.appendEvents(batch)).rejects.toThrow(/refused by the test/);
    expect(await store.readEvents('s')).toEqual([]);
    expect(await store.readEvents('t')).toEqual([]);
    await store.appendEvents([batch[0], batch[2]]);
    expect((await store.readEvents('s')).map((event) => event.rpcId)).toEqual(['r1']);
    expect((await store.readEvents('t')).map((event) => event.rpcId)).toEqual(['r2']);
  });

  it('gives a batch consecutive ids after earlier events and one timestamp, visible to another store on the file', async () => {
    const file = tempFile();
    const writer = open(file);
    const before = await writer.appendEvent({ type: 'timed_out', sessionId: 's', rpcId: 'r0', data: {} });
    await writer.appendEvents([
      { type: 'timed_out', sessionId: 's', rpcId: 'r1', data: {} },
      { type: 'aborted', sessionId: 't', rpcId: 'r2', data: { by: 'signal' } },
      { type: 'timed_out', sessionId: 's', rpcId: 'r3', data: {} },
    ]);
    const reader = open(file);
    const inS = await reader.readEvents('s', { after: before.id });
    const [inT] = await reader.readEvents('t');
    expect([inS[0]?.id, inT?.id, inS[1]?.id]).toEqual([before.id + 1, before.id + 2, before.id + 3]);
    expect(new Set([inS[0]?.at, inT?.at, inS[1]?.at]).size).toBe(1);
    expect(inT).toMatchObject({ type: 'aborted', rpcId: 'r2', data: { by: 'signal' } });
  });
});

describe('closing', () => {
  it('refuses every call after close with STORE_CLOSED, and closes only once', async () => {
    const store = open(tempFile());
    await store.close();
    await store.close();
    await expect(store.get('x')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    await expect(store.save(sampleQuestionRecord())).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    await expect(store.appendEvents([{ type: 'timed_out', sessionId: 's', rpcId: 'r', data: {} }])).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});
