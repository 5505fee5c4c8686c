// Shared set-up for tests that drive a real host: a seam with live root agents, a host on
// 127.0.0.1:0, raw clients, and one `cleanup()` that closes everything a test opened.
import { UserQuestions, type AgentRef, type AskUserQuestionAnswer, type AskUserQuestionItem, type AskUserQuestionRequest } from '@askseam/user-questions';
import type { ClientOptions } from 'ws';
import { createWebSocketHost, type HostEvent, type WebSocketHost, type WebSocketHostOptions } from '../src/index.js';
import { RawClient } from './raw-client.js';

export const TOKEN = 'test-token-123';

/** A registry whose agents are all live roots, so that any of them may ask. */
export function rootAgents(...ids: string[]) {
  const agents = new Map<string, AgentRef>(ids.map((id) => [id, { id }]));
  return {
    registry: { get: (id: string) => agents.get(id), roots: () => agents.values() },
    agent(id: string): AgentRef {
      const agent = agents.get(id);
      if (agent === undefined) throw new Error(`no agent ${id} in this test registry`);
      return agent;
    },
  };
}

export const colourQuestion: AskUserQuestionItem = {
  id: 'colour',
  question: 'Which colour?',
  options: [{ label: 'Red (Recommended)' }, { label: 'Blue', description: 'Calmer' }],
};

export const redAnswer = { answers: [{ id: 'colour', selected: ['Red (Recommended)'] }] };

const open: (() => Promise<void>)[] = [];

/**
 * Close every host and client opened since the last cleanup (call it in afterEach). A close that
 * does not settle within 15 s fails the test with the process's open handles, rather than holding
 * the run until the hook times out with nothing to go on; the remaining closes still run.
 */
export async function cleanup(): Promise<void> {
  const closers = open.splice(0).reverse();
  const failures: unknown[] = [];
  for (const close of closers) {
    try {
      await settlesWithin(close(), 15_000);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

async function settlesWithin(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const handles: Record<string, number> = {};
      for (const name of process.getActiveResourcesInfo()) handles[name] = (handles[name] ?? 0) + 1;
      reject(new Error(`a close() in cleanup did not settle within ${ms} ms; open handles: ${JSON.stringify(handles)}`));
    }, ms);
  });
  try {
    await Promise.race([work, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

export type Settled = { ok: true; value: AskUserQuestionAnswer } | { ok: false; error: unknown };

/** An ask in flight; `settled` never rejects, so a test that does not await the ask leaves no unhandled rejection. */
export type Asking = Promise<AskUserQuestionAnswer> & { settled: Promise<Settled> };

export interface TestHost {
  host: WebSocketHost;
  userQuestions: UserQuestions;
  events: HostEvent[];
  /** The live root agent `sessionId` (for helpers such as askApproval that take the agent). */
  agent(sessionId: string): AgentRef;
  /** Ask as agent `sessionId` (a live root). The promise is observed so a rejection is never unhandled. */
  ask(sessionId: string, questions?: AskUserQuestionItem[], extra?: Partial<AskUserQuestionRequest>): Asking;
  /** Connect with the shared token (sees every session). */
  connect(options?: ClientOptions & { query?: string }): Promise<RawClient>;
  /** Wait for a host event of `type` (matching `where`). */
  event<T extends HostEvent['type']>(type: T, where?: (event: Extract<HostEvent, { type: T }>) => boolean): Promise<Extract<HostEvent, { type: T }>>;
}

export async function startHost(options: Partial<WebSocketHostOptions> = {}, sessions: string[] = ['agent-a', 'agent-b']): Promise<TestHost> {
  const agents = rootAgents(...sessions);
  const userQuestions = options.userQuestions ?? new UserQuestions({ agents: agents.registry });
  const events: HostEvent[] = [];
  const listeners = new Set<() => void>();
  const host = await createWebSocketHost({
    token: TOKEN,
    port: 0,
    ...options,
    userQuestions,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
      for (const listener of listeners) listener();
    },
  });
  open.push(() => host.close());

  return {
    host,
    userQuestions,
    events,
    agent: (sessionId) => agents.agent(sessionId),
    ask(sessionId, questions = [colourQuestion], extra = {}) {
      const promise = userQuestions.ask({ questions, agent: agents.agent(sessionId), ...extra });
      const settled = promise.then(
        (value): Settled => ({ ok: true, value }),
        (error: unknown): Settled => ({ ok: false, error }),
      );
      return Object.assign(promise, { settled });
    },
    async connect({ query, ...clientOptions } = {}) {
      const client = await RawClient.connect(`${host.url}?${query ?? `token=${TOKEN}`}`, clientOptions);
      open.push(() => client.close());
      return client;
    },
    event(type, where = () => true) {
      type Wanted = Extract<HostEvent, { type: typeof type }>;
      const find = () => events.find((event): event is Wanted => event.type === type && where(event as Wanted));
      return new Promise((resolve, reject) => {
        const listener = () => {
          const found = find();
          if (found === undefined) return;
          listeners.delete(listener);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(new Error(`no "${type}" event within 5 s; got: ${JSON.stringify(events.map((e) => e.type))}`));
        }, 5_000);
        listeners.add(listener);
        listener();
      });
    },
  };
}

/** Register a client for cleanup when a test made it itself. */
export function track(client: RawClient): RawClient {
  open.push(() => client.close());
  return client;
}
