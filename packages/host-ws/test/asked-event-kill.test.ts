// Issue 23 item 11a: once askDetached has resolved, the question and its `human_input_requested`
// event are both on disk, whatever instant the process dies at. The child SIGKILLs itself in the
// very callback of a resolved askDetached, at every step of a run and after a burst.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionStore } from '@askseam/store';
import { bundleChild, killChildren, removeBundles, startChild } from '@askseam/test-support';
import { cleanupDurable, openSqlite, tempDbFile } from './durable-fixture.js';
import { TOKEN } from './fixture.js';

let script: string;
beforeAll(async () => {
  script = await bundleChild(new URL('./asked-event-child.ts', import.meta.url));
});
afterEach(async () => {
  killChildren();
  await cleanupDurable();
});
afterAll(() => removeBundles());

/** Run the child until it kills itself; resolves with the file it asked on. */
async function runUntilKilled(args: string[]): Promise<string> {
  const file = tempDbFile();
  const { exited } = await startChild<{ url: string }>(script, [file, TOKEN, ...args]);
  expect((await exited).signal).toBe('SIGKILL');
  return file;
}

/** The pending questions, and the rpcIds of the `human_input_requested` events, of sessions 0–2. */
async function questionsAndAskedEvents(store: QuestionStore): Promise<{ pending: string[]; asked: string[] }> {
  const pending = (await store.listPending('all')).map((record) => record.rpcId);
  const asked: string[] = [];
  for (const session of ['session-0', 'session-1', 'session-2']) {
    for (const event of await store.readEvents(session)) if (event.type === 'human_input_requested') asked.push(event.rpcId);
  }
  return { pending, asked };
}

describe('a host killed right after askDetached resolved (SQLite)', () => {
  it.each([0, 1, 2, 3, 4])('keeps each saved question with its asked event when it dies after ask %i of 5', async (killAt) => {
    const file = await runUntilKilled(['5', 'one-by-one', String(killAt)]);
    const store = openSqlite(file);
    const { pending, asked } = await questionsAndAskedEvents(store);
    // Every ask up to the one that resolved is saved; none after it was made.
    expect(pending).toHaveLength(killAt + 1);
    expect([...asked].sort()).toEqual([...pending].sort());
  });

  it('keeps every question of a burst of 20 with its asked event when it dies at the last resolve', async () => {
    const file = await runUntilKilled(['20', 'burst']);
    const store = openSqlite(file);
    const { pending, asked } = await questionsAndAskedEvents(store);
    expect(pending).toHaveLength(20);
    expect([...asked].sort()).toEqual([...pending].sort());
  });
});
