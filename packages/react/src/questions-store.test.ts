// The store behind useQuestions, against a real WebSocket host and a real client (no React, no DOM).
import { connectQuestions, type QuestionClient } from '@askseam/client';
import { createWebSocketHost } from '@askseam/host-ws';
import { UserQuestions, type AgentRef, type AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { emptyQuestionsSnapshot, questionsStoreOf, type QuestionsSnapshot, type QuestionsStore } from './questions-store.js';

const TOKEN = 'react-store-token-0123456789';
const agent: AgentRef = { id: 'agent-react' };
const question = (id: string, text: string): AskUserQuestionItem => ({ id, question: text, options: [{ label: 'Yes' }, { label: 'No' }] });

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

async function connected(): Promise<{ userQuestions: UserQuestions; client: QuestionClient; store: QuestionsStore; signal: AbortSignal }> {
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const host = await createWebSocketHost({ userQuestions, token: TOKEN });
  cleanups.push(() => host.close());
  const withdraw = new AbortController();
  cleanups.push(() => withdraw.abort());
  const client = connectQuestions({ url: host.url, token: TOKEN, WebSocket });
  cleanups.push(() => client.close());
  return { userQuestions, client, store: questionsStoreOf(client), signal: withdraw.signal };
}

/** Subscribe as React would, and resolve once a snapshot satisfies `check`. */
function snapshotWhere(store: QuestionsStore, check: (snapshot: QuestionsSnapshot) => boolean): Promise<QuestionsSnapshot> {
  return new Promise((resolve) => {
    const look = (): boolean => {
      const snapshot = store.getSnapshot();
      if (!check(snapshot)) return false;
      stop();
      resolve(snapshot);
      return true;
    };
    const stop = store.subscribe(() => void look());
    look();
  });
}

describe('questionsStoreOf', () => {
  it('is one store per client, so every component reading a client shares its receipts', async () => {
    const { client, store } = await connected();
    expect(questionsStoreOf(client)).toBe(store);
  });

  it('follows the connection and the pending requests, oldest first', async () => {
    const { userQuestions, store, signal } = await connected();
    await snapshotWhere(store, (snapshot) => snapshot.connection === 'open');
    void userQuestions.ask({ questions: [question('first', 'First?')], agent, signal }).catch(() => undefined);
    await snapshotWhere(store, (snapshot) => snapshot.pending.length === 1);
    void userQuestions.ask({ questions: [question('second', 'Second?')], agent, signal }).catch(() => undefined);
    const both = await snapshotWhere(store, (snapshot) => snapshot.pending.length === 2);
    expect(both.pending.map((each) => each.questions[0]?.question)).toEqual(['First?', 'Second?']);
  });

  it('hands back the same snapshot object until something changed', async () => {
    const { userQuestions, store, signal } = await connected();
    void userQuestions.ask({ questions: [question('same', 'Same?')], agent, signal }).catch(() => undefined);
    const first = await snapshotWhere(store, (snapshot) => snapshot.connection === 'open' && snapshot.pending.length === 1);
    expect(store.getSnapshot()).toBe(first);
    expect(store.getSnapshot()).toBe(first);
  });

  it('records an answer as sending, and drops the receipt once the request is resolved', async () => {
    const { userQuestions, store, signal } = await connected();
    const asked = userQuestions.ask({ questions: [question('deploy', 'Deploy now?')], agent, signal });
    const [pending] = (await snapshotWhere(store, (snapshot) => snapshot.pending.length === 1)).pending;
    const states: string[] = [];
    const stop = store.subscribe(() => {
      const state = store.getSnapshot().receipts.get(pending!.rpcId)?.state ?? 'gone';
      if (states.at(-1) !== state) states.push(state);
    });
    await expect(store.answer(pending!.rpcId, { answers: [{ id: 'deploy', selected: ['Yes'] }] })).resolves.toEqual({ rpcId: pending!.rpcId, accepted: true });
    await expect(asked).resolves.toEqual({ answers: [{ id: 'deploy', selected: ['Yes'] }] });
    await snapshotWhere(store, (snapshot) => snapshot.pending.length === 0);
    stop();
    // `accepted` shows only when the receipt comes before the resolved frame; the host may send either first.
    expect(states[0]).toBe('sending');
    expect(states.at(-1)).toBe('gone');
    expect(states.filter((state) => !['sending', 'accepted', 'gone'].includes(state))).toEqual([]);
    expect(store.getSnapshot().receipts.size).toBe(0);
  });

  it('records a refused answer with the client’s error and keeps the request pending', async () => {
    const { userQuestions, store, signal } = await connected();
    void userQuestions.ask({ questions: [question('pick', 'Pick one?')], agent, signal }).catch(() => undefined);
    const [pending] = (await snapshotWhere(store, (snapshot) => snapshot.pending.length === 1)).pending;
    await expect(store.answer(pending!.rpcId, { answers: [{ id: 'pick', selected: ['Maybe'] }] })).rejects.toMatchObject({ code: 'invalid-answer' });
    const receipt = store.getSnapshot().receipts.get(pending!.rpcId);
    expect(receipt).toMatchObject({ action: 'answer', state: 'refused', error: { code: 'invalid-answer' } });
    expect(store.getSnapshot().pending).toHaveLength(1);
  });

  it('cancels through the client, so the agent’s ask rejects ASK_CANCELLED', async () => {
    const { userQuestions, store, signal } = await connected();
    const asked = userQuestions.ask({ questions: [question('drop', 'Drop it?')], agent, signal });
    asked.catch(() => undefined);
    const [pending] = (await snapshotWhere(store, (snapshot) => snapshot.pending.length === 1)).pending;
    await store.cancel(pending!.rpcId);
    await expect(asked).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
  });

  it('stops listening to the client when the last subscriber leaves', async () => {
    const { client, store } = await connected();
    const seen: string[] = [];
    const stop = store.subscribe(() => seen.push(store.getSnapshot().connection));
    await snapshotWhere(store, (snapshot) => snapshot.connection === 'open');
    stop();
    const before = seen.length;
    // close() reports `closed` through the status event at once; nobody is subscribed any more.
    client.close();
    expect(seen.length).toBe(before);
    expect(store.getSnapshot().connection).toBe('closed');
  });

  it('starts from the empty snapshot that a server renders', () => {
    expect(emptyQuestionsSnapshot).toMatchObject({ connection: 'none', pending: [] });
    expect(emptyQuestionsSnapshot.receipts.size).toBe(0);
  });
});
