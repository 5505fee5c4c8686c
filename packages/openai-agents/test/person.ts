// The people side of every test here: a real UserQuestions seam, a real WebSocket host on
// 127.0.0.1 (token auth, optionally on a SQLite file), and a real @askseam/client connection that
// answers as the person would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectQuestions, type PendingQuestion, type QuestionClient, type QuestionResolvedEvent } from '@askseam/client';
import { createWebSocketHost, type WebSocketHost, type WebSocketHostOptions } from '@askseam/host-ws';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { WebSocket } from 'ws';

export const TOKEN = 'openai-agents-test-token';

const cleanups: (() => unknown)[] = [];

/** Close every host, client and store, and remove temp dirs (call in afterEach). */
export async function cleanupPeople(): Promise<void> {
  for (const undo of cleanups.splice(0).reverse()) await undo();
}

/** A fresh SQLite file path in a temp dir removed by `cleanupPeople`. */
export function tempDbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-openai-agents-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'questions.db');
}

/** A SQLite store closed by `cleanupPeople` (after the host on it). */
export function openSqlite(file: string): SqliteQuestionStore {
  const store = new SqliteQuestionStore(file);
  cleanups.push(() => store.close());
  return store;
}


export interface Watcher {
  client: QuestionClient;
  /** The next question the person is shown (in the order asked). */
  nextQuestion(): Promise<PendingQuestion>;
  /** Every question the person was shown so far. */
  shown: PendingQuestion[];
  /** Every `resolved` event the client saw so far. */
  resolved: QuestionResolvedEvent[];
}

export interface Person extends Watcher {
  userQuestions: UserQuestions;
  /** The live agent the seam knows; its id is the session. */
  agent: AgentRef;
  host: WebSocketHost;
}

/** A host with one live agent, and a person connected to it. */
export async function startPerson(options: Pick<WebSocketHostOptions, 'store' | 'onResume'> = {}, agentId = 'agent-coder'): Promise<Person> {
  const agent: AgentRef = { id: agentId };
  const userQuestions = newSeam(agent);
  const host = await createWebSocketHost({ userQuestions, token: TOKEN, ...options });
  cleanups.push(() => host.close());
  return { userQuestions, agent, host, ...(await connectPerson(host)) };
}

/** A seam that knows `agent` as its one live root agent. */
export function newSeam(agent: AgentRef): UserQuestions {
  return new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
}

/** A person's client connected to `host` (token `TOKEN`), once the host has greeted it. */
export async function connectPerson(host: Pick<WebSocketHost, 'url'>): Promise<Watcher> {
  const client = connectQuestions({ url: host.url, token: TOKEN, WebSocket });
  cleanups.push(() => client.close());
  const shown: PendingQuestion[] = [];
  const resolved: QuestionResolvedEvent[] = [];
  const waiting: ((question: PendingQuestion) => void)[] = [];
  let taken = 0;
  client.on('requested', (question) => {
    shown.push(question);
    const waiter = waiting.shift();
    if (waiter !== undefined) {
      taken += 1;
      waiter(question);
    }
  });
  client.on('resolved', (event) => resolved.push(event));
  await new Promise<void>((resolve) => {
    if (client.status === 'open') return resolve();
    const off = client.on('status', (status) => {
      if (status !== 'open') return;
      off();
      resolve();
    });
  });
  return {
    client,
    shown,
    resolved,
    nextQuestion() {
      const ready = shown[taken];
      if (ready !== undefined) {
        taken += 1;
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}
