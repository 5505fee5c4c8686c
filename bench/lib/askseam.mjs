// Our stack, wired as a user would: the seam, the WebSocket host, and one Node client (ws's
// WebSocket) that answers every question the moment it arrives.
import { connectQuestions } from '@askseam/client';
import { createWebSocketHost } from '@askseam/host-ws';
import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import { UserQuestions } from '@askseam/user-questions';
import { once } from 'node:events';
import WebSocket from 'ws';
import { answerAtOnce } from './answer-at-once.mjs';
import { seamAnswer, toolArgs } from './fixtures.mjs';
import { now, waitUntil } from './stats.mjs';

/** A registry of live root agents, by id; the seam compares agents by identity. */
export function agentRegistry(ids) {
  const agents = new Map(ids.map((id) => [id, { id }]));
  return { agents, registry: { get: (id) => agents.get(id), roots: () => agents.values() } };
}

/**
 * A `ws` WebSocket that can note the size of each frame by type, so the baseline can send
 * frames of exactly the sizes our protocol uses. Off by default: one boolean test per frame.
 */
export function recordingWebSocket() {
  const sizes = { in: {}, out: {} };
  let recording = false;
  const note = (direction, data) => {
    if (!recording || typeof data !== 'string') return;
    const type = /"type":"([^"]+)"/.exec(data)?.[1] ?? '?';
    sizes[direction][type] = Math.max(sizes[direction][type] ?? 0, Buffer.byteLength(data));
  };
  class RecordingWebSocket extends WebSocket {
    constructor(url, ...rest) {
      super(url, ...rest);
      this.addEventListener('message', (event) => note('in', event.data));
    }
    send(data, ...rest) {
      note('out', data);
      return super.send(data, ...rest);
    }
  }
  return { WebSocket: RecordingWebSocket, sizes, record: (on) => { recording = on; } };
}

/**
 * Host + answering peer + tool, one agent. `roundTrip()` runs one tool call to its result text.
 * `answerer: 'client'` (the default) answers with the Node client (`connectQuestions`), which
 * checks every question frame and every answer, as a real UI does; `answerer: 'raw'` answers with
 * a bare `ws` socket that reads each question/requested frame with JSON.parse and sends the fixed
 * respond frame back, so the two rows together show what the client's share of the round trip is.
 * The host checks every answer either way.
 */
export async function startAskseam({ answerer = 'client', telemetry, store } = {}) {
  const { agents, registry } = agentRegistry(['agent-0001']);
  const agent = agents.get('agent-0001');
  // `telemetry`: OpenTelemetry providers for the seam and the host (the telemetry section).
  const userQuestions = new UserQuestions({ agents: registry, ...(telemetry === undefined ? {} : { telemetry }) });
  const token = 'bench-token';
  // `store`: a durable store the caller owns and closes after `close()` (the host leaves a store it was given open).
  const host = await createWebSocketHost({ userQuestions, token, ...(telemetry === undefined ? {} : { telemetry }), ...(store === undefined ? {} : { store }) });
  const recorder = recordingWebSocket();
  const answer = seamAnswer();
  const peer = answerer === 'raw' ? await rawAnswerer(host.url, token, answer, recorder) : await clientAnswerer(host.url, token, answer, recorder);
  const args = toolArgs();

  async function roundTrip() {
    const result = await executeAskUserQuestion(args, { userQuestions, agent });
    if (result.isError) throw new Error(`ask_user_question failed: ${result.text}`);
    return result.text;
  }

  return {
    roundTrip,
    recorder,
    /** `count` sequential round trips; one latency sample (ms) each. */
    async latencies(count) {
      const samples = [];
      for (let i = 0; i < count; i++) {
        const start = now();
        await roundTrip();
        samples.push(now() - start);
      }
      return samples;
    },
    async close() {
      await peer.close();
      await host.close();
    },
  };
}

/** The Node client, answering every question at once (its local checks included). */
async function clientAnswerer(url, token, answer, recorder) {
  const client = connectQuestions({ url, token, WebSocket: recorder.WebSocket, reconnect: false });
  // Receipts still in flight when the run ends would reject `closed`; close() waits for them.
  const inFlight = answerAtOnce(client, answer);
  await waitUntil(() => client.status === 'open', { what: 'the askseam client to open' });
  return {
    async close() {
      await waitUntil(() => inFlight.receipts === 0, { what: 'the last receipts' });
      client.close();
    },
  };
}

/** A bare `ws` socket speaking the protocol by hand: every question/requested gets the same answer back, unchecked. */
async function rawAnswerer(url, token, answer, recorder) {
  const dialed = new URL(url);
  dialed.searchParams.set('token', token);
  const socket = new recorder.WebSocket(dialed.href, { perMessageDeflate: false });
  let sent = 0;
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    if (frame.type !== 'question/requested') return;
    socket.send(JSON.stringify({ type: 'question/respond', id: `raw-${++sent}`, rpcId: frame.rpcId, result: { ok: true, value: { sessionId: frame.sessionId, answer } } }));
  });
  await once(socket, 'open');
  return {
    async close() {
      socket.close();
      await once(socket, 'close');
    },
  };
}

/**
 * Round trips per second with `concurrency` in flight: workers start new round trips until
 * `ms` have passed; the rate counts every completed one over the time until the last finished.
 */
export async function throughput(roundTrip, { ms, concurrency }) {
  let completed = 0;
  const start = now();
  const deadline = start + ms;
  const worker = async () => {
    while (now() < deadline) {
      await roundTrip();
      completed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (completed * 1000) / (now() - start);
}
