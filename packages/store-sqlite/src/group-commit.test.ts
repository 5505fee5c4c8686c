import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QuestionStoreError } from '@askseam/store';
import { sampleQuestionRecord } from '@askseam/store-testing';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteQuestionStore } from './sqlite-store.js';

const dirs: string[] = [];
const stores: SqliteQuestionStore[] = [];

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-group-commit-'));
  dirs.push(dir);
  return join(dir, 'questions.db');
}

function open(filename: string, busyTimeoutMs?: number): SqliteQuestionStore {
  const store = new SqliteQuestionStore(filename, busyTimeoutMs === undefined ? {} : { busyTimeoutMs });
  stores.push(store);
  return store;
}

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

/** Empty the file's -wal (everything in it goes into the database), so that what follows is all it holds. */
function resetWal(file: string): void {
  const raw = new Database(file);
  try {
    raw.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    raw.close();
  }
}

/**
 * How many transactions were committed to the -wal since `resetWal`: a commit is a frame whose
 * header carries the database size (non-zero) and the salts of the WAL header (the current WAL).
 */
function walCommits(file: string): number {
  const wal = `${file}-wal`;
  if (!existsSync(wal)) return 0;
  const bytes = readFileSync(wal);
  if (bytes.length < 32) return 0;
  const pageSize = bytes.readUInt32BE(8);
  const [salt1, salt2] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= bytes.length; at += 24 + pageSize) {
    if (bytes.readUInt32BE(at + 8) !== salt1 || bytes.readUInt32BE(at + 12) !== salt2) break;
    if (bytes.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  return commits;
}

describe('group commit: the writes of one loop turn share one transaction', () => {
  it('commits 100 concurrent saves as one transaction, each resolved and stored', async () => {
    const file = tempFile();
    const store = open(file);
    resetWal(file);
    const records = Array.from({ length: 100 }, () => sampleQuestionRecord());
    await Promise.all(records.map((record) => store.save(record)));
    expect(walCommits(file)).toBe(1);
    expect((await store.listPending('all')).map((record) => record.rpcId)).toEqual(records.map((record) => record.rpcId));
  });

  it('fails only the duplicate of a batch with DUPLICATE_RPC_ID; the other saves of that batch are stored', async () => {
    const file = tempFile();
    const store = open(file);
    const first = sampleQuestionRecord();
    await store.save(first);
    resetWal(file);
    const before = sampleQuestionRecord();
    const after = sampleQuestionRecord();
    const results = await Promise.allSettled([store.save(before), store.save({ ...first, askedBy: 'someone else' }), store.save(after)]);
    expect(walCommits(file)).toBe(1);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'DUPLICATE_RPC_ID', message: expect.stringContaining(first.rpcId) });
    expect(QuestionStoreError.isInstance((results[1] as PromiseRejectedResult).reason)).toBe(true);
    expect((await store.listPending('all')).map((record) => record.rpcId)).toEqual([first.rpcId, before.rpcId, after.rpcId]);
    expect(await store.get(first.rpcId)).toMatchObject({ askedBy: first.askedBy });
  });

  it('undoes only the rows of an appendEvents that SQLite refuses midway; the saves and appends beside it in the batch commit', async () => {
    const file = tempFile();
    const store = open(file);
    const raw = new Database(file);
    try {
      // A real failure inside SQLite on the second row of one call, after its first row was inserted.
      raw.exec("CREATE TRIGGER refuse_boom BEFORE INSERT ON events WHEN NEW.rpc_id = 'boom' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    } finally {
      raw.close();
    }
    resetWal(file);
    const record = sampleQuestionRecord();
    const results = await Promise.allSettled([
      store.appendEvent({ type: 'timed_out', sessionId: 's', rpcId: 'r0', data: {} }),
      store.appendEvents([
        { type: 'timed_out', sessionId: 's', rpcId: 'r1', data: {} },
        { type: 'timed_out', sessionId: 's', rpcId: 'boom', data: {} },
      ]),
      store.save(record),
      store.appendEvents([
        { type: 'timed_out', sessionId: 's', rpcId: 'r2', data: {} },
        { type: 'timed_out', sessionId: 's', rpcId: 'r3', data: {} },
      ]),
    ]);
    expect(walCommits(file)).toBe(1);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/refused by the test/);
    expect((await store.readEvents('s')).map((event) => event.rpcId)).toEqual(['r0', 'r2', 'r3']);
    expect(await store.get(record.rpcId)).toEqual(record);
  });

  it('keeps call order inside a batch: a claim, get and markResumed right after an unawaited save see it', async () => {
    const file = tempFile();
    const store = open(file);
    resetWal(file);
    const record = sampleQuestionRecord();
    const saved = store.save(record);
    const claimed = store.claim(record.rpcId, 'answered', yes);
    const got = store.get(record.rpcId);
    const marked = store.markResumed(record.rpcId);
    const pending = store.listPending('all');
    await saved;
    expect(await claimed).toMatchObject({ rpcId: record.rpcId, outcome: 'answered', answer: yes });
    expect(await got).toMatchObject({ rpcId: record.rpcId, outcome: 'answered' });
    expect(await marked).toBe(true);
    expect(await pending).toEqual([]);
    expect(walCommits(file)).toBe(1);
  });

  it('commits on close the writes still waiting for their batch', async () => {
    const file = tempFile();
    const store = open(file);
    const record = sampleQuestionRecord();
    const saved = store.save(record);
    const event = store.appendEvent({ type: 'timed_out', sessionId: record.sessionId, rpcId: record.rpcId, data: {} });
    await store.close();
    await expect(saved).resolves.toBeUndefined();
    const appended = await event;
    const reopened = open(file);
    expect(await reopened.listPending('all')).toEqual([record]);
    expect(await reopened.readEvents(record.sessionId)).toEqual([appended]);
  });

  it('fails every call of a batch whose transaction cannot start, stores none of them, and works again once the lock is free', async () => {
    const file = tempFile();
    const store = open(file, 20);
    const blocker = new Database(file);
    try {
      // Another process holds the write lock for longer than the store's busy timeout.
      blocker.exec('BEGIN IMMEDIATE');
      const records = [sampleQuestionRecord(), sampleQuestionRecord()];
      const results = await Promise.allSettled([
        store.save(records[0]!),
        store.appendEvent({ type: 'timed_out', sessionId: 's', rpcId: 'r', data: {} }),
        store.save(records[1]!),
      ]);
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
      for (const result of results) expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_BUSY' });
      blocker.exec('ROLLBACK');
    } finally {
      blocker.close();
    }
    expect(await store.listPending('all')).toEqual([]);
    expect(await store.readEvents('s')).toEqual([]);
    const later = sampleQuestionRecord();
    await store.save(later);
    expect(await store.listPending('all')).toEqual([later]);
  });
});

const builtStore = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('group commit and a crash', () => {
  it('loses none of the saves and claims that had resolved when the process was SIGKILLed', async () => {
    const file = tempFile();
    const records = Array.from({ length: 200 }, (_, index) => sampleQuestionRecord({ sessionId: `session-${index % 7}` }));
    const claimedIds = records.filter((_, index) => index % 10 === 0).map((record) => record.rpcId);
    // The child saves every record and claims some (all in flight at once, so they share batches),
    // reports what resolved, and is killed in the same callback: nothing gets a later turn to write.
    const program = `
      import { SqliteQuestionStore } from ${JSON.stringify(builtStore)};
      import { readFileSync, writeSync } from 'node:fs';
      const { file, records, claimedIds } = JSON.parse(readFileSync(0, 'utf8'));
      const store = new SqliteQuestionStore(file);
      const saves = records.map((record) => store.save(record));
      const claims = claimedIds.map((rpcId) => store.claim(rpcId, 'cancelled'));
      Promise.all([Promise.all(saves), Promise.all(claims)]).then(([, claimed]) => {
        writeSync(1, JSON.stringify({ saved: saves.length, claimed: claimed.filter((record) => record !== undefined).length }));
        process.kill(process.pid, 'SIGKILL');
      });
    `;
    expect(existsSync(builtStore), `${builtStore} is missing: run \`pnpm build\` first`).toBe(true);
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', program], { input: JSON.stringify({ file, records, claimedIds }) });
    expect(child.stderr.toString()).toBe('');
    expect(child.signal).toBe('SIGKILL');
    expect(JSON.parse(child.stdout.toString())).toEqual({ saved: records.length, claimed: claimedIds.length });

    const reopened = open(file);
    const claimed = new Set(claimedIds);
    expect((await reopened.listPending('all')).map((record) => record.rpcId)).toEqual(records.filter((record) => !claimed.has(record.rpcId)).map((record) => record.rpcId));
    for (const rpcId of claimedIds) expect(await reopened.get(rpcId)).toMatchObject({ rpcId, outcome: 'cancelled' });
  });
});
