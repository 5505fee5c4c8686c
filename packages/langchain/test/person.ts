// A real seam, a real WebSocket host on 127.0.0.1 and a real client answering as the person.
import { connectQuestions, type PendingQuestion, type QuestionClient } from '@askseam/client';
import { createWebSocketHost, type WebSocketHost, type WebSocketHostOptions } from '@askseam/host-ws';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { WebSocket } from 'ws';

export const TOKEN = 'langchain-token-0123456789';

export interface Person {
  userQuestions: UserQuestions;
  agent: AgentRef;
  host: WebSocketHost;
  client: QuestionClient;
  /** The next question that reaches the person's screen. */
  nextQuestion(): Promise<PendingQuestion>;
  close(): Promise<void>;
}

/** A seam with one live root agent, a host in front of it, and the person's client connected. */
export async function personAtHost(hostOptions: Partial<WebSocketHostOptions> = {}): Promise<Person> {
  const agent: AgentRef = { id: 'assistant' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const host = await createWebSocketHost({ userQuestions, token: TOKEN, ...hostOptions } as WebSocketHostOptions);
  const client = connectQuestions({ url: host.url, token: TOKEN, WebSocket });
  const waiting: PendingQuestion[] = [];
  const takers: ((question: PendingQuestion) => void)[] = [];
  client.on('requested', (question) => {
    const taker = takers.shift();
    if (taker) taker(question);
    else waiting.push(question);
  });
  return {
    userQuestions,
    agent,
    host,
    client,
    nextQuestion: () => {
      const first = waiting.shift();
      return first ? Promise.resolve(first) : new Promise((resolve) => takers.push(resolve));
    },
    close: async () => {
      client.close();
      await host.close();
    },
  };
}
