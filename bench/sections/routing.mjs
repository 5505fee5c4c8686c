// Section 9: the cost of routing. Ask → delivered (an agent's ask through the seam until the
// question/requested frame reaches the answerer's socket) on a host with a three-tier route, beside the same host without
// a route, in alternating blocks in the same run. The answerer is tier 0's principal; tiers 1 and
// 2 (a group, a principal) are due long after the run, so their timers are armed but never fire.
import { createWebSocketHost } from '@askseam/host-ws';
import { MemoryQuestionStore } from '@askseam/store';
import { UserQuestions } from '@askseam/user-questions';
import WebSocket from 'ws';
import { figure } from '../lib/figure.mjs';
import { seamQuestions } from '../lib/fixtures.mjs';
import { interleave, median } from '../lib/stats.mjs';

const SECTION = 'routing';

const threeTiers = () => [
  { answerers: [{ principal: 'oncall-1' }] },
  { answerers: [{ group: 'leads' }], after: 3_600_000 },
  { answerers: [{ principal: 'director' }], after: 7_200_000 },
];

export async function run(config) {
  const { warmup, rounds, perRound } = config.routing;
  const unrouted = await start(undefined);
  const routed = await start(threeTiers);
  try {
    const samples = await interleave(
      [
        { name: 'none', run: (count) => unrouted.measure(count) },
        { name: 'routed', run: (count) => routed.measure(count) },
      ],
      { warmup, rounds, perRound },
    );
    return [
      figure({
        section: SECTION,
        name: 'ask → delivered with a 3-tier route (median, µs)',
        value: median(samples.routed),
        unit: 'µs',
        baseline: { name: 'the same ask on the same host without a route', value: median(samples.none) },
        target: { on: 'ratio', op: '<=', value: 1.5, text: '<= 1.5× unrouted' },
        note: 'Routing adds the route call and its checks at ask time, one timer per later tier, and a route check per subscriber on delivery. An askDetached question is copied for the route (the seam\'s batch is frozen and passed as it is): about 30 µs more.',
      }),
    ];
  } finally {
    await unrouted.close();
    await routed.close();
  }
}

/** A host (own in-memory store) and one connected answerer; `measure(count)` asks one at a time and times each until delivered. */
async function start(route) {
  const agent = { id: 'session-1' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const host = await createWebSocketHost({
    userQuestions,
    port: 0,
    store: new MemoryQuestionStore({ retainFinished: 100 }),
    authenticate: () => ({ id: 'oncall-1', canSee: () => true, groups: ['oncall'] }),
    ...(route === undefined ? {} : { route }),
  });
  const socket = new WebSocket(host.url);
  let waiting;
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if (frame.type === 'question/requested') waiting?.(frame.rpcId);
  });
  await new Promise((resolve, reject) => {
    socket.once('message', resolve);
    socket.once('error', reject);
  });
  const questions = seamQuestions();
  return {
    async measure(count) {
      const samples = [];
      for (let i = 0; i < count; i++) {
        const started = process.hrtime.bigint();
        const delivered = new Promise((resolve) => (waiting = resolve));
        const asking = userQuestions.ask({ agent, questions }).catch(() => undefined);
        const rpcId = await delivered;
        samples.push(Number(process.hrtime.bigint() - started) / 1000);
        // Dismissed, so the pending table does not grow across the run.
        socket.send(JSON.stringify({ type: 'question/respond', rpcId, result: { ok: false, error: { code: 'cancelled' } } }));
        await asking;
      }
      return samples;
    },
    async close() {
      socket.close();
      await host.close();
    },
  };
}
