// A real seam, a real WebSocket host on 127.0.0.1:0 and a real @askseam/client connection: the
// person who answers the agent in these tests.
import { connectQuestions, type PendingQuestion, type QuestionClient, type QuestionResolvedEvent } from '@askseam/client';
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { WebSocket } from 'ws';

const TOKEN = 'ai-sdk-token-0123456789';

export interface Person {
  userQuestions: UserQuestions;
  agent: AgentRef;
  host: WebSocketHost;
  client: QuestionClient;
  /** The next question that reaches the person's client. */
  nextQuestion(): Promise<PendingQuestion>;
  /** The next resolution the client hears about (answered, cancelled, gone). */
  nextResolved(): Promise<QuestionResolvedEvent>;
  /** Every question the client has been shown so far. */
  seen: PendingQuestion[];
  close(): Promise<void>;
}

export async function personAtHost(): Promise<Person> {
  const agent: AgentRef = { id: 'coder' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const host = await createWebSocketHost({ userQuestions, token: TOKEN });
  const client = connectQuestions({ url: host.url, token: TOKEN, WebSocket });
  const seen: PendingQuestion[] = [];
  const waiting: ((question: PendingQuestion) => void)[] = [];
  const queued: PendingQuestion[] = [];
  client.on('requested', (question) => {
    seen.push(question);
    const take = waiting.shift();
    if (take) take(question);
    else queued.push(question);
  });
  await new Promise<void>((resolve) => {
    if (client.status === 'open') return resolve();
    const off = client.on('status', (status) => {
      if (status === 'open') {
        off();
        resolve();
      }
    });
  });
  return {
    userQuestions,
    agent,
    host,
    client,
    seen,
    nextQuestion: () => {
      const ready = queued.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    nextResolved: () =>
      new Promise((resolve) => {
        const off = client.on('resolved', (event) => {
          off();
          resolve(event);
        });
      }),
    close: async () => {
      client.close();
      await host.close();
    },
  };
}
