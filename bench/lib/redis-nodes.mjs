// Host nodes for the cross-node section: each a seam + WebSocket host in this process, on its own
// store (in memory, or Redis) and optionally its own Redis bus, with per-session principals so a
// client sees exactly one session and only the client the variant means answers.
import { connectQuestions } from '@askseam/client';
import { createWebSocketHost } from '@askseam/host-ws';
import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import { UserQuestions } from '@askseam/user-questions';
import WebSocket from 'ws';
import { answerAtOnce } from './answer-at-once.mjs';
import { agentRegistry } from './askseam.mjs';
import { seamAnswer, toolArgs } from './fixtures.mjs';
import { now, waitUntil } from './stats.mjs';

/** The principal of one session's user, from `?session=` on the URL (as in lib/sessions.mjs). */
function authenticate(req) {
  const session = new URL(req.url ?? '/', 'http://host').searchParams.get('session');
  if (!session) return undefined;
  return { id: `user-of-${session}`, canSee: (id) => id === session, sessions: [session], sessionsExhaustive: true };
}

/**
 * One node: a seam with a live root agent per id in `sessions` (agent id = session id) and a
 * WebSocket host on 127.0.0.1. `store` and `bus` go to the host as given (undefined: the host's
 * own in-memory store, no bus). The host closes the bus; the caller closes the store.
 */
export async function startNode({ sessions, store, bus }) {
  const { agents, registry } = agentRegistry(sessions);
  const userQuestions = new UserQuestions({ agents: registry });
  const host = await createWebSocketHost({ userQuestions, authenticate, ...(store ? { store } : {}), ...(bus ? { bus } : {}) });
  const clients = [];
  const inFlight = { receipts: 0 };
  const args = toolArgs();

  return {
    host,
    /**
     * A client of this node that sees `session` only and answers everything at once. Returns the
     * count of questions it was shown, so a section can prove which node its answers went through.
     */
    async connectAnswering(session) {
      const client = connectQuestions({ url: `${host.url}?session=${encodeURIComponent(session)}`, WebSocket, reconnect: false });
      const shown = { count: 0 };
      client.on('requested', () => shown.count++);
      answerAtOnce(client, seamAnswer(), inFlight);
      clients.push(client);
      await waitUntil(() => client.status === 'open', { what: `a client of ${session} to open` });
      return shown;
    },
    /** `count` sequential tool calls by the agent of `session` on this node; one latency (ms) each. */
    async latencies(session, count) {
      const agent = agents.get(session);
      if (!agent) throw new Error(`No agent ${session} on this node.`);
      const samples = [];
      for (let i = 0; i < count; i++) {
        const start = now();
        const result = await executeAskUserQuestion(args, { userQuestions, agent });
        samples.push(now() - start);
        if (result.isError) throw new Error(`ask_user_question failed on ${session}: ${result.text}`);
      }
      return samples;
    },
    async close() {
      await waitUntil(() => inFlight.receipts === 0, { what: 'the last receipts' });
      for (const client of clients) client.close();
      await host.close();
    },
  };
}
