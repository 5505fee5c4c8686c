import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPendingAction } from '@askseam/clarify';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { furnaceCall } from './exchanges.js';
import { parkClarification, resumeFromReply } from './resume-after-restart.js';

let dir = '';
let filename = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'askseam-clarify-'));
  filename = join(dir, 'questions.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function park(): Promise<{ rpcId: string; text: string }> {
  const parked = await parkClarification(filename, 'thread-42', furnaceCall);
  if ('error' in parked) throw new Error(parked.error);
  return parked;
}

/** A look at the file from yet another store, the way an operator would. */
async function inspect<T>(look: (store: SqliteQuestionStore) => Promise<T>): Promise<T> {
  const store = new SqliteQuestionStore(filename);
  try {
    return await look(store);
  } finally {
    await store.close();
  }
}

describe('a pending business call that survives a restart', () => {
  it('keeps the pending call as the question\'s state, and posts text with no internal name', async () => {
    const { rpcId, text } = await park();
    expect(text).toContain('请问要选择哪个炉号？');
    expect(text).not.toMatch(/fnCode|today_furnace_batches|shift_no/);
    const record = await inspect((store) => store.get(rpcId));
    expect(record).toMatchObject({ sessionId: 'thread-42', mode: 'detached' });
    expect(isPendingAction(record?.state)).toBe(true);
  });

  it('resumes the call with the reply merged in, after the store was closed and opened again', async () => {
    const { rpcId } = await park();
    await expect(resumeFromReply(filename, rpcId, '1: 11号炉\n2: 2')).resolves.toEqual({
      call: { tool: 'today_furnace_batches', args: { date: '2026-05-01', fnCode: '11号炉', shift_no: 2 }, skipped: [] },
    });
    const record = await inspect((store) => store.get(rpcId));
    expect(record).toMatchObject({ outcome: 'answered', resumedAt: expect.any(String) });
  });

  it('resumes it exactly once', async () => {
    const { rpcId } = await park();
    await resumeFromReply(filename, rpcId, '1: 9号炉\n2: 1');
    await expect(resumeFromReply(filename, rpcId, '1: A号炉\n2: 3')).resolves.toEqual({ gone: true });
  });

  it('leaves the call out when the optional field is skipped', async () => {
    const { rpcId } = await park();
    await expect(resumeFromReply(filename, rpcId, '1: 9号炉')).resolves.toEqual({
      call: { tool: 'today_furnace_batches', args: { date: '2026-05-01', fnCode: '9号炉' }, skipped: ['shift_no'] },
    });
  });

  it('asks again about a reply it cannot use, and keeps the question pending', async () => {
    const { rpcId } = await park();
    await expect(resumeFromReply(filename, rpcId, '2: 1')).resolves.toEqual({ askAgain: '第 1 题是必填项，请回答。' });
    await expect(inspect((store) => store.listPending(['thread-42']))).resolves.toHaveLength(1);
  });
});
