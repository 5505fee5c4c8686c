// Section 3 (replay): what a fresh connection of one session waits for its own pending
// questions, when few and when many questions are pending in other sessions. Alternates
// quiet / crowded / quiet / crowded on one host by asking and then aborting the crowd.
import { setMaxListeners } from 'node:events';
import { figure, skipped } from '../lib/figure.mjs';
import { seamQuestions } from '../lib/fixtures.mjs';
import { startSessionHost, timeReplay } from '../lib/sessions.mjs';
import { median, now, settle } from '../lib/stats.mjs';

const SECTION = 'replay';

export async function run(config) {
  return replayCost(config.scale, config.scale.sessions, config.scale.questions);
}

async function replayCost({ replayOwn, replayOwnLarge, replaySamples, replayRounds: rounds }, sessions, total) {
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
      console.log(`  replay round ${round + 1}: quiet ${median(times.quiet).toFixed(2)} ms, crowded ${median(times.crowded).toFixed(2)} ms`);
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
