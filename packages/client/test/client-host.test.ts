// The whole path on real sockets: the model's tool call → the seam → the real WebSocket host →
// this client → the user's answer → the tool result the model reads.
import type { IncomingMessage } from 'node:http';
import { createWebSocketHost, type Principal, type WebSocketHost, type WebSocketHostOptions } from '@askseam/host-ws';
import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import { UserQuestions, hasUserQuestionErrorCode, type AgentRef, type AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { connectQuestions, parseRecommendedLabel, planReviewOf, type ConnectQuestionsOptions, type QuestionClient } from '../src/index.js';
import { nextEvent, record, recordStatuses, statusReached } from './events.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

const TOKEN = 'test-token-0123456789';
const alice: AgentRef = { id: 'agent-alice' };
const bob: AgentRef = { id: 'agent-bob' };

const modelArgs = {
  questions: [
    {
      id: 'db',
      question: 'Which database should the service use?',
      header: 'Database',
      options: [{ label: 'Postgres (Recommended)', description: 'Concurrent writers.' }, { label: 'SQLite' }],
    },
  ],
};
const postgres = { answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }] };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHost(options: Partial<WebSocketHostOptions> = {}): Promise<{ host: WebSocketHost; userQuestions: UserQuestions }> {
  const roots = [alice, bob];
  const userQuestions = new UserQuestions({ agents: { get: (id) => roots.find((agent) => agent.id === id), roots: () => roots } });
  const host = await createWebSocketHost({ userQuestions, token: TOKEN, ...options });
  cleanups.push(() => host.close());
  return { host, userQuestions };
}

async function startProxy(host: WebSocketHost): Promise<TcpProxy> {
  const proxy = await startTcpProxy(host.port);
  cleanups.push(() => proxy.close());
  return proxy;
}

function connect(url: string, options: Partial<ConnectQuestionsOptions> = {}): QuestionClient {
  const client = connectQuestions({ url, token: TOKEN, WebSocket, reconnect: { initialDelayMs: 10, maxDelayMs: 50 }, ...options });
  cleanups.push(() => client.close());
  return client;
}

async function connectOpen(url: string, options: Partial<ConnectQuestionsOptions> = {}): Promise<QuestionClient> {
  const client = connect(url, options);
  await statusReached(client, 'open');
  return client;
}

describe('client and real host', () => {
  it('carries a tool call to the client and the answer back into the tool result', async () => {
    const { host, userQuestions } = await startHost();
    const client = await connectOpen(host.url);
    const requested = nextEvent(client, 'requested');

    const result = executeAskUserQuestion(modelArgs, { userQuestions, agent: alice });
    const question = await requested;

    expect(question.sessionId).toBe('agent-alice');
    expect(question.questions[0]?.options?.map((option) => parseRecommendedLabel(option.label))).toEqual([
      { label: 'Postgres', recommended: true },
      { label: 'SQLite', recommended: false },
    ]);
    const resolved = nextEvent(client, 'resolved');
    await expect(question.answer(postgres)).resolves.toEqual({ rpcId: question.rpcId, accepted: true });
    expect(await resolved).toEqual({ rpcId: question.rpcId, sessionId: 'agent-alice', outcome: 'answered' });
    expect(client.pending.size).toBe(0);
    expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"db","selected":["Postgres (Recommended)"]}]}' });
  });

  it('dismisses a question: the tool result says ASK_CANCELLED and the client sees it resolved cancelled', async () => {
    const { host, userQuestions } = await startHost();
    const client = await connectOpen(host.url);
    const requested = nextEvent(client, 'requested');
    const result = executeAskUserQuestion(modelArgs, { userQuestions, agent: alice });
    const question = await requested;
    const resolved = nextEvent(client, 'resolved');

    await expect(question.cancel()).resolves.toEqual({ rpcId: question.rpcId, accepted: true });

    expect((await resolved).outcome).toBe('cancelled');
    expect(await result).toMatchObject({ isError: true, code: 'ASK_CANCELLED' });
  });

  it('hands a plan review over the wire intact, so planReviewOf claims it', async () => {
    const { host, userQuestions } = await startHost();
    const client = await connectOpen(host.url);
    const requested = nextEvent(client, 'requested');
    const review: AskUserQuestionItem = {
      id: 'plan-review',
      question: 'Approve this plan?',
      header: 'Plan review',
      detail: '# Plan\n\n1. Add the index.',
      options: [{ label: 'Approve' }, { label: 'Keep planning' }],
      intent: { kind: 'plan-review', approve: 'Approve' },
    };
    const asked = userQuestions.ask({ questions: [review], agent: alice });
    const question = await requested;

    const card = planReviewOf(question.questions);
    expect(card).toEqual({ id: 'plan-review', question: 'Approve this plan?', plan: '# Plan\n\n1. Add the index.', approve: 'Approve', decline: 'Keep planning' });
    await question.answer({ answers: [{ id: card!.id, selected: [card!.approve] }] });
    expect(await asked).toEqual({ answers: [{ id: 'plan-review', selected: ['Approve'] }] });
  });

  it('lets the first of two clients of one session win, and tells both it is resolved', async () => {
    const { host, userQuestions } = await startHost();
    const first = await connectOpen(host.url);
    const second = await connectOpen(host.url);
    const seenByFirst = nextEvent(first, 'requested');
    const seenBySecond = nextEvent(second, 'requested');
    const result = executeAskUserQuestion(modelArgs, { userQuestions, agent: alice });
    const [questionA, questionB] = await Promise.all([seenByFirst, seenBySecond]);
    expect(questionA.rpcId).toBe(questionB.rpcId);
    const resolvedA = nextEvent(first, 'resolved');
    const resolvedB = nextEvent(second, 'resolved');

    // Both go out before either receipt can come back; the host takes exactly one.
    const sqlite = { answers: [{ id: 'db', selected: ['SQLite'] }] };
    const [winner, loser] = await Promise.allSettled([questionA.answer(postgres), questionB.answer(sqlite)]);

    expect(winner).toEqual({ status: 'fulfilled', value: { rpcId: questionA.rpcId, accepted: true } });
    expect(loser).toMatchObject({ status: 'rejected', reason: { code: 'not-pending', rpcId: questionA.rpcId } });
    expect(await resolvedA).toMatchObject({ outcome: 'answered' });
    expect(await resolvedB).toMatchObject({ outcome: 'answered' });
    expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"db","selected":["Postgres (Recommended)"]}]}' });
  });

  it('never shows a client a question of a session it may not see', async () => {
    // Each user's token names them; each sees only their own agent's session.
    const users: Record<string, Principal> = {
      'alice-secret': { id: 'alice', canSee: (session) => session === alice.id, sessions: [alice.id] },
      'bob-secret': { id: 'bob', canSee: (session) => session === bob.id, sessions: [bob.id] },
    };
    const authenticate = (req: IncomingMessage) => users[new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? ''];
    const { host, userQuestions } = await startHost({ token: undefined, authenticate });
    const aliceClient = await connectOpen(host.url, { token: 'alice-secret' });
    const bobClient = await connectOpen(host.url, { token: 'bob-secret' });
    const bobSaw = record(bobClient, 'requested');
    const bobResolved = record(bobClient, 'resolved');

    const aliceSees = nextEvent(aliceClient, 'requested');
    const aliceResult = executeAskUserQuestion(modelArgs, { userQuestions, agent: alice });
    const aliceQuestion = await aliceSees;
    await expect(bobClient.answer(aliceQuestion.rpcId, postgres)).rejects.toMatchObject({ code: 'not-pending' });
    await aliceQuestion.answer(postgres);
    expect((await aliceResult).isError).toBe(false);

    // The host delivers in ask order, so once Bob has his own question he would have had Alice's.
    const bobSees = nextEvent(bobClient, 'requested');
    const bobResult = executeAskUserQuestion(modelArgs, { userQuestions, agent: bob });
    const bobQuestion = await bobSees;
    expect(bobSaw.map((question) => question.sessionId)).toEqual([bob.id]);
    expect(bobResolved).toEqual([]);
    expect(aliceClient.pending.has(bobQuestion.rpcId)).toBe(false);
    await bobQuestion.cancel();
    expect(await bobResult).toMatchObject({ code: 'ASK_CANCELLED' });
  });

  it('keeps the same question object (and the draft keyed by its rpcId) across a dropped connection', async () => {
    const { host, userQuestions } = await startHost();
    const proxy = await startProxy(host);
    const client = await connectOpen(proxy.via(host.url));
    const requestedEvents = record(client, 'requested');
    const drafts = new Map<string, { selected: string[] }>();

    const result = executeAskUserQuestion(modelArgs, { userQuestions, agent: alice });
    const question = await nextEvent(client, 'requested');
    drafts.set(question.rpcId, { selected: ['SQLite'] });

    const statuses = recordStatuses(client);
    proxy.cut();
    await statusReached(client, 'reconnecting');
    await statusReached(client, 'open');

    // The host replayed the question with its original rpcId; the client kept its object.
    expect(client.pending.get(question.rpcId)).toBe(question);
    const draft = drafts.get(question.rpcId)!;
    await expect(question.answer({ answers: [{ id: 'db', selected: draft.selected }] })).resolves.toMatchObject({ accepted: true });
    // The receipt came after the replay on the same socket, so the replay has been handled by now.
    expect(requestedEvents).toEqual([question]);
    expect(statuses).toEqual(['reconnecting', 'open']);
    expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"db","selected":["SQLite"]}]}' });
  });

  it('reports a question answered elsewhere while it was disconnected as gone', async () => {
    const { host, userQuestions } = await startHost();
    const proxy = await startProxy(host);
    const away = await connectOpen(proxy.via(host.url));
    const present = await connectOpen(host.url);
    const awaySees = nextEvent(away, 'requested');
    const presentSees = nextEvent(present, 'requested');
    const result = executeAskUserQuestion(modelArgs, { userQuestions, agent: alice });
    const [question] = await Promise.all([awaySees, presentSees]);

    proxy.block();
    proxy.cut();
    await statusReached(away, 'reconnecting');
    await present.answer(question.rpcId, postgres);
    expect((await result).isError).toBe(false);
    const gone = nextEvent(away, 'resolved');
    proxy.unblock();

    expect(await gone).toEqual({ rpcId: question.rpcId, sessionId: 'agent-alice', outcome: 'gone' });
    expect(away.pending.size).toBe(0);
  });

  it('stays out with a wrong token: connection-failed errors, retries, and never a question', async () => {
    const { host, userQuestions } = await startHost();
    const client = connect(host.url, { token: 'not-the-token' });
    const statuses = recordStatuses(client);
    const controller = new AbortController();
    const result = executeAskUserQuestion(modelArgs, { userQuestions, agent: alice, signal: controller.signal });

    const firstFailure = await nextEvent(client, 'error');
    expect(firstFailure).toMatchObject({ code: 'connection-failed' });
    expect(firstFailure.detail).toContain('401');
    await nextEvent(client, 'error', (error) => error.code === 'connection-failed'); // and it keeps trying

    expect(client.status).toBe('reconnecting');
    expect(statuses).not.toContain('open');
    expect(client.pending.size).toBe(0);
    expect(host.pending()).toHaveLength(1);
    controller.abort();
    expect(await result).toMatchObject({ isError: true, code: 'ASK_ABORTED' });
  });

  it('sees pending questions resolved cancelled when the host closes, while the ask fails ASK_ABORTED', async () => {
    const { host, userQuestions } = await startHost();
    const client = await connectOpen(host.url);
    const requested = nextEvent(client, 'requested');
    const asked = userQuestions.ask({ questions: [{ id: 'go', question: 'Go on?' }], agent: alice }).catch((error: unknown) => error);
    const question = await requested;
    const resolved = nextEvent(client, 'resolved');
    const reconnecting = statusReached(client, 'reconnecting');

    await host.close();

    expect(await resolved).toEqual({ rpcId: question.rpcId, sessionId: 'agent-alice', outcome: 'cancelled' });
    expect(hasUserQuestionErrorCode(await asked, 'ASK_ABORTED')).toBe(true);
    await reconnecting;
  });
});
