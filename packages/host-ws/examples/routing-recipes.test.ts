// Each recipe of docs/routing.md on a real host, with people on their own authenticated sockets.
import { approvalQuestions } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, colourQuestion, redAnswer, startHost } from '../test/fixture.js';
import { connectAs } from '../test/routing-fixture.js';
import { onCallEscalation, productionApprovals, supervisor, supervisorFirst } from './routing-recipes.js';
import type { IncomingMessage } from 'node:http';
import type { Principal } from '@askseam/host-ws';

afterEach(cleanup);

const groups: Record<string, string[]> = { olga: ['oncall'], lena: [], pat: ['prod-approvers'], sam: [] };
const authenticate = (req: IncomingMessage): Principal | undefined => {
  const name = new URL(req.url ?? '/', 'http://x').searchParams.get('as') ?? '';
  return groups[name] === undefined ? undefined : { id: name, canSee: () => true, groups: groups[name] };
};

describe('docs/routing.md recipes', () => {
  it('on-call escalation: the on-call group first, the lead once the time passes', async () => {
    const test = await startHost({ token: undefined, authenticate, route: onCallEscalation({ lead: 'lena', afterMs: 1_500 }) });
    const olga = await connectAs(test, 'olga');
    const lena = await connectAs(test, 'lena');
    const asking = test.ask('agent-a');
    const { rpcId } = await olga.next('question/requested');
    expect(await lena.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect((await lena.next('question/requested')).rpcId).toBe(rpcId);
    expect(await lena.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking).toEqual(redAnswer);
  });

  it('production approvals: only prod-approvers see and answer them; other questions stay unrouted', async () => {
    const test = await startHost({ token: undefined, authenticate, route: productionApprovals });
    const pat = await connectAs(test, 'pat');
    const sam = await connectAs(test, 'sam');
    const approving = test.ask('agent-a', approvalQuestions({ tool: { name: 'migrate', input: { env: 'production' } } }));
    const { rpcId } = await pat.next('question/requested');
    expect(await sam.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'tool-approval', selected: ['Approve'] }] } } })).toMatchObject({ accepted: false, reason: 'forbidden' });
    await pat.respond(rpcId, { ok: false, error: { code: 'cancelled' } });
    expect((await approving.settled).ok).toBe(false);
    // A plain question is anyone's.
    const asking = test.ask('agent-a', [colourQuestion]);
    const plain = await sam.next('question/requested');
    expect(await sam.answer(plain.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking).toEqual(redAnswer);
  });

  it('supervisor first: the agent answers what it knows and passes the rest to the person at once', async () => {
    const test = await startHost({ token: undefined, authenticate, route: supervisorFirst(supervisor, 'lena') });
    const lena = await connectAs(test, 'lena');
    const database = { id: 'database', question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] };
    expect(await test.ask('agent-a', [database])).toEqual({ answers: [{ id: 'database', selected: ['Postgres'] }] });
    const asking = test.ask('agent-a', [colourQuestion]);
    const { rpcId } = await lena.next('question/requested');
    expect(await lena.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking).toEqual(redAnswer);
  });
});
