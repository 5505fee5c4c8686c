// Section 3 (memory): heap held per pending question on a host with no client connected, and
// per idle authenticated connection. Measured with full GCs (the child runs with --expose-gc):
// the heap before any question exists, after the callers have built their question batches, and
// after asking them all; the heap before and after N idle clients connect (askseam's host, then a
// bare `ws` server doing the same authentication, alternately).
import { setMaxListeners } from 'node:events';
import { seamQuestions } from '../lib/fixtures.mjs';
import { figure, skipped } from '../lib/figure.mjs';
import { heapPerIdleConnection } from '../lib/idle-connections.mjs';
import { startSessionHost } from '../lib/sessions.mjs';
import { median, settle, waitUntil } from '../lib/stats.mjs';

const SECTION = 'memory';

async function heapAfterGc() {
  // Twice, with a turn of the event loop between: the first pass can leave finalisable garbage.
  for (let i = 0; i < 2; i++) {
    globalThis.gc();
    await settle(10);
  }
  return process.memoryUsage().heapUsed;
}

export async function run(config) {
  if (typeof globalThis.gc !== 'function') return [skipped(SECTION, 'heap per pending question', 'needs node --expose-gc')];
  return [...(await pendingQuestions(config)), await idleConnections(config)];
}

async function pendingQuestions(config) {
  const { sessions, questions: total } = config.scale;
  const stack = await startSessionHost(sessions);
  const asks = [];
  try {
    // Warm every code path once so that compiled code and caches are not counted as questions.
    const warm = new AbortController();
    setMaxListeners(0, warm.signal); // one abort listener per question is expected here
    const warmAsks = stack.agents.slice(0, 50).map((agent) => stack.userQuestions.ask({ questions: seamQuestions('warm'), agent, signal: warm.signal }).catch(() => {}));
    await waitUntil(() => stack.pendingCount() === 50, { what: 'warm-up questions' });
    warm.abort();
    await Promise.all(warmAsks);

    const before = await heapAfterGc();
    // Each caller holds its own batch, parsed from JSON as a model's tool call arrives: fresh,
    // flat strings, a distinct question text per batch.
    const batches = Array.from({ length: total }, (_, index) => JSON.parse(JSON.stringify(seamQuestions(` #${index}`))));
    const withBatches = await heapAfterGc();
    for (let i = 0; i < total; i++) {
      // No .catch here: its extra promise per ask would be counted as the host's.
      asks.push(stack.userQuestions.ask({ questions: batches[i], agent: stack.agents[i % sessions] }));
    }
    await waitUntil(() => stack.pendingCount() === total, { what: 'every question to be pending' });
    const withPending = await heapAfterGc();

    const textBytes = Buffer.byteLength(JSON.stringify(batches[0]));
    const batchBytes = (withBatches - before) / total;
    const perPending = (withPending - withBatches) / total;
    const perPendingAll = (withPending - before) / total;
    return [
      figure({
        section: SECTION,
        name: `heap per pending question, askseam's share (${total.toLocaleString('en-US')} pending, ${sessions.toLocaleString('en-US')} sessions, no client)`,
        value: perPending,
        unit: 'B',
        baseline: { name: `the caller's own question batch as JS objects (${textBytes} B as JSON text)`, value: batchBytes },
        target: { on: 'value', op: '<=', value: 1024, text: '<= 1,024 B beyond the caller\'s batch (issue 19)' },
        note: 'askseam\'s share = heap growth from asking, after the callers already hold their batches: the seam\'s sealed copy of the questions (shared by the host and the memory store), the record, the rpcId, the pending-table entry, the waiter and the promise chain.',
      }),
      figure({
        section: SECTION,
        name: 'heap per pending question, everything minus the question text',
        value: perPendingAll - textBytes,
        unit: 'B',
        baseline: { name: 'question text (JSON bytes)', value: textBytes },
        target: { on: 'value', op: '<=', value: 1024, text: '<= 1,024 B beyond the question text (issue 19)' },
        note: 'The literal reading: all heap growth per question, caller\'s batch included, minus its JSON size.',
      }),
    ];
  } finally {
    // Handlers go on before close() rejects every pending ask with ASK_ABORTED.
    const settled = Promise.allSettled(asks);
    await stack.host.close();
    await settled;
  }
}

/** Per idle authenticated connection: askseam's host against a bare `ws` server, alternately, median of the rounds. */
async function idleConnections(config) {
  const count = config.scale.sessions;
  const rounds = 3;
  const bare = [];
  const askseam = [];
  for (let round = 0; round < rounds; round++) {
    bare.push(await heapPerIdleConnection('bare', count, heapAfterGc));
    askseam.push(await heapPerIdleConnection('askseam', count, heapAfterGc));
  }
  const barePer = median(bare);
  const askseamPer = median(askseam);
  return figure({
    section: SECTION,
    name: `heap per idle authenticated connection, askseam's share (${count.toLocaleString('en-US')} connections, one session each)`,
    value: askseamPer - barePer,
    unit: 'B',
    baseline: { name: `a bare \`ws\` server's connection with the same authenticate (${Math.round(askseamPer).toLocaleString('en-US')} B per askseam connection in all)`, value: barePer },
    target: { on: 'value', op: '<=', value: 2048, text: '<= 2 KiB beyond a bare ws connection (issue 19)' },
    note:
      'Server-side JS heap (heapUsed after full GCs; Buffers and kernel socket memory are not counted) per connection once N raw ws clients in another process are connected and idle, ' +
      'askseam\'s host (authenticated, hello sent, no question pending) minus a bare ws server in noServer mode that runs the same authenticate, keeps the principal in a Map by socket and has a message, an error and a close listener per socket. ' +
      `Median of ${rounds} alternating rounds each (bare ${bare.map((v) => Math.round(v)).join(', ')} B; askseam ${askseam.map((v) => Math.round(v)).join(', ')} B).`,
  });
}
