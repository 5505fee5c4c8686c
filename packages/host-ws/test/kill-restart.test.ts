// The restart test, for real: a child process with questions pending on a SQLite file is
// killed with SIGKILL (no close(), no flush), and a new host on the same file replays them, takes
// their answers from a reconnecting client and over HTTP, and resumes each exactly once.
import { afterEach, describe, expect, it } from 'vitest';
import { bundleChild, killChildren, killed, removeBundles, startChild } from '@askseam/test-support';
import { api, cleanupDurable, openSqlite, resumeRecorder, tempDbFile } from './durable-fixture.js';
import { cleanup, startHost, TOKEN } from './fixture.js';

afterEach(async () => {
  killChildren();
  await cleanup();
  await cleanupDurable();
  removeBundles();
});

describe('a host killed with SIGKILL while questions are pending', () => {
  it('loses nothing: the next host replays both questions and resumes each answer exactly once', async () => {
    const file = tempDbFile();
    const script = await bundleChild(new URL('./kill-child.ts', import.meta.url));
    const { child, ready } = await startChild<{ url: string; blocking: string; detached: string }>(script, [file, TOKEN]);
    const { blocking, detached } = ready;
    expect(await killed(child)).toBe('SIGKILL');

    const resumed = resumeRecorder();
    const { host, connect } = await startHost({ store: openSqlite(file), onResume: resumed.onResume });
    const client = await connect();
    expect(await client.next('hello')).toMatchObject({ pending: [blocking, detached] });
    expect((await client.next('question/requested')).rpcId).toBe(blocking);
    expect((await client.next('question/requested')).rpcId).toBe(detached);

    const red = { answers: [{ id: 'colour', selected: ['Red'] }] };
    const blue = { answers: [{ id: 'colour', selected: ['Blue'] }] };
    expect(await client.answer(blocking, 'agent-a', red)).toMatchObject({ accepted: true });
    expect(await api(host, 'POST', `/questions/${detached}/answer`, { body: { sessionId: 'agent-b', answer: blue } })).toMatchObject({ status: 200 });
    const records = [await resumed.next(), await resumed.next()];
    expect(records).toEqual([
      expect.objectContaining({ rpcId: blocking, mode: 'blocking', outcome: 'answered', answer: red }),
      expect.objectContaining({ rpcId: detached, mode: 'detached', outcome: 'answered', answer: blue, state: { resumeAt: 'step-7' } }),
    ]);
    expect(await client.answer(blocking, 'agent-a', red)).toMatchObject({ accepted: false, reason: 'not-pending' });
    await host.close();
    expect(resumed.records).toHaveLength(2);
    expect(await host.store.listAwaitingResume()).toEqual([]);
  });
});
