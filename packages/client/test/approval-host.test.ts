// An approval on real sockets: askApproval → the seam → the real WebSocket host → this client,
// which shows it as an approval (approvalOf) and answers as a person would.
import { createWebSocketHost } from '@askseam/host-ws';
import { askApproval, UserQuestions, type AgentRef, type ApprovalDecision } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { approvalOf, connectQuestions, type PendingQuestion } from '../src/index.js';
import { nextEvent, statusReached } from './events.js';

const TOKEN = 'approval-token-0123456789';
const agent: AgentRef = { id: 'agent-coder' };
const tool = { name: 'drop_table', input: { table: 'sessions', cascade: true }, description: 'Drops a database table.' };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

/** A real host with one live root agent, a real client connected to it, and an approval on its way. */
async function approvalAsked(options: { timeoutMs?: number } = {}): Promise<{ pending: PendingQuestion; decision: Promise<ApprovalDecision> }> {
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const host = await createWebSocketHost({ userQuestions, token: TOKEN });
  cleanups.push(() => host.close());
  const client = connectQuestions({ url: host.url, token: TOKEN, WebSocket });
  cleanups.push(() => client.close());
  await statusReached(client, 'open');
  const requested = nextEvent(client, 'requested');
  const decision = askApproval(userQuestions, { tool, reason: 'Cleaning up after the migration.', agent, ...options });
  // Observed at once, so a test that expects a rejection leaves none unhandled.
  decision.catch(() => undefined);
  return { pending: await requested, decision };
}

describe('askApproval with a real host and client', () => {
  it('reaches the client as an approval card and resolves approved when the person approves', async () => {
    const { pending, decision } = await approvalAsked();
    const card = approvalOf(pending.questions);
    expect(card).toMatchObject({ toolName: 'drop_table', toolDescription: 'Drops a database table.', input: tool.input, approve: 'Approve', deny: 'Deny', reason: 'Cleaning up after the migration.' });
    await pending.answer({ answers: [{ id: card!.id, selected: [card!.approve] }] });
    await expect(decision).resolves.toEqual({ approved: true, by: [{ principalId: 'token', via: 'websocket' }] });
  });

  it('resolves denied with the reason typed on the client', async () => {
    const { pending, decision } = await approvalAsked();
    await pending.answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'Sessions are still read by the old app.' }] });
    await expect(decision).resolves.toEqual({ approved: false, reason: 'Sessions are still read by the old app.', by: [{ principalId: 'token', via: 'websocket' }] });
  });

  it('resolves denied without a reason when the person presses Deny', async () => {
    const { pending, decision } = await approvalAsked();
    await pending.answer({ answers: [{ id: 'tool-approval', selected: ['Deny'] }] });
    await expect(decision).resolves.toEqual({ approved: false, by: [{ principalId: 'token', via: 'websocket' }] });
  });

  it('rejects ASK_CANCELLED when the person dismisses it', async () => {
    const { pending, decision } = await approvalAsked();
    await pending.cancel();
    await expect(decision).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
  });

  it('rejects ASK_TIMEOUT when nobody answers in time', async () => {
    const { decision } = await approvalAsked({ timeoutMs: 50 });
    await expect(decision).rejects.toMatchObject({ code: 'ASK_TIMEOUT' });
  });
});

describe('a quorum approval with two real clients', () => {
  it('keeps the question pending for the first approver, shows both clients the progress, and resolves with both approvers', async () => {
    const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
    const host = await createWebSocketHost({
      userQuestions,
      authenticate: (req) => {
        const user = new URL(req.url ?? '/', 'http://host').searchParams.get('user');
        return user === null ? undefined : { id: user, canSee: () => true };
      },
    });
    cleanups.push(() => host.close());
    const [alex, sam] = ['alex', 'sam'].map((user) => {
      const client = connectQuestions({ url: `${host.url}?user=${user}`, WebSocket });
      cleanups.push(() => client.close());
      return client;
    }) as [ReturnType<typeof connectQuestions>, ReturnType<typeof connectQuestions>];
    await Promise.all([statusReached(alex, 'open'), statusReached(sam, 'open')]);
    const shown = Promise.all([nextEvent(alex, 'requested'), nextEvent(sam, 'requested')]);
    const decision = askApproval(userQuestions, { tool, agent, quorum: { approvals: 2 } });
    const [forAlex, forSam] = await shown;
    expect(forAlex.votes).toBeUndefined();

    const samSees = nextEvent(sam, 'votes');
    const receipt = await forAlex.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });
    expect(receipt).toEqual({ rpcId: forAlex.rpcId, accepted: true, votes: [{ principalId: 'alex', via: 'websocket' }] });
    // Still pending for alex: his vote is in, the question is not over.
    expect(alex.pending.get(forAlex.rpcId)?.votes).toEqual([{ principalId: 'alex', via: 'websocket' }]);
    expect(await samSees).toBe(forSam);
    expect(forSam.votes).toEqual([{ principalId: 'alex', via: 'websocket' }]);

    const alexSeesEnd = nextEvent(alex, 'resolved');
    await forSam.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });
    await expect(decision).resolves.toEqual({
      approved: true,
      by: [
        { principalId: 'alex', via: 'websocket' },
        { principalId: 'sam', via: 'websocket' },
      ],
    });
    expect(await alexSeesEnd).toMatchObject({ rpcId: forAlex.rpcId, outcome: 'answered' });
    expect(sam.pending.size).toBe(0);
  });
});
