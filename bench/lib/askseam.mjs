// Our stack, wired as a user would: the seam, the WebSocket host, and one Node client (ws's
// WebSocket) that answers every question the moment it arrives.
import { connectQuestions } from '@askseam/client';
import { createWebSocketHost } from '@askseam/host-ws';
import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import { UserQuestions } from '@askseam/user-questions';
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

/** Host + client + tool, one agent. `roundTrip()` runs one tool call to its result text. */
export async function startAskseam() {
  const { agents, registry } = agentRegistry(['agent-0001']);
  const agent = agents.get('agent-0001');
  const userQuestions = new UserQuestions({ agents: registry });
  const token = 'bench-token';
  const host = await createWebSocketHost({ userQuestions, token });
  const recorder = recordingWebSocket();
  const client = connectQuestions({ url: host.url, token, WebSocket: recorder.WebSocket, reconnect: false });
  const answer = seamAnswer();
  // Receipts still in flight when the run ends would reject `closed`; close() waits for them.
  const inFlight = answerAtOnce(client, answer);
  await waitUntil(() => client.status === 'open', { what: 'the askseam client to open' });
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
      await waitUntil(() => inFlight.receipts === 0, { what: 'the last receipts' });
      client.close();
      await host.close();
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
