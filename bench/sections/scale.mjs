// Section 3 (throughput): answers per second with Q questions pending across S connected
// sessions, beside a bare `ws` request/response rate over the same number of sockets.
import { startBarePair } from '../lib/bare.mjs';
import { figure } from '../lib/figure.mjs';
import { recordingWebSocket } from '../lib/askseam.mjs';
import { seamQuestions } from '../lib/fixtures.mjs';
import { connectAnsweringClients, openFileLimit, startSessionHost } from '../lib/sessions.mjs';
import { median, now, settle } from '../lib/stats.mjs';

const SECTION = 'scale';

export async function run(config) {
  const { questions: total, rounds } = config.scale;
  let { sessions } = config.scale;

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

  return answersPerSecond({ sessions, total, rounds, warmupQuestions: config.scale.warmupQuestions, fdNote });
}

async function answersPerSecond({ sessions, total, rounds, warmupQuestions, fdNote }) {
  const stack = await startSessionHost(sessions, { countPending: false });
  const recorder = recordingWebSocket();
  const users = await connectAnsweringClients(stack, { WebSocket: recorder.WebSocket });
  const questions = seamQuestions();

  /** Ask `count` questions spread evenly over the sessions; the rate at which they were all answered. */
  async function askAll(count = total) {
    const start = now();
    const asks = [];
    for (let i = 0; i < count; i++) asks.push(stack.userQuestions.ask({ questions, agent: stack.agents[i % sessions] }));
    await Promise.all(asks);
    return (count * 1000) / (now() - start);
  }

  // Warm up with one session's worth each, and learn our frame sizes on the way.
  recorder.record(true);
  await Promise.all(stack.agents.slice(0, 20).map((agent) => stack.userQuestions.ask({ questions, agent })));
  await settle(100); // the receipts arrive after the asks settle
  recorder.record(false);
  const requestBytes = recorder.sizes.in['question/requested'];
  const replyBytes = recorder.sizes.out['question/respond'];
  // What else the answering connection is sent per answer (protocol 2: the receipt alone).
  const followUps = ['receipt', 'question/resolved'].map((type) => recorder.sizes.in[type]).filter((bytes) => bytes !== undefined);

  const bare = await startBarePair({ requestBytes, replyBytes, clients: sessions });
  const bareSame = await startBarePair({ requestBytes, replyBytes, clients: sessions, afterReply: followUps });
  const bareAll = (pair) => async (count = total) => {
    const start = now();
    const exchanges = [];
    for (let i = 0; i < count; i++) exchanges.push(pair.exchange(i % sessions));
    await Promise.all(exchanges);
    return (count * 1000) / (now() - start);
  };
  const runs = { ours: askAll, bare: bareAll(bare), bareSame: bareAll(bareSame) };

  try {
    for (const measure of Object.values(runs)) await measure(warmupQuestions);
    const rates = { ours: [], bare: [], bareSame: [] };
    for (let round = 0; round < rounds; round++) {
      const order = Object.keys(runs);
      if (round % 2 === 1) order.reverse();
      for (const name of order) {
        await settle();
        const rate = await runs[name]();
        rates[name].push(rate);
        console.log(`  round ${round + 1}: ${name} ${Math.round(rate).toLocaleString('en-US')}/s`);
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
        note: 'Each answer: ask → question/requested → client check → respond → host checks → receipt → ask settles; all clients in the same process.',
      }),
      figure({
        section: SECTION,
        name: `answers/s vs the same ${2 + followUps.length} frames per answer over bare ws`,
        value: median(rates.ours),
        unit: 'answers/s',
        baseline: { name: `bare ws, ${sessions.toLocaleString('en-US')} sockets, request + reply + ${followUps.map((bytes) => `${bytes} B`).join(' + ')} back`, value: median(rates.bareSame) },
        note: 'Informational: what our code costs on top of the frames it sends.',
      }),
    ];
  } finally {
    await bare.close();
    await bareSame.close();
    await users.close();
    await stack.host.close();
  }
}
