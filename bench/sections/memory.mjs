// Section 3 (memory): heap held per pending question on a host with no client connected.
// Measured with full GCs (the child runs with --expose-gc): the heap before any question
// exists, after the callers have built their question batches, and after asking them all.
import { setMaxListeners } from 'node:events';
import { seamQuestions } from '../lib/fixtures.mjs';
import { figure, skipped } from '../lib/figure.mjs';
import { startSessionHost } from '../lib/sessions.mjs';
import { settle, waitUntil } from '../lib/stats.mjs';

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
        target: { on: 'value', op: '<=', value: 2048, text: '<= 2,048 B beyond the question' },
        note: 'askseam\'s share = heap growth from asking, after the callers already hold their batches: the seam\'s, the host\'s and the store\'s copies of the questions, the records, the rpcId, the pending-table entry and the promise chain.',
      }),
      figure({
        section: SECTION,
        name: 'heap per pending question, everything minus the question text',
        value: perPendingAll - textBytes,
        unit: 'B',
        baseline: { name: 'question text (JSON bytes)', value: textBytes },
        target: { on: 'value', op: '<=', value: 2048, text: '<= 2,048 B beyond the question text' },
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
