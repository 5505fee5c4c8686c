import { approvalQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { agentAnswerer, WebSocketHostError, type AgentAnswerContext, type NotifyContext, type Route } from '../src/index.js';
import { cleanup, colourQuestion, redAnswer, startHost } from './fixture.js';
import { authenticatePeople, connectAs } from './routing-fixture.js';

afterEach(cleanup);

const auth = { token: undefined, authenticate: authenticatePeople };

/** On call first (alice, by name), the leads group after `after` ms. */
const onCallThenLeads =
  (after: number): Route =>
  () => [{ answerers: [{ principal: 'alice' }] }, { answerers: [{ group: 'leads' }], after }];

describe('routing: who may see and answer', () => {
  it('shows a routed question only to its tier-0 answerer, and refuses an outsider with forbidden, changing nothing', async () => {
    const test = await startHost({ ...auth, route: onCallThenLeads(60_000) });
    const alice = await connectAs(test, 'alice');
    const bob = await connectAs(test, 'bob');
    const asking = test.ask('agent-a');
    const requested = await alice.next('question/requested');

    // Hidden from bob: not delivered live…
    await bob.caughtUp();
    expect(bob.all('question/requested')).toEqual([]);
    // …and an answer by its rpcId is refused and records nothing.
    const refused = await bob.answer(requested.rpcId, 'agent-a', redAnswer);
    expect(refused).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect(refused.accepted === false && refused.detail).toContain('routed to other people');
    expect((await test.host.store.get(requested.rpcId))?.outcome).toBeUndefined();
    expect(test.host.pending().map((question) => question.rpcId)).toEqual([requested.rpcId]);

    expect(await alice.answer(requested.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking).toEqual(redAnswer);
  });

  it('lets a group answer once its tier is reached, and writes one escalated event (onEvent and the stored log)', async () => {
    const notified: NotifyContext[] = [];
    const test = await startHost({ ...auth, route: onCallThenLeads(1_500), notify: (_record, context) => void notified.push(context) });
    const carol = await connectAs(test, 'carol');
    const asking = test.ask('agent-a');
    const rpcId = (await waitForPending(test.host))[0]!.rpcId;

    // Before tier 1: carol (leads) is not yet an answerer.
    expect(await carol.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'forbidden' });
    // At tier 1 she is sent the question, and may answer it.
    const requested = await carol.next('question/requested');
    expect(requested.rpcId).toBe(rpcId);
    const escalated = await test.event('escalated');
    expect(escalated).toEqual({ type: 'escalated', rpcId, sessionId: 'agent-a', tier: 1, reason: 'after', answerers: ['group:leads'] });
    expect(await carol.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking).toEqual(redAnswer);

    const log = await test.host.store.readEvents('agent-a');
    expect(log.filter((event) => event.type === 'escalated').map((event) => event.data)).toEqual([{ tier: 1, reason: 'after', answerers: ['group:leads'] }]);
    // Notified as each tier was reached: tier 0 when asked, tier 1 at its time.
    expect(notified.map((context) => [context.tier, context.answerers])).toEqual([
      [0, [{ principal: 'alice' }]],
      [1, [{ group: 'leads' }]],
    ]);
  });

  it('keeps earlier tiers answerable after a later one is reached', async () => {
    const test = await startHost({ ...auth, route: onCallThenLeads(100) });
    const asking = test.ask('agent-a');
    const rpcId = (await waitForPending(test.host))[0]!.rpcId;
    await test.event('escalated');
    const alice = await connectAs(test, 'alice');
    expect(await alice.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking).toEqual(redAnswer);
  });

  it('hides a routed question from an outsider in the HTTP list too', async () => {
    const test = await startHost({ ...auth, route: onCallThenLeads(60_000) });
    test.ask('agent-a');
    await waitForPending(test.host);
    const list = async (name: string) => {
      const response = await fetch(`${test.host.url.replace('ws://', 'http://')}/questions?as=${name}`);
      return ((await response.json()) as { questions: unknown[] }).questions.length;
    };
    expect(await list('alice')).toBe(1);
    expect(await list('bob')).toBe(0);
  });

  it('refuses an ask whose route returns unusable tiers, asking nobody', async () => {
    const test = await startHost({ ...auth, route: () => [{ answerers: [] }] });
    const asked = await test.ask('agent-a').settled;
    expect(asked.ok).toBe(false);
    const error = asked.ok ? undefined : asked.error;
    expect(WebSocketHostError.isInstance(error) && error.code).toBe('INVALID_ROUTE');
    expect(test.host.pending()).toEqual([]);
    expect(await test.host.store.listPending('all')).toEqual([]);
  });

  it('leaves a question the route returns undefined for to anyone who can see its session', async () => {
    const test = await startHost({ ...auth, route: () => undefined });
    const bob = await connectAs(test, 'bob');
    const asking = test.ask('agent-a');
    const requested = await bob.next('question/requested');
    expect(await bob.answer(requested.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    expect(await asking).toEqual(redAnswer);
  });
});

describe('routing: agent answerers', () => {
  it('settles with an agent answer, recorded as agent:<name> in the log', async () => {
    const supervisor = agentAnswerer({ name: 'supervisor', answer: () => redAnswer });
    const test = await startHost({ ...auth, route: () => [{ answerers: [supervisor] }, { answerers: [{ principal: 'alice' }], after: 60_000 }] });
    expect(await test.ask('agent-a')).toEqual(redAnswer);
    const answered = await test.event('answered');
    expect(answered).toMatchObject({ principalId: 'agent:supervisor', channel: 'agent', answeredBy: { principalId: 'agent:supervisor', via: 'agent' } });
    expect((await test.host.store.get(answered.rpcId))?.answeredBy).toEqual({ principalId: 'agent:supervisor', via: 'agent' });
    await test.host.close();
    const log = await test.host.store.readEvents('agent-a');
    expect(log.find((event) => event.type === 'response_from_human')?.data).toMatchObject({ principalId: 'agent:supervisor', channel: 'agent' });
  });

  it('sends a misfit back once with askseam\'s problem text, and accepts the corrected answer', async () => {
    const contexts: AgentAnswerContext[] = [];
    const supervisor = agentAnswerer({
      name: 'supervisor',
      answer: (_questions, context) => {
        contexts.push(context);
        return context.feedback === undefined ? { answers: [{ id: 'colour', selected: ['Green'] }] } : redAnswer;
      },
    });
    const test = await startHost({ ...auth, route: () => [{ answerers: [supervisor] }] });
    expect(await test.ask('agent-a')).toEqual(redAnswer);
    expect(contexts).toHaveLength(2);
    expect(contexts[1]?.feedback).toContain('Green');
  });

  it('falls through to the next tier at once after a second misfit, and after a defer', async () => {
    for (const behaviour of ['misfit', 'defer'] as const) {
      let calls = 0;
      const supervisor = agentAnswerer({
        name: 'supervisor',
        answer: () => {
          calls++;
          return behaviour === 'defer' ? 'defer' : { answers: [{ id: 'colour', selected: ['Green'] }] };
        },
      });
      const test = await startHost({ ...auth, route: () => [{ answerers: [supervisor] }, { answerers: [{ principal: 'alice' }], after: 60_000 }] });
      const alice = await connectAs(test, 'alice');
      const asking = test.ask('agent-a');
      // Long before tier 1's 60 s: the agent gave up, so alice has it now.
      const requested = await alice.next('question/requested');
      expect(await test.event('escalated')).toMatchObject({ tier: 1, reason: 'fall-through', answerers: ['principal:alice'] });
      expect(calls).toBe(behaviour === 'defer' ? 1 : 2);
      expect(await alice.answer(requested.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
      expect(await asking).toEqual(redAnswer);
      await cleanup();
    }
  });

  it('never lets an agent answer a tool approval unless the intent allows agents', async () => {
    const approve = (questions: AskUserQuestionItem[]) => ({ answers: [{ id: questions[0]!.id, selected: ['Approve'] }] });
    let calls = 0;
    const supervisor = agentAnswerer({
      name: 'supervisor',
      answer: (questions) => {
        calls++;
        return approve(questions);
      },
    });
    const test = await startHost({ ...auth, route: () => [{ answerers: [supervisor] }, { answerers: [{ principal: 'alice' }], after: 60_000 }] });
    const approval = approvalQuestions({ tool: { name: 'deploy', input: { env: 'prod' } } });
    const alice = await connectAs(test, 'alice');
    const asking = test.ask('agent-a', approval);
    const requested = await alice.next('question/requested');
    expect(calls).toBe(0);
    await alice.respond(requested.rpcId, { ok: false, error: { code: 'cancelled' } });
    expect((await asking.settled).ok).toBe(false);

    // The same approval with allowAgents: the agent answers it.
    const allowed = approval.map((question) => (question.intent?.kind === 'tool-approval' ? { ...question, intent: { ...question.intent, allowAgents: true } } : question));
    expect(await test.ask('agent-a', allowed)).toEqual(approve(allowed));
    expect(calls).toBe(1);
  });
});

async function waitForPending(host: { pending(): { rpcId: string }[] }): Promise<{ rpcId: string }[]> {
  for (let i = 0; i < 200; i++) {
    const pending = host.pending();
    if (pending.length > 0) return pending;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no question became pending');
}

// colourQuestion is the default question of test.ask.
void colourQuestion;
