// Quorum approvals through the host: people as separate authenticated sockets, each Approve one
// vote, any Deny settling it, and the asker told who decided.
import type { IncomingMessage } from 'node:http';
import { MemoryQuestionStore, type QuestionStore } from '@askseam/store';
import { askApproval, type ApprovalQuorum } from '@askseam/user-questions';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askApprovalDetached, WebSocketHostError, type ChannelQuestion, type ChannelSettlement, type Principal } from '../src/index.js';
import { cleanup, startHost } from './fixture.js';

afterEach(cleanup);

const tool = { name: 'migrate_db', input: { database: 'prod', migration: '0042_add_index' } };
const approve = { answers: [{ id: 'tool-approval', selected: ['Approve'] }] };
const deny = (reason: string) => ({ answers: [{ id: 'tool-approval', selected: [], custom: reason }] });

/** Who each `?user=` is: alex and sam are DBAs, kim is not. */
const people: Record<string, string[]> = { alex: ['dba'], sam: ['dba'], kim: ['dev'] };
function authenticate(req: IncomingMessage): Principal | undefined {
  const user = new URL(req.url ?? '/', 'http://host').searchParams.get('user');
  if (user === null || people[user] === undefined) return undefined;
  return { id: user, canSee: () => true, groups: people[user] };
}

async function quorumHost(store?: QuestionStore) {
  const testHost = await startHost({ token: undefined, authenticate, ...(store === undefined ? {} : { store }) }, ['agent-a']);
  const as = (user: string) => testHost.connect({ query: `user=${user}` });
  const ask = (quorum: ApprovalQuorum) => askApproval(testHost.userQuestions, { tool, quorum, agent: testHost.agent('agent-a') });
  return { ...testHost, as, ask };
}

describe('quorum approvals', () => {
  it('counts each person once, shows the progress to everyone, and settles approved with every approver listed', async () => {
    const { as, host, events, event, ask } = await quorumHost();
    const [alex, sam, kim] = [await as('alex'), await as('sam'), await as('kim')];
    const decision = ask({ approvals: 2 });
    const { rpcId } = await alex.next('question/requested');
    await sam.next('question/requested');
    await kim.next('question/requested');

    const first = await alex.answer(rpcId, 'agent-a', approve);
    expect(first).toEqual({ type: 'receipt', id: expect.any(String), rpcId, accepted: true, votes: [{ principalId: 'alex', via: 'websocket' }] });
    expect((await event('voted')).approvals).toBe(1);
    // Everyone who sees the session gets the question again with its progress.
    expect(await sam.next('question/requested', (frame) => frame.votes !== undefined)).toMatchObject({ rpcId, votes: [{ principalId: 'alex' }] });
    // The same person again is one vote: accepted, nothing counted.
    expect(await alex.answer(rpcId, 'agent-a', approve)).toMatchObject({ accepted: true, votes: [{ principalId: 'alex' }] });
    expect(host.pending()).toHaveLength(1);

    expect(await kim.answer(rpcId, 'agent-a', approve)).toEqual({ type: 'receipt', id: expect.any(String), rpcId, accepted: true });
    await expect(decision).resolves.toEqual({
      approved: true,
      by: [
        { principalId: 'alex', via: 'websocket' },
        { principalId: 'kim', via: 'websocket' },
      ],
    });
    expect(events.filter((each) => each.type === 'voted')).toHaveLength(1);
    expect(await sam.next('question/resolved')).toMatchObject({ rpcId, outcome: 'answered' });
  });

  it('settles denied at the first Deny with that person\'s reason, votes before it kept', async () => {
    const store = new MemoryQuestionStore();
    const { as, ask } = await quorumHost(store);
    const [alex, sam] = [await as('alex'), await as('sam')];
    const decision = ask({ approvals: 2 });
    const { rpcId } = await alex.next('question/requested');
    await alex.answer(rpcId, 'agent-a', approve);
    expect(await sam.answer(rpcId, 'agent-a', deny('Not during the sale.'))).toMatchObject({ accepted: true });
    expect(await decision).toMatchObject({ approved: false, reason: 'Not during the sale.' });
    const record = await store.get(rpcId);
    expect(record?.votes?.map((vote) => vote.principalId)).toEqual(['alex']);
    const log = await store.readEvents('agent-a');
    expect(log.map((each) => each.type)).toEqual(expect.arrayContaining(['vote_cast', 'response_from_human']));
    expect(log.find((each) => each.type === 'vote_cast')?.data).toEqual({ principalId: 'alex', channel: 'websocket', approvals: 1, needed: 2 });
  });

  it('lets only the approvers quorum.from names respond; anyone else is forbidden and changes nothing', async () => {
    const { as, host, ask } = await quorumHost();
    const [alex, kim] = [await as('alex'), await as('kim')];
    const decision = ask({ approvals: 1, from: [{ group: 'dba' }] });
    const { rpcId } = await kim.next('question/requested');
    await alex.next('question/requested');
    for (const result of [approve, deny('no')]) {
      expect(await kim.answer(rpcId, 'agent-a', result)).toMatchObject({ accepted: false, reason: 'forbidden', detail: expect.stringContaining('quorum.from') });
    }
    expect(await kim.respond(rpcId, { ok: false, error: { code: 'cancelled' } })).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect(host.pending()).toHaveLength(1);
    await alex.answer(rpcId, 'agent-a', approve);
    expect(await decision).toEqual({ approved: true, by: [{ principalId: 'alex', via: 'websocket' }] });
  });

  it('refuses a quorum approval on a store without vote() with QUORUM_UNSUPPORTED, asking nobody', async () => {
    const memory = new MemoryQuestionStore();
    const withoutVote: QuestionStore = {
      save: (record) => memory.save(record),
      claim: (...args) => memory.claim(...args),
      get: (rpcId) => memory.get(rpcId),
      listPending: (sessions) => memory.listPending(sessions),
      listAwaitingResume: () => memory.listAwaitingResume(),
      markResumed: (rpcId) => memory.markResumed(rpcId),
      appendEvent: (event) => memory.appendEvent(event),
      readEvents: (sessionId, options) => memory.readEvents(sessionId, options),
    };
    const { host, ask } = await quorumHost(withoutVote);
    const error: unknown = await ask({ approvals: 2 }).catch((rejection: unknown) => rejection);
    expect(WebSocketHostError.isInstance(error) && error.code).toBe('QUORUM_UNSUPPORTED');
    const detached: unknown = await askApprovalDetached(host, { sessionId: 'agent-a', tool, quorum: { approvals: 2 } }).catch((rejection: unknown) => rejection);
    expect(WebSocketHostError.isInstance(detached) && detached.code).toBe('QUORUM_UNSUPPORTED');
    expect(host.pending()).toEqual([]);
    expect(await memory.listPending('all')).toEqual([]);
  });

  it('takes votes from a channel through the same judge: from names its destination, progress reaches the channel, and the record says who', async () => {
    const { as, host, ask } = await quorumHost();
    const seen: ChannelQuestion[] = [];
    const progress: ChannelQuestion[] = [];
    const ended: ChannelSettlement[] = [];
    const slack = host.openChannel({ via: 'slack', onQuestion: (question) => seen.push(question), onVotes: (question) => progress.push(question), onSettled: (settlement) => ended.push(settlement) });
    const alex = await as('alex');
    const decision = ask({ approvals: 2, from: [{ channel: 'slack:C0DBA' }, { principal: 'alex' }] });
    const { rpcId } = await alex.next('question/requested');
    await vi.waitFor(() => expect(seen.map((question) => question.rpcId)).toEqual([rpcId]));

    // Posted in another Slack channel: not one the approval names.
    const elsewhere = await slack.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: approve } }, { user: 'U0SAM', destination: 'slack:C0RANDOM' });
    expect(elsewhere).toMatchObject({ accepted: false, reason: 'forbidden' });
    const counted = await slack.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: approve } }, { user: 'U0SAM', principalId: 'sam', destination: 'slack:C0DBA' });
    expect(counted).toEqual({ type: 'receipt', rpcId, accepted: true, votes: [{ principalId: 'sam', via: 'slack', user: 'U0SAM' }] });
    expect(progress.map((question) => question.votes)).toEqual([[{ principalId: 'sam', via: 'slack', user: 'U0SAM', destination: 'slack:C0DBA' }]]);
    expect(await alex.next('question/requested', (frame) => frame.votes !== undefined)).toMatchObject({ votes: [{ principalId: 'sam', via: 'slack', user: 'U0SAM' }] });

    await alex.answer(rpcId, 'agent-a', approve);
    expect(await decision).toEqual({
      approved: true,
      by: [
        { principalId: 'sam', via: 'slack', user: 'U0SAM', destination: 'slack:C0DBA' },
        { principalId: 'alex', via: 'websocket' },
      ],
    });
    await vi.waitFor(() => expect(ended).toMatchObject([{ rpcId, outcome: 'answered', answeredBy: { principalId: 'alex', via: 'websocket' } }]));
  });
});
