// The person who answers the agent in askseam's tests: a real @askseam/client connection (over a
// real `ws` socket) to a real host, handing out the questions it is shown in the order they came.
import { connectQuestions, type ConnectQuestionsOptions, type PendingQuestion, type QuestionClient, type QuestionClientEvents, type QuestionResolvedEvent } from '@askseam/client';
import { createWebSocketHost, type WebSocketHost, type WebSocketHostOptions } from '@askseam/host-ws';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { WebSocket } from 'ws';

/** The token `personAtHost` gives its host unless told another. */
export const TEST_TOKEN = 'askseam-test-token-0123456789';

export interface PersonClient {
  client: QuestionClient;
  /** The oldest question shown to the person that no nextQuestion() has taken yet (or the next to come). */
  nextQuestion(): Promise<PendingQuestion>;
  /** The next resolution (answered, cancelled, gone) the client hears about after this call. */
  nextResolved(): Promise<QuestionResolvedEvent>;
  /** Every question the person was shown so far. */
  shown: PendingQuestion[];
  /** Every `resolved` event the client heard so far. */
  resolved: QuestionResolvedEvent[];
}

export interface ConnectPersonOptions {
  /** The host's WebSocket URL. */
  url: string;
  token?: string;
  /** Passed to connectQuestions (`false`: never reconnect; its default: reconnect). */
  reconnect?: ConnectQuestionsOptions['reconnect'];
}

/** The next `event` the client emits. */
export function once<K extends keyof QuestionClientEvents>(client: QuestionClient, event: K): Promise<QuestionClientEvents[K]> {
  return new Promise((resolve) => {
    const off = client.on(event as 'status', ((value: QuestionClientEvents[K]) => {
      off();
      resolve(value);
    }) as never);
  });
}

/** A person's client connected to the host at `url`, resolved once the host has greeted it. Close it with `client.close()`. */
export async function connectPerson({ url, token = TEST_TOKEN, reconnect }: ConnectPersonOptions): Promise<PersonClient> {
  const client = connectQuestions({ url, token, WebSocket, ...(reconnect === undefined ? {} : { reconnect }) });
  const shown: PendingQuestion[] = [];
  const resolved: QuestionResolvedEvent[] = [];
  const waiting: ((question: PendingQuestion) => void)[] = [];
  let taken = 0;
  client.on('requested', (question) => {
    shown.push(question);
    const waiter = waiting.shift();
    if (waiter === undefined) return;
    taken += 1;
    waiter(question);
  });
  client.on('resolved', (event) => resolved.push(event));
  if (client.status !== 'open') {
    await new Promise<void>((resolve) => {
      const off = client.on('status', (status) => {
        if (status !== 'open') return;
        off();
        resolve();
      });
    });
  }
  return {
    client,
    shown,
    resolved,
    nextQuestion: () => {
      const ready = shown[taken];
      if (ready === undefined) return new Promise((resolve) => waiting.push(resolve));
      taken += 1;
      return Promise.resolve(ready);
    },
    nextResolved: () => once(client, 'resolved'),
  };
}

/** A seam that knows `agent` as its one live root agent. */
export function seamWithAgent(agent: AgentRef): UserQuestions {
  return new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
}

export interface Person extends PersonClient {
  userQuestions: UserQuestions;
  /** The one live agent the seam knows; its id is the session. */
  agent: AgentRef;
  host: WebSocketHost;
  /** Close the client, then the host. */
  close(): Promise<void>;
}

export interface PersonAtHostOptions {
  /** The agent's id (default `assistant`). */
  agentId?: string;
  /** The host's token (default TEST_TOKEN). */
  token?: string;
  /** More host options (a store, onResume, ...). */
  host?: Omit<Partial<WebSocketHostOptions>, 'userQuestions' | 'token'>;
}

/** A seam with one live agent, a host on 127.0.0.1:0 in front of it, and the person's client connected. */
export async function personAtHost({ agentId = 'assistant', token = TEST_TOKEN, host: hostOptions = {} }: PersonAtHostOptions = {}): Promise<Person> {
  const agent: AgentRef = { id: agentId };
  const userQuestions = seamWithAgent(agent);
  const host = await createWebSocketHost({ ...hostOptions, userQuestions, token } as WebSocketHostOptions);
  const person = await connectPerson({ url: host.url, token });
  return {
    ...person,
    userQuestions,
    agent,
    host,
    close: async () => {
      person.client.close();
      await host.close();
    },
  };
}
