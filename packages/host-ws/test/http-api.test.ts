// The HTTP API beside the WebSocket: the same auth, the same respond checks and receipts, so a
// webhook, an IM bot or an email handler can answer without holding a socket.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hasUserQuestionErrorCode } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/index.js';
import { api, cleanupDurable, postHead } from './durable-fixture.js';
import { cleanup, colourQuestion, redAnswer, startHost, TOKEN } from './fixture.js';

afterEach(async () => {
  await cleanup();
  await cleanupDurable();
});

/** `Authorization: Bearer user-of-<session>` sees that one session. */
function bearerPerSession(req: import('node:http').IncomingMessage): Principal | undefined {
  const match = /^Bearer user-of-(\S+)$/.exec(req.headers.authorization ?? '');
  const session = match?.[1];
  return session === undefined ? undefined : { id: `user-of-${session}`, canSee: (id) => id === session, sessions: [session] };
}

async function withQuestion(options = {}) {
  const testHost = await startHost(options);
  const asking = testHost.ask('agent-a');
  const rpcId = testHost.host.pending()[0]!.rpcId;
  await expect.poll(async () => (await testHost.host.store.get(rpcId)) !== undefined).toBe(true);
  return { ...testHost, asking, rpcId };
}

describe('reading questions', () => {
  it('lists the pending questions of the caller\'s sessions, without the asker\'s state', async () => {
    const { host } = await startHost({ token: undefined, authenticate: bearerPerSession });
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion], state: { secret: 'internal' } });
    await host.askDetached({ sessionId: 'agent-b', questions: [colourQuestion] });
    const response = await api(host, 'GET', '/questions', { token: 'user-of-agent-a' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      questions: [{ rpcId, sessionId: 'agent-a', askedBy: 'agent-a', askedAt: expect.any(String), mode: 'detached', questions: [colourQuestion] }],
    });
  });

  it('lists every question canSee accepts even when principal.sessions leaves one out, unless the list is declared exhaustive', async () => {
    const partial = (exhaustive: boolean) => () => ({ id: 'partial', canSee: () => true, sessions: ['agent-a'], ...(exhaustive ? { sessionsExhaustive: true } : {}) });
    const { host } = await startHost({ token: undefined, authenticate: partial(false) });
    await host.askDetached({ sessionId: 'agent-b', questions: [colourQuestion] });
    await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    const listed = await api(host, 'GET', '/questions', { token: null });
    expect((listed.body as { questions: { sessionId: string }[] }).questions.map((question) => question.sessionId)).toEqual(['agent-b', 'agent-a']);

    const { host: trusting } = await startHost({ token: undefined, authenticate: partial(true), store: host.store });
    const trusted = await api(trusting, 'GET', '/questions', { token: null });
    expect((trusted.body as { questions: { sessionId: string }[] }).questions.map((question) => question.sessionId)).toEqual(['agent-a']);
  });

  it('gets one question by rpcId, with its outcome and answer once settled', async () => {
    const { host, rpcId, asking } = await withQuestion();
    expect(await api(host, 'GET', `/questions/${rpcId}`)).toMatchObject({ status: 200, body: { rpcId, sessionId: 'agent-a', mode: 'blocking' } });
    await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    await asking;
    expect(await api(host, 'GET', `/questions/${rpcId}`)).toMatchObject({ status: 200, body: { rpcId, outcome: 'answered', answer: redAnswer, settledAt: expect.any(String) } });
  });

  it('says 404 for an unknown rpcId and 403 for a question of a session the caller may not see', async () => {
    const { host } = await startHost({ token: undefined, authenticate: bearerPerSession });
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    expect(await api(host, 'GET', '/questions/nope', { token: 'user-of-agent-a' })).toMatchObject({ status: 404, body: { error: { code: 'not-found' } } });
    expect(await api(host, 'GET', `/questions/${rpcId}`, { token: 'user-of-agent-b' })).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
  });
});

describe('answering and cancelling', () => {
  it('answers with 200 and an accepted receipt; the ask resolves and every client hears it is resolved', async () => {
    const { host, rpcId, asking, connect } = await withQuestion();
    const client = await connect();
    await client.next('question/requested');
    const response = await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    expect(response).toMatchObject({ status: 200, body: { type: 'receipt', rpcId, accepted: true } });
    await expect(asking).resolves.toEqual(redAnswer);
    expect(await client.next('question/resolved')).toMatchObject({ rpcId, outcome: 'answered' });
  });

  it('says 409 not-pending to a second answer and to an unknown rpcId', async () => {
    const { host, rpcId } = await withQuestion();
    await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } });
    expect(await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } })).toMatchObject({
      status: 409,
      body: { accepted: false, reason: 'not-pending' },
    });
    expect((await api(host, 'POST', '/questions/nope/cancel')).status).toBe(409);
  });

  it('says 422 bad-response with the reason to an answer that does not fit, and keeps the question pending', async () => {
    const { host, rpcId, asking } = await withQuestion();
    const wrong = await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: ['Green'] }] } } });
    expect(wrong).toMatchObject({ status: 422, body: { accepted: false, reason: 'bad-response', detail: expect.stringContaining('"Green"') } });
    const extraKey = await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer, note: 'hi' } });
    expect(extraKey).toMatchObject({ status: 422, body: { reason: 'bad-response' } });
    expect(host.pending()).toHaveLength(1);
    expect((await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } })).status).toBe(200);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('says 403 forbidden to a caller who may not see the session, before judging the body', async () => {
    const { host } = await startHost({ token: undefined, authenticate: bearerPerSession });
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    expect(await api(host, 'POST', `/questions/${rpcId}/answer`, { token: 'user-of-agent-b', body: 'garbage' })).toMatchObject({ status: 403, body: { reason: 'forbidden' } });
    expect(host.pending()).toHaveLength(1);
  });

  it('cancels with 200; the ask rejects ASK_CANCELLED carrying what the person said', async () => {
    const { host, rpcId, asking } = await withQuestion();
    expect(await api(host, 'POST', `/questions/${rpcId}/cancel`, { body: { message: 'not today' } })).toMatchObject({ status: 200, body: { accepted: true } });
    const settled = await asking.settled;
    expect(hasUserQuestionErrorCode(!settled.ok && settled.error, 'ASK_CANCELLED')).toBe(true);
    expect(!settled.ok && (settled.error as Error).message).toMatch(/not today/);
  });

  it('cancels with an empty body too', async () => {
    const { host, rpcId, asking } = await withQuestion();
    expect((await api(host, 'POST', `/questions/${rpcId}/cancel`)).status).toBe(200);
    expect((await asking.settled).ok).toBe(false);
  });
});

describe('bad requests', () => {
  it('says 400 to a body that is not JSON, and the question stays pending', async () => {
    const { host, rpcId } = await withQuestion();
    expect(await api(host, 'POST', `/questions/${rpcId}/answer`, { raw: '{"sessionId":' })).toMatchObject({ status: 400, body: { error: { code: 'bad-json' } } });
    expect(host.pending()).toHaveLength(1);
  });

  it('says 413 to a body over the size limit, announced or not', async () => {
    const { host, rpcId } = await withQuestion({ maxPayload: 1024 });
    expect(await postHead(host, `/questions/${rpcId}/answer`, 10, 4096)).toBe(413);
    expect(await postHead(host, `/questions/${rpcId}/answer`, 2048)).toBe(413);
    expect(host.pending()).toHaveLength(1);
    expect((await api(host, 'POST', `/questions/${rpcId}/answer`, { body: { sessionId: 'agent-a', answer: redAnswer } })).status).toBe(200);
  });

  it('says 401 without credentials or with a wrong token, and accepts ?token= as well as a Bearer header', async () => {
    const { host, rpcId } = await withQuestion();
    const missing = await api(host, 'GET', '/questions', { token: null });
    expect(missing).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect((await api(host, 'POST', `/questions/${rpcId}/answer`, { token: 'wrong', body: { sessionId: 'agent-a', answer: redAnswer } })).status).toBe(401);
    expect((await api(host, 'GET', `/questions?token=${TOKEN}`, { token: null })).status).toBe(200);
    expect(host.pending()).toHaveLength(1);
  });

  it('says 403 to a page from an Origin outside the allow-list', async () => {
    const { host } = await startHost({ origins: ['http://app.example'] });
    expect((await api(host, 'GET', '/questions', { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await api(host, 'GET', '/questions', { headers: { origin: 'http://app.example' } })).status).toBe(200);
  });

  it('says 403 to a page from another site when no allow-list is given, and serves a page of its own origin', async () => {
    const { host } = await startHost();
    expect((await api(host, 'GET', '/questions', { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await api(host, 'GET', '/questions', { headers: { origin: `http://127.0.0.1:${host.port}` } })).status).toBe(200);
  });

  it('says 405 to the wrong method and 404 to an unknown route, only after authentication', async () => {
    const { host } = await startHost();
    expect(await api(host, 'DELETE', '/questions')).toMatchObject({ status: 405 });
    expect((await api(host, 'GET', '/questions/x/answer')).headers.get('allow')).toBe('POST');
    expect((await api(host, 'GET', '/nothing-here')).status).toBe(404);
    expect((await api(host, 'GET', '/nothing-here', { token: null })).status).toBe(401);
  });

  it('serves nothing but the 426 on its path when httpApi is false', async () => {
    const { host } = await startHost({ httpApi: false });
    expect((await api(host, 'GET', '/questions')).status).toBe(404);
    expect((await api(host, 'GET', '')).status).toBe(426);
  });
});

describe('the event log over HTTP', () => {
  it('reads a session\'s events in order, after a cursor, and refuses sessions the caller may not see', async () => {
    const { host } = await startHost({ token: undefined, authenticate: bearerPerSession });
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    await api(host, 'POST', `/questions/${rpcId}/answer`, { token: 'user-of-agent-a', body: { sessionId: 'agent-a', answer: { answers: [] } } });
    await api(host, 'POST', `/questions/${rpcId}/answer`, { token: 'user-of-agent-a', body: { sessionId: 'agent-a', answer: redAnswer } });

    const all = await api(host, 'GET', '/sessions/agent-a/events', { token: 'user-of-agent-a' });
    expect(all.status).toBe(200);
    expect(all.body.events.map((event: { type: string }) => event.type)).toEqual(['human_input_requested', 'response_rejected', 'response_from_human']);
    expect(all.body.events[2]).toMatchObject({ rpcId, data: { answer: redAnswer, channel: 'http', principalId: 'user-of-agent-a' } });
    const after = await api(host, 'GET', `/sessions/agent-a/events?after=${all.body.events[0].id}&limit=1`, { token: 'user-of-agent-a' });
    expect(after.body.events).toEqual([all.body.events[1]]);
    expect((await api(host, 'GET', '/sessions/agent-a/events', { token: 'user-of-agent-b' })).status).toBe(403);
    expect((await api(host, 'GET', '/sessions/agent-a/events?after=-1', { token: 'user-of-agent-a' })).status).toBe(400);
  });
});

describe('on an app\'s own http.Server', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await cleanup();
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
  });

  it('serves its path prefix through handleRequest and leaves every other request to the app', async () => {
    server = createServer((req, res) => {
      if (host.handleRequest(req, res)) return;
      res.end(`app page ${req.url}`);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { host } = await startHost({ server, port: undefined, path: '/ask' });
    const { rpcId } = await host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const listed = await fetch(`${base}/ask/questions`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(((await listed.json()) as { questions: { rpcId: string }[] }).questions.map((question) => question.rpcId)).toEqual([rpcId]);
    expect(await (await fetch(`${base}/asking`)).text()).toBe('app page /asking');
    expect(await (await fetch(`${base}/questions`)).text()).toBe('app page /questions');
  });
});
