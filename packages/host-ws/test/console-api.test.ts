// The operator console's HTTP API with real principals: operators see every session and act;
// a session's own user, a one-question link and the users' shared token get 403; nobody else gets in.
import { writeFile, mkdtemp } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryQuestionBusHub, MemoryQuestionStore } from '@askseam/store';
import { UserQuestionError, hasUserQuestionErrorCode } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketHostError, type Principal, type WebSocketHost } from '../src/index.js';
import { cleanup, colourQuestion, redAnswer, startHost, TOKEN } from './fixture.js';

afterEach(cleanup);

const SECRET = 'a-link-secret-of-at-least-32-bytes!!';

/** `Bearer operator-<name>` is an operator; `Bearer user-of-<session>` sees that one session; `Bearer fake-<name>` claims operator with a truthy look-alike. */
function authenticate(req: IncomingMessage): Principal | undefined {
  const header = req.headers.authorization ?? '';
  const operator = /^Bearer operator-(\S+)$/.exec(header)?.[1];
  if (operator !== undefined) return { id: `operator-${operator}`, canSee: () => false, operator: true };
  const session = /^Bearer user-of-(\S+)$/.exec(header)?.[1];
  if (session !== undefined) return { id: `user-of-${session}`, canSee: (id) => id === session, sessions: [session] };
  const fake = /^Bearer fake-(\S+)$/.exec(header)?.[1];
  if (fake !== undefined) return { id: fake, canSee: () => true, operator: 'yes' as unknown as true };
  return undefined;
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function call(host: WebSocketHost, method: string, route: string, options: { bearer?: string; query?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.bearer === undefined ? {} : { authorization: `Bearer ${options.bearer}` }), ...options.headers };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const base = host.url.replace(/^ws:/, 'http:');
  const response = await fetch(`${base}${route}${options.query ?? ''}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

async function consoleHost(options: Parameters<typeof startHost>[0] = {}) {
  return startHost({ token: undefined, authenticate, linkSecret: SECRET, linkBaseUrl: 'https://app.example/answer', ...options });
}

async function waitSaved(host: WebSocketHost, count: number): Promise<string[]> {
  await expect.poll(async () => (await host.store.listPending('all')).length).toBe(count);
  return host.pending().map((question) => question.rpcId);
}

describe('who may open the console', () => {
  it('lets an operator in, and gives a session user, a truthy look-alike and a one-question link 403 and no credentials 401', async () => {
    const test = await consoleHost();
    void test.ask('agent-a').settled;
    const [rpcId] = await waitSaved(test.host, 1);
    const link = new URL(test.host.linkFor(rpcId!)).searchParams.get('link')!;

    const operator = await call(test.host, 'GET', '/console/api/pending', { bearer: 'operator-ann' });
    expect(operator.status).toBe(200);
    for (const bearer of ['user-of-agent-a', 'fake-mallory']) {
      const refused = await call(test.host, 'GET', '/console/api/pending', { bearer });
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ error: { code: 'forbidden', message: expect.stringContaining('operators only') } });
    }
    expect((await call(test.host, 'GET', '/console/api/pending', { query: `?link=${link}` })).status).toBe(403);
    expect((await call(test.host, 'POST', `/console/api/questions/${rpcId}/withdraw`, { query: `?link=${link}`, body: {} })).status).toBe(403);
    expect((await call(test.host, 'GET', '/console/api/pending')).status).toBe(401);
    expect((await call(test.host, 'GET', '/console')).status).toBe(401);
    // Refused actions changed nothing.
    expect(test.host.pending().map((question) => question.rpcId)).toEqual([rpcId]);
  });

  it('never opens to the users\' shared token; the operatorToken opens it, and must differ from the token', async () => {
    const test = await startHost({ token: TOKEN, operatorToken: 'operator-secret-token' });
    expect((await call(test.host, 'GET', '/console/api/pending', { bearer: TOKEN })).status).toBe(403);
    expect((await call(test.host, 'GET', '/console/api/pending', { bearer: 'operator-secret-token' })).status).toBe(200);
    expect((await call(test.host, 'GET', '/console/api/pending', { query: '?token=operator-secret-token' })).status).toBe(200);
    expect((await call(test.host, 'GET', '/console/api/pending', { bearer: 'wrong' })).status).toBe(401);
    await expect(startHost({ token: 'same', operatorToken: 'same' })).rejects.toSatisfy((error) => WebSocketHostError.isInstance(error) && error.code === 'INVALID_OPTIONS');
  });

  it('refuses an operator on a page of another origin (the same Origin rules as the API)', async () => {
    const test = await consoleHost();
    const reply = await call(test.host, 'GET', '/console/api/pending', { bearer: 'operator-ann', headers: { origin: 'https://evil.example' } });
    expect(reply.status).toBe(403);
  });
});

describe('pending now', () => {
  it('lists every session\'s waiting questions with agent, age and urgency, whatever the operator\'s canSee says', async () => {
    const test = await consoleHost();
    void test.ask('agent-a', [colourQuestion], { urgency: 'high' }).settled;
    await waitSaved(test.host, 1);
    void test.ask('agent-b', [{ ...colourQuestion, header: 'Paint', question: '<img src=x onerror=alert(1)>' }]).settled;
    await waitSaved(test.host, 2);
    const reply = await call(test.host, 'GET', '/console/api/pending', { bearer: 'operator-ann' });
    expect(reply.json).toEqual({
      canNotify: false,
      questions: [
        { rpcId: expect.any(String), sessionId: 'agent-a', askedBy: 'agent-a', askedAt: expect.any(String), ageMs: expect.any(Number), mode: 'blocking', urgency: 'high', questions: [{ id: 'colour', question: 'Which colour?' }] },
        { rpcId: expect.any(String), sessionId: 'agent-b', askedBy: 'agent-b', askedAt: expect.any(String), ageMs: expect.any(Number), mode: 'blocking', questions: [{ id: 'colour', header: 'Paint', question: '<img src=x onerror=alert(1)>' }] },
      ],
    });
  });
});

describe('pending now, routed', () => {
  it('shows the routing tier a routed question has reached and its answerers, before and after it escalates; an unrouted one has none', async () => {
    // agent-a's questions go to alice, then to the leads group after 400 ms; agent-b's are not routed.
    const route = (_questions: unknown, context: { sessionId: string }) =>
      context.sessionId === 'agent-a' ? [{ answerers: [{ principal: 'alice' }] }, { answerers: [{ group: 'leads' }], after: 400 }] : undefined;
    const test = await consoleHost({ route });
    void test.ask('agent-a').settled;
    await waitSaved(test.host, 1);
    void test.ask('agent-b').settled;
    await waitSaved(test.host, 2);
    const pendingNow = async () => {
      const reply = await call(test.host, 'GET', '/console/api/pending', { bearer: 'operator-ann' });
      expect(reply.status).toBe(200);
      const { questions } = reply.json as { questions: { sessionId: string; tier?: string; routing?: unknown }[] };
      return Object.fromEntries(questions.map(({ sessionId, tier, routing }) => [sessionId, { tier, routing }]));
    };

    expect(await pendingNow()).toEqual({
      'agent-a': { tier: 'tier 0: principal:alice', routing: { tier: 0, answerers: ['principal:alice'] } },
      'agent-b': { tier: undefined, routing: undefined },
    });
    expect(await test.event('escalated')).toMatchObject({ sessionId: 'agent-a', tier: 1, answerers: ['group:leads'] });
    expect(await pendingNow()).toEqual({
      'agent-a': { tier: 'tier 1: group:leads', routing: { tier: 1, answerers: ['group:leads'] } },
      'agent-b': { tier: undefined, routing: undefined },
    });
  });
});

describe('withdraw', () => {
  it('ends the asker with a typed error naming the operator, logs who did it, and says 409 the second time', async () => {
    const test = await consoleHost();
    const asking = test.ask('agent-a');
    const [rpcId] = await waitSaved(test.host, 1);
    const reply = await call(test.host, 'POST', `/console/api/questions/${rpcId}/withdraw`, { bearer: 'operator-ann', body: { reason: 'asked the wrong team' } });
    expect(reply).toMatchObject({ status: 200, json: { withdrawn: true } });

    const settled = await asking.settled;
    expect(settled.ok).toBe(false);
    const error = (settled as { error: unknown }).error;
    expect(hasUserQuestionErrorCode(error, 'ASK_ABORTED')).toBe(true);
    expect((error as UserQuestionError).message).toContain('asked the wrong team');
    const cause = (error as UserQuestionError).cause;
    expect(WebSocketHostError.isInstance(cause) && cause.code === 'WITHDRAWN' && cause.message.includes('operator-ann')).toBe(true);

    expect(test.host.pending()).toEqual([]);
    expect((await test.host.store.get(rpcId!))?.outcome).toBe('aborted');
    await expect.poll(async () => (await test.host.store.readEvents('agent-a')).map((event) => event.type)).toContain('aborted');
    const aborted = (await test.host.store.readEvents('agent-a')).find((event) => event.type === 'aborted');
    expect(aborted?.data).toEqual({ by: 'operator', principalId: 'operator-ann', reason: 'asked the wrong team' });
    expect(test.events).toContainEqual({ type: 'aborted', rpcId, sessionId: 'agent-a', by: 'operator', timedOut: false, principalId: 'operator-ann', reason: 'asked the wrong team' });

    const again = await call(test.host, 'POST', `/console/api/questions/${rpcId}/withdraw`, { bearer: 'operator-ann', body: {} });
    expect(again).toMatchObject({ status: 409, json: { error: { code: 'not-pending' } } });
  });

  it('refuses a form post (not JSON) and a bad reason, and the question stays pending', async () => {
    const test = await consoleHost();
    void test.ask('agent-a').settled;
    const [rpcId] = await waitSaved(test.host, 1);
    const form = await call(test.host, 'POST', `/console/api/questions/${rpcId}/withdraw`, { bearer: 'operator-ann', body: {}, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    const long = await call(test.host, 'POST', `/console/api/questions/${rpcId}/withdraw`, { bearer: 'operator-ann', body: { reason: 'x'.repeat(501) } });
    expect(long.status).toBe(422);
    expect((await call(test.host, 'GET', `/console/api/questions/${rpcId}/withdraw`, { bearer: 'operator-ann' })).status).toBe(405);
    expect(test.host.pending().map((question) => question.rpcId)).toEqual([rpcId]);
    expect((await test.host.store.get(rpcId!))?.outcome).toBeUndefined();
  });

  it('host.withdraw ends a question asked on another node: its asker there gets ASK_ABORTED', async () => {
    const hub = new MemoryQuestionBusHub();
    const store = new MemoryQuestionStore();
    const asker = await startHost({ store, bus: hub.connect('node-a') });
    const operatorNode = await startHost({ store, bus: hub.connect('node-b') });
    const asking = asker.ask('agent-a');
    await expect.poll(() => operatorNode.host.pending().length).toBe(1);
    const rpcId = operatorNode.host.pending()[0]!.rpcId;
    expect(await operatorNode.host.withdraw(rpcId, { reason: 'duplicate', by: 'ops-bot' })).toBe(true);
    const settled = await asking.settled;
    expect(settled.ok === false && hasUserQuestionErrorCode(settled.error, 'ASK_ABORTED')).toBe(true);
    await expect.poll(() => asker.host.pending().length).toBe(0);
    expect(await operatorNode.host.withdraw(rpcId)).toBe(false);
    expect(await operatorNode.host.withdraw('no-such-question')).toBe(false);
    await expect(operatorNode.host.withdraw('', {})).rejects.toSatisfy((error) => WebSocketHostError.isInstance(error) && error.code === 'INVALID_REQUEST');
  });
});

describe('re-send a notification', () => {
  it('calls notify again for a pending question, and says 409 for a settled one or a host without notify', async () => {
    const notified: string[] = [];
    const test = await consoleHost({ notify: (record) => void notified.push(record.rpcId) });
    const asking = test.ask('agent-a');
    const [rpcId] = await waitSaved(test.host, 1);
    await expect.poll(() => notified.length).toBe(1);
    expect((await call(test.host, 'POST', `/console/api/questions/${rpcId}/notify`, { bearer: 'operator-ann', body: {} })).status).toBe(200);
    expect(notified).toEqual([rpcId, rpcId]);
    await test.host.withdraw(rpcId!);
    await asking.settled;
    expect((await call(test.host, 'POST', `/console/api/questions/${rpcId}/notify`, { bearer: 'operator-ann', body: {} })).status).toBe(409);

    const silent = await consoleHost();
    void silent.ask('agent-a').settled;
    const [other] = await waitSaved(silent.host, 1);
    const reply = await call(silent.host, 'POST', `/console/api/questions/${other}/notify`, { bearer: 'operator-ann', body: {} });
    expect(reply).toMatchObject({ status: 409, json: { error: { code: 'no-notify' } } });
  });
});

describe('history and timeline', () => {
  it('lists settled questions newest first with outcome and time to settle, filters them, and pages with the cursor', async () => {
    const test = await consoleHost();
    const client = await test.connect({ headers: { authorization: 'Bearer user-of-agent-a' }, query: '' });
    const answered = test.ask('agent-a');
    const { rpcId: answeredId } = await client.next('question/requested');
    expect((await client.respond(answeredId, { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } })).accepted).toBe(true);
    await answered;
    for (let index = 0; index < 3; index++) {
      void test.ask('agent-b').settled;
      const [rpcId] = await waitSaved(test.host, 1);
      await test.host.withdraw(rpcId!, { by: 'ops' });
    }
    const all = await call(test.host, 'GET', '/console/api/history', { bearer: 'operator-ann' });
    const questions = (all.json as { questions: { sessionId: string; outcome: string; timeToSettleMs?: number }[] }).questions;
    expect(questions.map((question) => [question.sessionId, question.outcome])).toEqual([
      ['agent-b', 'aborted'],
      ['agent-b', 'aborted'],
      ['agent-b', 'aborted'],
      ['agent-a', 'answered'],
    ]);
    expect(questions[3]).toMatchObject({ rpcId: answeredId, askedBy: 'agent-a', settledAt: expect.any(String), timeToSettleMs: expect.any(Number), answeredBy: { principalId: 'user-of-agent-a', via: 'websocket' } });
    expect(questions[0]).not.toHaveProperty('answeredBy');
    expect(JSON.stringify(questions)).not.toContain('Red (Recommended)');

    const byOutcome = await call(test.host, 'GET', '/console/api/history', { bearer: 'operator-ann', query: '?outcome=answered' });
    expect((byOutcome.json as { questions: { rpcId: string }[] }).questions.map((question) => question.rpcId)).toEqual([answeredId]);
    const byAgent = await call(test.host, 'GET', '/console/api/history', { bearer: 'operator-ann', query: '?agent=agent-b&session=agent-b&limit=2' });
    const first = byAgent.json as { questions: unknown[]; next?: string };
    expect(first.questions).toHaveLength(2);
    const rest = await call(test.host, 'GET', '/console/api/history', { bearer: 'operator-ann', query: `?agent=agent-b&limit=2&cursor=${encodeURIComponent(first.next!)}` });
    expect((rest.json as { questions: unknown[]; next?: string }).questions).toHaveLength(1);
    expect((rest.json as { next?: string }).next).toBeUndefined();
    expect((await call(test.host, 'GET', '/console/api/history', { bearer: 'operator-ann', query: '?outcome=won' })).status).toBe(400);

    const timeline = await call(test.host, 'GET', '/console/api/sessions/agent-a/events', { bearer: 'operator-ann' });
    expect((timeline.json as { events: { type: string }[] }).events.map((event) => event.type)).toEqual(['human_input_requested', 'delivered', 'response_from_human']);
    expect((await call(test.host, 'GET', '/console/api/sessions/agent-a/events', { bearer: 'user-of-agent-a' })).status).toBe(403);
  });

  it('counts time to answer, pending over time and rejections by reason for the charts', async () => {
    const test = await consoleHost();
    const client = await test.connect({ headers: { authorization: 'Bearer user-of-agent-a' }, query: '' });
    const answered = test.ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    expect((await client.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: ['Green'] }] } } })).accepted).toBe(false);
    expect((await client.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } })).accepted).toBe(true);
    await answered;
    void test.ask('agent-b').settled;
    await waitSaved(test.host, 1);
    await expect.poll(async () => (await test.host.store.readEvents('agent-a')).some((event) => event.type === 'response_rejected')).toBe(true);

    const stats = (await call(test.host, 'GET', '/console/api/stats', { bearer: 'operator-ann', query: '?hours=1' })).json as {
      timeToAnswer: { count: number; p50Ms?: number; p90Ms?: number }[];
      pending: { count: number }[];
      rejections: { reason: string; count: number }[];
      sample: { complete: boolean };
    };
    expect(stats.timeToAnswer).toHaveLength(24);
    const answeredBuckets = stats.timeToAnswer.filter((bucket) => bucket.count > 0);
    expect(answeredBuckets).toEqual([{ at: expect.any(String), count: 1, p50Ms: expect.any(Number), p90Ms: expect.any(Number) }]);
    expect(stats.pending.at(-1)?.count).toBe(1);
    expect(stats.rejections).toEqual([{ reason: 'bad-response', count: 1 }]);
    expect(stats.sample.complete).toBe(true);
  });
});

describe('the page', () => {
  it('serves the page with a strict policy and the bundle to operators, and 404 without consoleScript', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'askseam-console-'));
    const script = join(dir, 'askseam-console.js');
    await writeFile(script, 'export const marker = 1;\n');
    const test = await consoleHost({ consoleScript: script });
    const page = await call(test.host, 'GET', '/console', { bearer: 'operator-ann' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).toContain('<askseam-console base="/askseam" token-from-location>');
    expect((await call(test.host, 'GET', '/console', { bearer: 'user-of-agent-a' })).status).toBe(403);
    const bundle = await call(test.host, 'GET', '/console/askseam-console.js');
    expect(bundle.status).toBe(200);
    expect(bundle.text).toBe('export const marker = 1;\n');

    const bare = await consoleHost();
    expect((await call(bare.host, 'GET', '/console', { bearer: 'operator-ann' })).status).toBe(404);
    expect((await call(bare.host, 'GET', '/console/askseam-console.js')).status).toBe(404);
  });
});
