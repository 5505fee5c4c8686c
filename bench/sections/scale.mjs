// Section 3: many sessions. (a) Answers per second with Q questions pending across S connected
// sessions, beside a bare `ws` request/response rate over the same number of sockets.
// (b) Reconnect replay: what a fresh connection of one session waits for its own pending
// questions, when few and when many questions are pending in other sessions.
import { setMaxListeners } from 'node:events';
import { startBarePair } from '../lib/bare.mjs';
import { figure, skipped } from '../lib/figure.mjs';
import { recordingWebSocket } from '../lib/askseam.mjs';
import { seamQuestions } from '../lib/fixtures.mjs';
import { connectAnsweringClients, openFileLimit, startSessionHost, timeReplay } from '../lib/sessions.mjs';
import { median, now, settle } from '../lib/stats.mjs';

const SECTION = 'scale';

export async function run(config) {
  const { questions: total, rounds } = config.scale;
  let { sessions } = config.scale;
  const figures = [];

  // Both systems are connected at once: two sockets per connection each, plus slack.
  const limit = openFileLimit();
  const needed = sessions * 4 + 200;
  let fdNote = '';
  if (limit !== undefined && limit < needed) {
    const fitted = Math.max(10, Math.floor((limit - 200) / 4));
    fdNote = ` (ulimit -n is ${limit}: ${sessions} sessions need ~${needed} descriptors, so ${fitted} were used; raise it with \`ulimit -n 8192\`)`;
    console.log(`  ${fdNote.trim()}`);
    sessions = fitted;
  }

  figures.push(...(await answersPerSecond({ sessions, total, rounds, fdNote })));
  figures.push(...(await replayCost(config.scale, sessions, total)));
  return figures;
}

async function answersPerSecond({ sessions, total, rounds, fdNote }) {
  const stack = await startSessionHost(sessions);
  const recorder = recordingWebSocket();
  const users = await connectAnsweringClients(stack, { WebSocket: recorder.WebSocket });
  const questions = seamQuestions();

  /** Ask `total` questions spread evenly over the sessions; resolve when every ask has its answer. */
  async function askAll() {
    const start = now();
    const asks = [];
    for (let i = 0; i < total; i++) asks.push(stack.userQuestions.ask({ questions, agent: stack.agents[i % sessions] }));
    await Promise.all(asks);
    return (total * 1000) / (now() - start);
  }

  // Warm up with one session's worth each, and learn our frame sizes on the way.
  recorder.record(true);
  await Promise.all(stack.agents.slice(0, 20).map((agent) => stack.userQuestions.ask({ questions, agent })));
  recorder.record(false);
  const requestBytes = recorder.sizes.in['question/requested'];
  const replyBytes = recorder.sizes.out['question/respond'];

  const bare = await startBarePair({ requestBytes, replyBytes, clients: sessions });
  async function bareAll() {
    const start = now();
    const exchanges = [];
    for (let i = 0; i < total; i++) exchanges.push(bare.exchange(i % sessions));
    await Promise.all(exchanges);
    return (total * 1000) / (now() - start);
  }

  try {
    await askAll();
    await bareAll();
    const rates = { ours: [], bare: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours'];
      for (const name of order) {
        await settle();
        rates[name].push(name === 'ours' ? await askAll() : await bareAll());
      }
    }
    return [
      figure({
        section: SECTION,
        name: `answers/s, ${total.toLocaleString('en-US')} questions across ${sessions.toLocaleString('en-US')} connected sessions${fdNote}`,
        value: median(rates.ours),
        unit: 'answers/s',
        baseline: { name: `bare ws request/response, ${sessions.toLocaleString('en-US')} sockets, ${requestBytes} B / ${replyBytes} B`, value: median(rates.bare) },
        target: { on: 'ratio', op: '>=', value: 0.5, text: '>= 0.5× bare ws' },
        note: 'Each answer: ask → question/requested → client check → respond → host checks → receipt + question/resolved → ask settles; all clients in the same process.',
      }),
    ];
  } finally {
    await bare.close();
    await users.close();
    await stack.host.close();
  }
}

async function replayCost({ replayOwn, replayOwnLarge, replaySamples, rounds }, sessions, total) {
  if (sessions < 3) return [skipped(SECTION, 'reconnect replay', 'needs at least 3 sessions')];
  const stack = await startSessionHost(sessions);
  const questions = seamQuestions();
  const small = stack.agents[0];
  const large = stack.agents[1];
  const others = stack.agents.slice(2);
  const otherCount = Math.max(0, total - replayOwn - replayOwnLarge);

  // The two measured sessions keep their questions pending for the whole section.
  const keep = new AbortController();
  setMaxListeners(0, keep.signal);
  const kept = [];
  for (let i = 0; i < replayOwn; i++) kept.push(stack.userQuestions.ask({ questions, agent: small, signal: keep.signal }).catch(() => {}));
  for (let i = 0; i < replayOwnLarge; i++) kept.push(stack.userQuestions.ask({ questions, agent: large, signal: keep.signal }).catch(() => {}));

  /** Fill the other sessions with pending questions; returns the abort that empties them again. */
  async function crowd() {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const asks = [];
    for (let i = 0; i < otherCount; i++) {
      asks.push(stack.userQuestions.ask({ questions, agent: others[i % others.length], signal: controller.signal }).catch(() => {}));
    }
    await waitPending(stack, replayOwn + replayOwnLarge + otherCount);
    return async () => {
      controller.abort();
      await Promise.all(asks);
    };
  }

  async function sample(agent, expected) {
    const times = [];
    for (let i = 0; i < replaySamples; i++) times.push(await timeReplay(stack.urlOf(agent.id), expected));
    return times;
  }

  try {
    await waitPending(stack, replayOwn + replayOwnLarge);
    await sample(small, replayOwn); // warm-up
    const times = { quiet: [], crowded: [], crowdedLarge: [] };
    for (let round = 0; round < rounds; round++) {
      times.quiet.push(...(await sample(small, replayOwn)));
      const empty = await crowd();
      times.crowded.push(...(await sample(small, replayOwn)));
      times.crowdedLarge.push(...(await sample(large, replayOwnLarge)));
      await empty();
    }
    const everyone = (replayOwn + replayOwnLarge + otherCount).toLocaleString('en-US');
    return [
      figure({
        section: SECTION,
        name: `reconnect replay, session with ${replayOwn} pending, ${everyone} pending in all`,
        value: median(times.crowded),
        unit: 'ms',
        baseline: { name: `same session, ${replayOwn + replayOwnLarge} pending in all`, value: median(times.quiet) },
        target: { on: 'ratio', op: '<=', value: 1.5, text: '<= 1.5× (no growth with all pending)' },
        note: 'Replay time = new socket → handshake → hello → last replayed question/requested, median of fresh connections.',
      }),
      figure({
        section: SECTION,
        name: `reconnect replay, session with ${replayOwnLarge} pending, ${everyone} pending in all`,
        value: median(times.crowdedLarge),
        unit: 'ms',
        baseline: { name: `session with ${replayOwn} pending, same host at the same time`, value: median(times.crowded) },
        note: 'Informational: grows with the session\'s own pending questions.',
      }),
    ];
  } finally {
    keep.abort();
    await Promise.all(kept);
    await stack.host.close();
  }
}

async function waitPending(stack, count) {
  // The seam's gates run asynchronously; wait until the host holds every question.
  const deadline = now() + 30_000;
  while (stack.pendingCount() < count) {
    if (now() > deadline) throw new Error(`only ${stack.pendingCount()} of ${count} questions became pending`);
    await settle(5);
  }
}
