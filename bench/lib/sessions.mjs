// Many sessions on one host: each connection authenticates as the person behind exactly one
// session (`?session=<id>` on the URL), as a multi-user deployment would.
import { execSync } from 'node:child_process';
import { once } from 'node:events';
import { connectQuestions } from '@askseam/client';
import { createWebSocketHost } from '@askseam/host-ws';
import { UserQuestions } from '@askseam/user-questions';
import WebSocket from 'ws';
import { agentRegistry } from './askseam.mjs';
import { answerAtOnce } from './answer-at-once.mjs';
import { seamAnswer } from './fixtures.mjs';
import { waitUntil } from './stats.mjs';

export const sessionId = (index) => `session-${String(index).padStart(5, '0')}`;

/** The principal of one session's user: sees that session only, and says so (cheap replay). */
export function authenticate(req) {
  const session = new URL(req.url ?? '/', 'http://host').searchParams.get('session');
  if (!session) return undefined;
  return { id: `user-of-${session}`, canSee: (id) => id === session, sessions: [session], sessionsExhaustive: true };
}

/**
 * A host serving `sessions` sessions, with one live root agent per session. With `countPending`
 * (the default) the host gets an `onEvent` hook that counts pending questions for `pendingCount()`;
 * a section that does not need the count leaves it off, because the host hands every hook a deep
 * copy of each asked and answered event, which is instrumentation cost, not the host's.
 */
export async function startSessionHost(sessions, { countPending = true } = {}) {
  const ids = Array.from({ length: sessions }, (_, index) => sessionId(index));
  const { agents, registry } = agentRegistry(ids);
  const userQuestions = new UserQuestions({ agents: registry });
  // Counted from the host's events: cheaper than host.pending(), which copies every question.
  let pending = 0;
  const onEvent = (event) => {
    if (event.type === 'asked') pending++;
    else if (event.type === 'answered' || event.type === 'cancelled' || event.type === 'aborted') pending--;
  };
  const host = await createWebSocketHost({ userQuestions, authenticate, ...(countPending ? { onEvent } : {}) });
  return {
    host,
    pendingCount: () => {
      if (!countPending) throw new Error('This session host was started with countPending: false.');
      return pending;
    },
    userQuestions,
    agents: ids.map((id) => agents.get(id)),
    urlOf: (session) => `${host.url}?session=${encodeURIComponent(session)}`,
  };
}

/**
 * One askseam client per session, each answering every question it is shown at once.
 * Opened in batches of 100 so that a thousand handshakes do not overflow the listen backlog.
 */
export async function connectAnsweringClients(stack, { WebSocket: Socket = WebSocket } = {}) {
  const answer = seamAnswer();
  const clients = [];
  const inFlight = { receipts: 0 };
  for (let first = 0; first < stack.agents.length; first += 100) {
    const batch = [];
    for (let index = first; index < Math.min(stack.agents.length, first + 100); index++) {
      const client = connectQuestions({ url: stack.urlOf(stack.agents[index].id), WebSocket: Socket, reconnect: false });
      answerAtOnce(client, answer, inFlight);
      clients.push(client);
      batch.push(client);
    }
    await waitUntil(() => batch.every((client) => client.status === 'open'), { what: 'clients to open' });
  }
  return {
    clients,
    async close() {
      await waitUntil(() => inFlight.receipts === 0, { what: 'the last receipts' });
      for (const client of clients) client.close();
    },
  };
}

/**
 * Time (ms) for a fresh raw connection of `session` to receive `expected` question/requested
 * frames: the handshake, the hello and the replay, as a reconnecting browser sees it.
 */
export async function timeReplay(url, expected) {
  const start = performance.now();
  const socket = new WebSocket(url, { perMessageDeflate: false });
  socket.on('error', () => {});
  let seen = 0;
  let elapsed;
  await new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      if (data.includes('"question/requested"')) seen++;
      if (seen === expected) {
        elapsed = performance.now() - start;
        resolve();
      }
    });
    socket.on('close', () => reject(new Error(`closed after ${seen} of ${expected} replayed questions`)));
  });
  socket.removeAllListeners('close');
  socket.terminate();
  await once(socket, 'close');
  return elapsed;
}

/** The soft limit on open files of this process, or undefined when it cannot be read. */
export function openFileLimit() {
  try {
    const value = execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim();
    return value === 'unlimited' ? Number.POSITIVE_INFINITY : Number(value);
  } catch {
    return undefined;
  }
}
