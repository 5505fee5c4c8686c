// One-question links through the real client and the real host: the `link` option replaces the
// token, the client holds only the link's question, and `client.link` says when it is settled.
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { UserQuestions, type AgentRef, type AskUserQuestionAnswer } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { connectQuestions, type QuestionClient } from '../src/index.js';
import { nextEvent, statusReached } from './events.js';

const TOKEN = 'test-token-0123456789';
const alice: AgentRef = { id: 'agent-alice' };
const question = (text: string) => [{ id: 'q', question: text, options: [{ label: 'Yes' }, { label: 'No' }] }];
const yes: AskUserQuestionAnswer = { answers: [{ id: 'q', selected: ['Yes'] }] };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHost(): Promise<{ host: WebSocketHost; userQuestions: UserQuestions }> {
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === alice.id ? alice : undefined), roots: () => [alice] } });
  const host = await createWebSocketHost({ userQuestions, token: TOKEN, linkBaseUrl: 'https://app.example/answer' });
  cleanups.push(() => host.close());
  return { host, userQuestions };
}

function connect(host: WebSocketHost, credentials: { token: string } | { link: string }): QuestionClient {
  const client = connectQuestions({ url: host.url, WebSocket, reconnect: { initialDelayMs: 10, maxDelayMs: 50 }, ...credentials });
  cleanups.push(() => client.close());
  return client;
}

const capabilityOf = (link: string) => new URL(link).searchParams.get('link') ?? '';

describe('a client with a one-question link', () => {
  it('holds only the link question, answers it, and then reads the link as settled', async () => {
    const { host, userQuestions } = await startHost();
    const watcher = connect(host, { token: TOKEN });
    await statusReached(watcher, 'open');
    const first = userQuestions.ask({ agent: alice, questions: question('first?') });
    const firstId = (await nextEvent(watcher, 'requested')).rpcId;
    const second = userQuestions.ask({ agent: alice, questions: question('second?') });
    second.catch(() => {}); // dismissed at the end
    const secondId = (await nextEvent(watcher, 'requested')).rpcId;

    const client = connect(host, { link: capabilityOf(host.linkFor(firstId)) });
    await statusReached(client, 'open');
    expect(client.link).toEqual({ rpcId: firstId, settled: false });
    await expect.poll(() => [...client.pending.keys()]).toEqual([firstId]);
    // The other question never reached this client, so it is refused before anything is sent.
    await expect(client.answer(secondId, yes)).rejects.toMatchObject({ code: 'not-pending' });

    const resolved = nextEvent(client, 'resolved');
    await expect(client.answer(firstId, yes)).resolves.toEqual({ rpcId: firstId, accepted: true });
    expect(host.pending().map((pending) => pending.rpcId)).toEqual([secondId]);
    expect(await resolved).toMatchObject({ rpcId: firstId, outcome: 'answered' });
    expect(client.link).toEqual({ rpcId: firstId, settled: true });
    await expect(first).resolves.toEqual(yes);
    await watcher.cancel(secondId);
    await expect(second).rejects.toThrow();
  });

  it('is told on connecting that the link question was already settled', async () => {
    const { host, userQuestions } = await startHost();
    const watcher = connect(host, { token: TOKEN });
    await statusReached(watcher, 'open');
    const asked = userQuestions.ask({ agent: alice, questions: question('done?') });
    const rpcId = (await nextEvent(watcher, 'requested')).rpcId;
    const capability = capabilityOf(host.linkFor(rpcId));
    await watcher.answer(rpcId, yes);
    await asked;

    const client = connect(host, { link: capability });
    await statusReached(client, 'open');
    expect(client.link).toEqual({ rpcId, settled: true });
    expect(client.pending.size).toBe(0);
  });
});
