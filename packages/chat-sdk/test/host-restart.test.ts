// A restart of the host and the bot together, on a durable store and a shared state: the question
// asked before is replayed to the new channel, which does not post it again, and a click on the
// card posted before the restart answers it (the asker resumes through `onResume`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSlackAdapter } from '@chat-adapter/slack';
import { createMemoryState } from '@chat-adapter/state-memory';
import { createWebSocketHost } from '@askseam/host-ws';
import type { QuestionRecord } from '@askseam/store';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions } from '@askseam/user-questions';
import { Chat } from 'chat';
import { afterEach, expect, it } from 'vitest';
import { chatChannel } from '../src/index.js';
import { botToken, startSlackRecorder, type SlackRecorder } from './slack-recorder.js';
import { channelId, click, interactive, signingSecret } from './slack-webhooks.js';

const silent = { debug() {}, info() {}, warn() {}, error() {}, child() { return silent; } };
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

it('after a host and bot restart, neither reposts the question nor loses a click on its card', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-chat-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const recorder: SlackRecorder = await startSlackRecorder();
  closers.push(() => recorder.close());
  const state = createMemoryState(); // stands in for the bot's Redis: it outlives the processes
  const resumed: QuestionRecord[] = [];

  async function start() {
    const store = new SqliteQuestionStore(join(dir, 'questions.db'));
    const host = await createWebSocketHost({ token: 'test-token', port: 0, store, userQuestions: new UserQuestions({}), onResume: (record) => void resumed.push(record) });
    const adapter = createSlackAdapter({ botToken, signingSecret, apiUrl: recorder.url, logger: silent, webClientOptions: { retryConfig: { retries: 0 } } });
    const bot = new Chat({ userName: 'askseam', adapters: { slack: adapter }, state, logger: silent });
    let postedTs!: (ts: string) => void;
    const posted = new Promise<string>((resolve) => (postedTs = resolve));
    const channel = chatChannel({ bot, host, route: () => `slack:${channelId}`, onPosted: (card) => postedTs(card.messageId) });
    return { host, channel, bot, posted };
  }

  const first = await start();
  const { rpcId } = await first.host.askDetached({ sessionId: 'nightly', questions: [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
  const ts = await first.posted;
  const [card] = recorder.of('chat.postMessage');
  const yes = (card!.args.blocks as { elements?: { text?: { text: string }; action_id: string; value: string }[] }[]).flatMap((block) => block.elements ?? []).find((element) => element.text?.text === 'Yes')!;
  await first.channel.close();
  await first.host.close();

  const second = await start();
  closers.push(async () => {
    await second.channel.close();
    await second.host.close();
  });
  expect(second.host.pending().map((question) => question.rpcId)).toEqual([rpcId]);
  const started: Promise<unknown>[] = [];
  await second.bot.webhooks.slack(interactive(click('U0ALEX', ts, { type: 'button', action_id: yes.action_id, value: yes.value })), { waitUntil: (task: Promise<unknown>) => started.push(task) });
  await Promise.allSettled(started);
  await recorder.waitFor('chat.update');
  while (resumed.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(resumed[0]).toMatchObject({ rpcId, outcome: 'answered', answer: { answers: [{ id: 'go', selected: ['Yes'] }] }, answeredBy: { via: 'slack', user: 'U0ALEX' } });
  expect(recorder.of('chat.postMessage')).toHaveLength(1);
});
