// A person at askseam's page, for tests: a real WebSocket host on 127.0.0.1:0 with token auth
// and a real @askseam/client connection that answers what reaches it.
import { connectQuestions, type PendingQuestion, type QuestionClient, type QuestionClientEvents } from '@askseam/client';
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { WebSocket } from 'ws';

export const TOKEN = 'mcp-test-token-0123456789';

export interface PersonAtThePage {
  userQuestions: UserQuestions;
  agent: AgentRef;
  host: WebSocketHost;
  client: QuestionClient;
  /** The next question that reaches the person. */
  nextQuestion(): Promise<PendingQuestion>;
  /** The next question's resolution as the person's client sees it. */
  nextResolved(): Promise<QuestionClientEvents['resolved']>;
  close(): Promise<void>;
}

export async function personAtThePage(agentId = 'mcp-session-1'): Promise<PersonAtThePage> {
  const agent: AgentRef = { id: agentId };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const host = await createWebSocketHost({ userQuestions, token: TOKEN });
  const client = connectQuestions({ url: host.url, token: TOKEN, WebSocket });
  await new Promise<void>((resolve) => {
    if (client.status === 'open') return resolve();
    const off = client.on('status', (status) => {
      if (status !== 'open') return;
      off();
      resolve();
    });
  });
  return {
    userQuestions,
    agent,
    host,
    client,
    nextQuestion: () => once(client, 'requested'),
    nextResolved: () => once(client, 'resolved'),
    close: async () => {
      client.close();
      await host.close();
    },
  };
}

export function once<K extends keyof QuestionClientEvents>(client: QuestionClient, event: K): Promise<QuestionClientEvents[K]> {
  return new Promise((resolve) => {
    const off = client.on(event as 'status', ((value: QuestionClientEvents[K]) => {
      off();
      resolve(value);
    }) as never);
  });
}
