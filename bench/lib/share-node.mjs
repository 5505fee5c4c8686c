// One host node of the share section, in a process of its own so that its heap holds only what
// the node keeps (the clients and the filler run in the section's process). argv[2] is JSON:
//   { url, keyPrefix, nodeId, holds: 'share' | 'everything', bus: boolean, agents: string[] }
// It measures its heap after full GCs just before the host starts (the questions a node with
// holds 'everything' loads at start are its growth), starts a seam + WebSocket host on the Redis
// store (and a Redis bus when `bus`), counts the bus messages handed to the host, and then answers
// the section's requests over IPC: { id, cmd: 'heap' | 'held' | 'received' | 'asks' | 'quiet' |
// 'reconciles' | 'close' }. Its logger keeps what the host says of each reconcile (duration, questions
// held, ids listed, records read) and counts the connections it let go for missed heartbeats.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { RedisQuestionBus } from '@askseam/bus-redis';
import { createWebSocketHost } from '@askseam/host-ws';
import { RedisQuestionStore } from '@askseam/store-redis';
import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import { UserQuestions } from '@askseam/user-questions';
import { agentRegistry } from './askseam.mjs';
import { toolArgs } from './fixtures.mjs';
import { authenticate } from './sessions.mjs';
import { now, settle } from './stats.mjs';

const options = JSON.parse(process.argv[2] ?? 'null');
if (!options || !process.send) throw new Error('usage: fork(share-node.mjs, [JSON { url, keyPrefix, nodeId, holds, bus, agents }])');
if (typeof globalThis.gc !== 'function') throw new Error('share-node.mjs needs node --expose-gc');

async function heapAfterGc() {
  // Twice, with a turn of the event loop between: the first pass can leave finalisable garbage.
  for (let i = 0; i < 2; i++) {
    globalThis.gc();
    await settle(10);
  }
  return process.memoryUsage().heapUsed;
}

/**
 * The heap once it stops moving: each question a node replays is also an event-log entry
 * (`delivered`) queued for the store, so right after a replay the heap still holds writes on
 * their way to Redis. Measured every 500 ms until two readings are within 0.5 % (at most 20 s).
 */
async function settledHeap() {
  let previous = await heapAfterGc();
  for (let i = 0; i < 40; i++) {
    await settle(500);
    const current = await heapAfterGc();
    if (Math.abs(current - previous) <= 0.005 * previous) return current;
    previous = current;
  }
  return previous;
}

const { agents, registry } = agentRegistry(options.agents);
const userQuestions = new UserQuestions({ agents: registry });
const store = new RedisQuestionStore({ url: options.url, keyPrefix: options.keyPrefix });
let bus;
let received = 0;
if (options.bus) {
  bus = new RedisQuestionBus({ url: options.url, keyPrefix: options.keyPrefix, nodeId: options.nodeId, ...(options.sealKey === undefined ? {} : { sealKey: options.sealKey }) });
  // The Redis bus keeps no count of its own: every message it hands the host passes through here.
  const subscribe = bus.subscribe.bind(bus);
  bus.subscribe = (listener) =>
    subscribe({
      message(message, delivery) {
        received++;
        listener.message(message, delivery);
      },
      resync: () => listener.resync(),
    });
}
// What the host logs of its reconciles and of connections it drops (a node that starves its event
// loop drops clients whose pongs it did not read in time).
const reconciles = [];
let dropped = 0;
const ignore = () => {};
const logger = {
  debug(message, fields) {
    if (message === 'reconciled with the store') reconciles.push({ at: now(), ...fields });
  },
  info(message) {
    if (message.startsWith('terminating a connection that stopped answering pings')) dropped++;
  },
  warn(message) {
    if (message.startsWith('closing a connection that does not read')) dropped++;
  },
  error: ignore,
};
// The event loop's delays, 10 ms resolution: how long the longest turn kept timers and sockets waiting.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
let quietFrom = 0;
const heapBeforeHost = await heapAfterGc();
// maxConnections above the default 1,000: a node serves a third of the sessions twice over (with and without questions).
const host = await createWebSocketHost({ userQuestions, authenticate, store, holds: options.holds, maxConnections: 50_000, logger, ...(options.reconcileMs ? { reconcileMs: options.reconcileMs } : {}), ...(bus ? { bus } : {}) });
const heapAfterStart = await heapAfterGc();
const args = toolArgs();

async function asks(session, count) {
  const agent = agents.get(session);
  if (!agent) throw new Error(`No agent ${session} on node ${options.nodeId}.`);
  const samples = [];
  for (let i = 0; i < count; i++) {
    const start = now();
    const result = await executeAskUserQuestion(args, { userQuestions, agent });
    samples.push(now() - start);
    if (result.isError) throw new Error(`ask_user_question failed on ${options.nodeId} in ${session}: ${result.text}`);
  }
  return samples;
}

const handlers = {
  heap: () => settledHeap(),
  // host.pending() copies what it lists: asked once per phase, after the heap was measured.
  held: () => host.pending().length,
  received: () => received,
  asks: ({ session, count }) => asks(session, count),
  // A quiet phase (nothing asked, nobody connecting): reset the loop's histogram and count reconciles from now.
  quiet: () => {
    loopDelay.reset();
    quietFrom = reconciles.length;
    return true;
  },
  reconciles: () => ({ all: reconciles, quiet: reconciles.slice(quietFrom), dropped, loopMaxMs: loopDelay.max / 1e6, loopP99Ms: loopDelay.percentile(99) / 1e6 }),
  close: async () => {
    await host.close();
    await store.close();
    return true;
  },
};

process.on('message', async ({ id, cmd, ...rest }) => {
  try {
    const value = await handlers[cmd](rest);
    process.send({ id, ok: true, value }, () => {
      if (cmd === 'close') process.exit(0);
    });
  } catch (error) {
    process.send({ id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
// The section is gone (killed over budget, crashed): do not outlive it.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true, url: host.url, heapBeforeHost, heapAfterStart });
