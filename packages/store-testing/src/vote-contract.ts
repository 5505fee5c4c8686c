// The contract of the optional `QuestionStore.vote` (quorum approvals), registered by
// describeQuestionStoreContract for a store that has it. Kept apart so that contract.ts stays one
// screenful per topic.
import { expect, it, type TestContext } from 'vitest';
import type { QuestionStore, VoteResult } from '@askseam/store';
import { questionStoreErrorCode } from './error-code.js';
import { sampleQuestionRecord } from './sample.js';

const approve = { answers: [{ id: 'deploy', selected: ['Yes'] }] };
const deny = { answers: [{ id: 'deploy', selected: ['No'] }] };
const voter = (principalId: string, more: { via?: string; user?: string; destination?: string } = {}) => ({ principalId, via: 'websocket', ...more });

/** Register the vote tests; `fresh` makes an empty store for one test. */
export function describeVoteContract(fresh: () => Promise<QuestionStore>): void {
  async function storeWithVote(context: TestContext): Promise<QuestionStore & Required<Pick<QuestionStore, 'vote'>>> {
    const store = await fresh();
    if (store.vote === undefined) context.skip();
    return store as QuestionStore & Required<Pick<QuestionStore, 'vote'>>;
  }

  it('counts distinct approvals on the pending record and settles with the n-th, listing every approver in order', async (context) => {
    const store = await storeWithVote(context);
    const record = sampleQuestionRecord();
    await store.save(record);
    const first = await store.vote(record.rpcId, { voter: voter('alex', { via: 'slack', user: 'U0ALEX', destination: 'slack:C0123' }), approvals: 2, answer: approve });
    expect(first.kind).toBe('counted');
    const pending = await store.get(record.rpcId);
    expect(pending?.outcome).toBeUndefined();
    expect(pending?.votes).toEqual([{ principalId: 'alex', via: 'slack', user: 'U0ALEX', destination: 'slack:C0123', at: expect.any(String) }]);
    expect((await store.listPending('all')).map((each) => each.votes?.length)).toEqual([1]);

    const second = await store.vote(record.rpcId, { voter: voter('sam'), approvals: 2, answer: approve });
    expect(second.kind).toBe('settled');
    const settled = (second as Extract<VoteResult, { kind: 'settled' }>).record;
    // The settling vote's voter is who answered, as with any response.
    expect(settled).toMatchObject({ rpcId: record.rpcId, outcome: 'answered', answer: approve, settledAt: expect.any(String), answeredBy: { principalId: 'sam', via: 'websocket' } });
    expect(settled.votes?.map((vote) => vote.principalId)).toEqual(['alex', 'sam']);
    expect(await store.get(record.rpcId)).toEqual(settled);
    expect(await store.listPending('all')).toEqual([]);
    // Each counted vote's audit event, appended with it.
    const events = await store.readEvents(record.sessionId);
    expect(events.map(({ type, rpcId, data }) => ({ type, rpcId, data }))).toEqual([
      { type: 'vote_cast', rpcId: record.rpcId, data: { principalId: 'alex', channel: 'slack', user: 'U0ALEX', destination: 'slack:C0123', approvals: 1, needed: 2 } },
      { type: 'vote_cast', rpcId: record.rpcId, data: { principalId: 'sam', channel: 'websocket', approvals: 2, needed: 2 } },
    ]);
    expect((await store.listAwaitingResume()).map((each) => each.rpcId)).toEqual([record.rpcId]);
  });

  it('counts the same principal once: a second vote is repeated and changes nothing', async (context) => {
    const store = await storeWithVote(context);
    const record = sampleQuestionRecord();
    await store.save(record);
    await store.vote(record.rpcId, { voter: voter('alex'), approvals: 2, answer: approve });
    const before = await store.get(record.rpcId);
    const again = await store.vote(record.rpcId, { voter: voter('alex', { via: 'http' }), approvals: 2, answer: approve });
    expect(again.kind).toBe('repeated');
    expect(await store.get(record.rpcId)).toEqual(before);
    expect(await store.readEvents(record.sessionId)).toHaveLength(1);
  });

  it('settles at once for a quorum of one', async (context) => {
    const store = await storeWithVote(context);
    const record = sampleQuestionRecord();
    await store.save(record);
    expect((await store.vote(record.rpcId, { voter: voter('alex'), approvals: 1, answer: approve })).kind).toBe('settled');
  });

  it('is not-pending for an unknown rpcId and for a settled question, and a claim keeps the votes cast before it', async (context) => {
    const store = await storeWithVote(context);
    expect(await store.vote('nope', { voter: voter('alex'), approvals: 2, answer: approve })).toEqual({ kind: 'not-pending' });
    const record = sampleQuestionRecord();
    await store.save(record);
    await store.vote(record.rpcId, { voter: voter('alex'), approvals: 3, answer: approve });
    // A deny settles through an ordinary claim.
    const denied = await store.claim(record.rpcId, 'answered', deny);
    expect(denied?.votes?.map((vote) => vote.principalId)).toEqual(['alex']);
    expect(await store.vote(record.rpcId, { voter: voter('sam'), approvals: 3, answer: approve })).toEqual({ kind: 'not-pending' });
    expect((await store.get(record.rpcId))?.answer).toEqual(deny);
  });

  it('of many concurrent votes keeps each distinct one and settles exactly once', async (context) => {
    const store = await storeWithVote(context);
    const record = sampleQuestionRecord();
    await store.save(record);
    const people = ['a', 'b', 'c', 'd', 'e', 'a', 'b'];
    const results = await Promise.all(people.map((person) => store.vote(record.rpcId, { voter: voter(person), approvals: 3, answer: approve })));
    expect(results.filter((result) => result.kind === 'settled')).toHaveLength(1);
    const stored = await store.get(record.rpcId);
    expect(stored?.outcome).toBe('answered');
    const approvers = stored?.votes?.map((vote) => vote.principalId) ?? [];
    expect(approvers).toHaveLength(3);
    expect(new Set(approvers).size).toBe(3);
    const logged = (await store.readEvents(record.sessionId)).map((event) => (event.data as { principalId: string }).principalId);
    expect(logged).toEqual(approvers);
  });

  it('refuses a bad request with INVALID_INPUT, changing nothing', async (context) => {
    const store = await storeWithVote(context);
    const record = sampleQuestionRecord();
    await store.save(record);
    const bad = [
      { voter: { principalId: '', via: 'websocket' }, approvals: 2, answer: approve },
      { voter: voter('alex', { via: 'Not A Via' }), approvals: 2, answer: approve },
      { voter: voter('alex'), approvals: 0, answer: approve },
      { voter: voter('alex'), approvals: 1, answer: { answers: 'yes' } },
    ];
    for (const request of bad) expect(await questionStoreErrorCode(store.vote(record.rpcId, request as never))).toBe('INVALID_INPUT');
    expect(await store.get(record.rpcId)).toEqual(record);
    expect(await store.readEvents(record.sessionId)).toEqual([]);
  });
}
