import { describe, expect, it } from 'vitest';
import { PendingQuestion, PendingTable } from './pending.js';

function entry(table: PendingTable, rpcId: string, sessionId: string, seq = table.nextSeq()): PendingQuestion {
  const askedAt = '2026-01-01T00:00:00.000Z';
  const questions = [{ id: 'q', question: 'Why?' }];
  return new PendingQuestion({ rpcId, sessionId, askedBy: sessionId, askedAt, questions, mode: 'blocking' }, seq, { saved: true });
}

describe('PendingTable', () => {
  it('hands an entry to the first claim only', () => {
    const table = new PendingTable();
    const first = entry(table, 'r1', 's1');
    table.add(first);
    expect(table.claim('r1')).toBe(first);
    expect(table.claim('r1')).toBeUndefined();
    expect(table.get('r1')).toBeUndefined();
  });

  it('finds the entries of the given sessions in ask order, without the others', () => {
    const table = new PendingTable();
    const entries = [entry(table, 'r1', 'b'), entry(table, 'r2', 'a'), entry(table, 'r3', 'c'), entry(table, 'r4', 'b')];
    for (const e of entries) table.add(e);
    expect(table.ofSessions(['b', 'a', 'b']).map((e) => e.rpcId)).toEqual(['r1', 'r2', 'r4']);
    expect(table.ofSessions(['unknown'])).toEqual([]);
  });

  it('drops a claimed entry from its session index', () => {
    const table = new PendingTable();
    table.add(entry(table, 'r1', 'a'));
    table.add(entry(table, 'r2', 'a'));
    table.claim('r1');
    expect(table.ofSessions(['a']).map((e) => e.rpcId)).toEqual(['r2']);
    table.claim('r2');
    expect(table.ofSessions(['a'])).toEqual([]);
    expect(table.size).toBe(0);
  });

  it('lists only the latest entry added under an rpcId, in its own session', () => {
    const table = new PendingTable();
    const first = entry(table, 'r1', 'a');
    const second = entry(table, 'r1', 'b');
    table.add(first);
    table.add(second);
    expect(table.ofSessions(['a'])).toEqual([]);
    expect(table.ofSessions(['a', 'b'])).toEqual([second]);
    expect(table.claim('r1')).toBe(second);
    expect(table.ofSessions(['a', 'b'])).toEqual([]);
  });

  it('claims everything at once, in ask order, leaving nothing to claim twice', () => {
    const table = new PendingTable();
    table.add(entry(table, 'r1', 'a'));
    table.add(entry(table, 'r2', 'b'));
    expect(table.claimAll().map((e) => e.rpcId)).toEqual(['r1', 'r2']);
    expect(table.claim('r1')).toBeUndefined();
    expect(table.all()).toEqual([]);
  });

  it('lists an entry added back after a failed claim in its original ask order', () => {
    const table = new PendingTable();
    const first = entry(table, 'r1', 'a');
    table.add(first);
    table.add(entry(table, 'r2', 'a'));
    table.claim('r1');
    table.add(first);
    expect(table.all().map((e) => e.rpcId)).toEqual(['r1', 'r2']);
    expect(table.ofSessions(['a']).map((e) => e.rpcId)).toEqual(['r1', 'r2']);
  });

  it('lists entries restored after newer asks (lower seqs added later) in ask order, and keeps order once emptied', () => {
    const table = new PendingTable();
    table.add(entry(table, 'new', 'a'));
    table.add(entry(table, 'restored', 'b', -1));
    expect(table.all().map((e) => e.rpcId)).toEqual(['restored', 'new']);
    table.claimAll();
    table.add(entry(table, 'later', 'a'));
    table.add(entry(table, 'latest', 'b'));
    expect(table.all().map((e) => e.rpcId)).toEqual(['later', 'latest']);
  });
});
