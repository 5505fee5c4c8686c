// Section 9: a question answered by a click in Slack (the real Chat SDK and Slack adapter, the
// Web API on loopback), from the signed click reaching the webhook route to the agent's ask
// resolving, beside the page's own round trip (section 1's stack) measured in the same run.
import { chatChannel } from '@askseam/chat-sdk';
import { createWebSocketHost } from '@askseam/host-ws';
import { UserQuestions } from '@askseam/user-questions';
import { createSlackAdapter } from '@chat-adapter/slack';
import { createMemoryState } from '@chat-adapter/state-memory';
import { Chat } from 'chat';
import { agentRegistry, startAskseam } from '../lib/askseam.mjs';
import { figure } from '../lib/figure.mjs';
import { signedClick, slackSecret, slackToken, startSlackApi } from '../lib/slack-api.mjs';
import { interleave, now, quantile } from '../lib/stats.mjs';

const SECTION = 'chat';
const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

async function startSlack() {
  const api = await startSlackApi();
  const { agents, registry } = agentRegistry(['agent-0001']);
  const agent = agents.get('agent-0001');
  const userQuestions = new UserQuestions({ agents: registry });
  const host = await createWebSocketHost({ userQuestions, token: 'bench-token' });
  const adapter = createSlackAdapter({ botToken: slackToken, signingSecret: slackSecret, apiUrl: api.url, logger: silent, webClientOptions: { retryConfig: { retries: 0 } } });
  const bot = new Chat({ userName: 'askseam', adapters: { slack: adapter }, state: createMemoryState(), logger: silent });
  let posted;
  const channel = chatChannel({ bot, host, route: () => 'slack:CBENCH', onPosted: (card) => posted?.(card) });
  const question = { id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] };

  async function clickToAnswer() {
    const card = new Promise((resolve) => (posted = resolve));
    const answer = userQuestions.ask({ agent, questions: [question] });
    const { messageId } = await card;
    const request = signedClick({ user: 'UPERSON', channel: 'CBENCH', messageTs: messageId, actionId: 'askseam.o.0.0', value: await keyedValue(bot, messageId) });
    const start = now();
    const tasks = [];
    await bot.webhooks.slack(request, { waitUntil: (task) => tasks.push(task) });
    await answer;
    const elapsed = now() - start;
    await Promise.all(tasks);
    return elapsed;
  }

  return {
    async latencies(count) {
      const samples = [];
      for (let i = 0; i < count; i++) samples.push(await clickToAnswer());
      return samples;
    },
    async close() {
      await channel.close();
      await host.close();
      await api.close();
    },
  };
}

/** The Yes button's value on the card `messageTs`: its card key from the channel's state, then verb and indexes. */
async function keyedValue(bot, messageTs) {
  const state = bot.getState();
  const key = await state.get(`askseam:chat:msg:slack:CBENCH:${messageTs}:${messageTs}`);
  return `${key}.o.0.0`;
}

export async function run(config) {
  const { warmup, rounds, perRound } = config.chat;
  const page = await startAskseam();
  const slack = await startSlack();
  try {
    const samples = await interleave(
      [
        { name: 'slack', run: (count) => slack.latencies(count) },
        { name: 'page', run: (count) => page.latencies(count) },
      ],
      { warmup, rounds, perRound },
    );
    return [
      figure({
        section: SECTION,
        name: `Slack click → ask resolved p50 (signed webhook → Chat SDK → host judging → agent; n=${samples.slack.length})`,
        value: quantile(samples.slack, 0.5),
        unit: 'ms',
        baseline: { name: 'the page\'s round trip p50 (section 1\'s stack)', value: quantile(samples.page, 0.5) },
        note: 'Informational: the click row starts when the signed request reaches bot.webhooks.slack (Slack\'s own network time excluded) and includes signature checking, the state lookup and the host\'s judging; the page row is a whole tool call including delivery.',
      }),
    ];
  } finally {
    await slack.close();
    await page.close();
  }
}
