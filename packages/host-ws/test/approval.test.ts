// The detached twin of askApproval: an approval saved with the caller's state, answered after a
// restart on the same SQLite file, and read back in onResume.
import type { QuestionRecord } from '@askseam/store';
import { UserQuestionError } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalFromRecord, askApprovalDetached, type WebSocketHostOptions } from '../src/index.js';
import { cleanupDurable, openSqlite, resumeRecorder, tempDbFile } from './durable-fixture.js';
import { cleanup, colourQuestion, startHost } from './fixture.js';

afterEach(async () => {
  await cleanup();
  await cleanupDurable();
});

const tool = { name: 'deploy', input: { service: 'api', version: '1.4.0', regions: ['eu-west'] }, description: 'Deploys a service.' };
const state = { run: 'serialised-run-state', callId: 'call_7' };

async function hostOn(file: string, extra: Partial<WebSocketHostOptions> = {}) {
  const store = openSqlite(file);
  const resumed = resumeRecorder();
  const testHost = await startHost({ store, onResume: resumed.onResume, ...extra });
  return { ...testHost, store, resumed };
}

describe('askApprovalDetached and approvalFromRecord', () => {
  it('survives a restart: the person denies with a reason, and onResume reads the decision, the tool and the state', async () => {
    const file = tempDbFile();
    const before = await hostOn(file);
    const { rpcId } = await askApprovalDetached(before.host, { sessionId: 'agent-a', tool, reason: 'Release day.', state, urgency: 'high' });
    await before.host.close();
    await before.store.close();

    const after = await hostOn(file);
    const client = await after.connect();
    const requested = await client.next('question/requested');
    expect(requested).toMatchObject({ rpcId, urgency: 'high', questions: [{ id: 'tool-approval', detail: 'Release day.', intent: { kind: 'tool-approval', approve: 'Approve', tool } }] });
    expect(await client.answer(rpcId, 'agent-a', { answers: [{ id: 'tool-approval', selected: [], custom: 'Not before the freeze ends.' }] })).toMatchObject({ accepted: true });

    const record = await after.resumed.next();
    expect(approvalFromRecord(record)).toEqual({
      rpcId,
      tool,
      state,
      outcome: 'answered',
      decision: { approved: false, reason: 'Not before the freeze ends.' },
    });
  });

  it('reads Approve as approved', async () => {
    const { host, connect, resumed } = await hostOn(tempDbFile());
    const { rpcId } = await askApprovalDetached(host, { sessionId: 'agent-a', tool, lang: 'zh' });
    const client = await connect();
    await client.next('question/requested');
    await client.answer(rpcId, 'agent-a', { answers: [{ id: 'tool-approval', selected: ['批准'] }] });
    expect(approvalFromRecord(await resumed.next())).toMatchObject({ outcome: 'answered', decision: { approved: true } });
  });

  it('reads a dismissal as cancelled, never as a denial', async () => {
    const { host, connect, resumed } = await hostOn(tempDbFile());
    const { rpcId } = await askApprovalDetached(host, { sessionId: 'agent-a', tool, state });
    const client = await connect();
    await client.next('question/requested');
    await client.respond(rpcId, { ok: false, error: { code: 'cancelled' } });
    const read = approvalFromRecord(await resumed.next());
    expect(read).toEqual({ rpcId, tool, state, outcome: 'cancelled' });
    expect(read).not.toHaveProperty('decision');
  });

  it('refuses an input that is not JSON with BAD_INTENT, and saves nothing', async () => {
    const { host } = await hostOn(tempDbFile());
    const error: unknown = await askApprovalDetached(host, { sessionId: 'agent-a', tool: { name: 'deploy', input: { at: new Date(0) } } }).catch((rejection: unknown) => rejection);
    expect(UserQuestionError.isInstance(error) && error.code).toBe('BAD_INTENT');
    expect((error as Error).message).toContain('tool.input.at is an instance of Date');
    expect(host.pending()).toEqual([]);
  });

  it('refuses a blank tool name with BAD_INTENT through askDetached itself', async () => {
    const { host } = await hostOn(tempDbFile());
    const questions = [{ id: 'q', question: 'Run?', options: [{ label: 'Yes' }], intent: { kind: 'tool-approval' as const, approve: 'Yes', tool: { name: ' ', input: {} } } }];
    await expect(host.askDetached({ sessionId: 'agent-a', questions })).rejects.toMatchObject({ code: 'BAD_INTENT', message: expect.stringContaining('blank tool.name') });
  });

  it('keeps its own copy of the input: the caller changing it afterwards changes nothing shown', async () => {
    const { host, connect } = await hostOn(tempDbFile());
    const input = { service: 'api' };
    await askApprovalDetached(host, { sessionId: 'agent-a', tool: { name: 'deploy', input } });
    input.service = 'database';
    const client = await connect();
    expect((await client.next('question/requested')).questions[0]?.intent).toMatchObject({ tool: { input: { service: 'api' } } });
  });

  it('leaves records that are not approvals alone', () => {
    const record: QuestionRecord = {
      rpcId: 'r1',
      sessionId: 's',
      askedBy: 's',
      askedAt: new Date(0).toISOString(),
      questions: [colourQuestion],
      mode: 'detached',
      outcome: 'answered',
      answer: { answers: [{ id: 'colour', selected: ['Blue'] }] },
    };
    expect(approvalFromRecord(record)).toBeUndefined();
  });
});
