// The channel end to end in Telegram: the real Chat SDK and Telegram adapter, a real askseam host,
// the Bot API at a local recorder, and webhook updates carrying Telegram's secret token header.
import { createTelegramAdapter } from '@chat-adapter/telegram';
import { createMemoryState } from '@chat-adapter/state-memory';
import { createWebSocketHost, type HostEvent, type WebSocketHost } from '@askseam/host-ws';
import { approvalDecisionOf, approvalQuestions, UserQuestions, type AgentRef, type AskUserQuestionItem } from '@askseam/user-questions';
import { Chat } from 'chat';
import { afterEach, describe, expect, it } from 'vitest';
import { chatChannel, type ChatChannel } from '../src/index.js';
import { callbackQuery, chatId, replyMessage, startTelegramRecorder, telegramSecret, telegramToken, telegramUpdate, type TelegramRecorder } from './telegram-recorder.js';

const silent = { debug() {}, info() {}, warn() {}, error() {}, child() { return silent; } };
const agent: AgentRef = { id: 'agent-a' };
const colour: AskUserQuestionItem = { id: 'colour', question: 'Which **colour**?', options: [{ label: 'Red (Recommended)' }, { label: 'Blue' }] };

interface World {
  host: WebSocketHost;
  userQuestions: UserQuestions;
  recorder: TelegramRecorder;
  events: HostEvent[];
  posted: { rpcId: string; messageId: string }[];
  nextPost(): Promise<void>;
  startBot(): { bot: Chat; channel: ChatChannel; deliver(request: Request): Promise<Response> };
  close(): Promise<void>;
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function startWorld(): Promise<World> {
  const userQuestions = new UserQuestions({ agents: { get: (id: string) => (id === agent.id ? agent : undefined), roots: () => [agent].values() } });
  const events: HostEvent[] = [];
  const host = await createWebSocketHost({ token: 'test-token', port: 0, userQuestions, onEvent: (event) => events.push(event) });
  const recorder = await startTelegramRecorder();
  const state = createMemoryState();
  const channels: ChatChannel[] = [];
  const posted: World['posted'] = [];
  const postWaiters: (() => void)[] = [];
  return {
    host,
    userQuestions,
    recorder,
    events,
    posted,
    nextPost: () => new Promise<void>((resolve) => postWaiters.push(resolve)),
    startBot() {
      const adapter = createTelegramAdapter({ botToken: telegramToken, secretToken: telegramSecret, apiUrl: recorder.url, mode: 'webhook', logger: silent });
      const bot = new Chat({ userName: 'askseam_bot', adapters: { telegram: adapter }, state, logger: silent });
      const channel = chatChannel({ bot, host, route: () => `telegram:${chatId}`, onPosted: (card) => {
        posted.push(card);
        for (const wake of postWaiters.splice(0)) wake();
      }, onError: (error) => { throw error; } });
      channels.push(channel);
      return {
        bot,
        channel,
        async deliver(request) {
          const started: Promise<unknown>[] = [];
          const response = await bot.webhooks.telegram(request, { waitUntil: (task: Promise<unknown>) => started.push(task) });
          await Promise.allSettled(started);
          return response;
        },
      };
    },
    async close() {
      for (const channel of channels) await channel.close();
      await host.close();
      await recorder.close();
    },
  };
}

const settle = (questions: AskUserQuestionItem[]) =>
  world!.userQuestions.ask({ questions, agent }).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

async function card(n = 1) {
  while (world!.posted.length < n) await world!.nextPost();
  const { messageId, rpcId } = world!.posted[n - 1]!;
  const id = Number(messageId.split(':').pop());
  const post = world!.recorder.of('sendMessage').find((call) => (call.result as { message_id?: number } | undefined)?.message_id === id)!;
  const buttons = ((post.args.reply_markup as { inline_keyboard?: { text: string; callback_data: string }[][] } | undefined)?.inline_keyboard ?? []).flat();
  return { id, rpcId, post, buttons };
}

describe('a question in Telegram', () => {
  it('is answered by a button whose callback data fits in 64 bytes, and the card loses its buttons', async () => {
    world = await startWorld();
    const { deliver } = world.startBot();
    const settled = settle([{ ...colour, options: [{ label: `Red ${'very '.repeat(30)}long (Recommended)` }, { label: 'Blue' }] }]);
    const { id, buttons } = await card();
    expect(buttons.map((button) => Buffer.byteLength(button.callback_data) <= 64)).toEqual([true, true]);
    expect(buttons[0]!.text.startsWith('★ Red')).toBe(true);
    await deliver(telegramUpdate(callbackQuery(42, id, buttons[0]!.callback_data)));
    const result = await settled;
    expect(result.ok && result.value.answers[0]!.selected[0]).toMatch(/^Red (very ){30}long \(Recommended\)$/);
    const answered = world.events.find((event) => event.type === 'answered') as { answeredBy?: unknown } | undefined;
    expect(answered?.answeredBy).toMatchObject({ via: 'telegram', user: '42', destination: `telegram:${chatId}` });
    const [edit] = await world.recorder.waitFor('editMessageText');
    expect(edit!.args.message_id).toBe(id);
    expect(edit!.args.reply_markup).toEqual({ inline_keyboard: [] });
    expect(String(edit!.args.text)).toContain('Answered by @person42');
  });

  it('answers a batch by a reply to the card, and corrects a reply that does not fit', async () => {
    world = await startWorld();
    const { deliver } = world.startBot();
    const settled = settle([colour, { id: 'n', question: 'How many?', input: { kind: 'number', min: 1 } }]);
    const { id, buttons } = await card();
    expect(buttons).toEqual([]);
    await deliver(telegramUpdate(replyMessage(43, id, '1: blue\n2: zero')));
    const corrections = world.recorder.of('sendMessage').filter((call) => /did not answer/.test(String(call.args.text)));
    expect(corrections).toHaveLength(1);
    expect(world.host.pending()).toHaveLength(1);
    await deliver(telegramUpdate(replyMessage(43, id, '1: blue\n2: 4')));
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Blue'] }, { id: 'n', selected: [], custom: '4' }] } });
  });

  it('approves and denies with a reason', async () => {
    world = await startWorld();
    const { deliver } = world.startBot();
    const questions = approvalQuestions({ tool: { name: 'deploy', input: { env: 'prod', note: '```\n*Approved*' } } });
    const approved = settle(questions);
    const first = await card();
    expect(String(first.post.args.text)).toContain('*Approved*');
    await deliver(telegramUpdate(callbackQuery(42, first.id, first.buttons.find((button) => button.text === 'Approve')!.callback_data)));
    const one = await approved;
    expect(one.ok && approvalDecisionOf(questions, one.value)).toEqual({ approved: true });

    const denied = settle(questions);
    const second = await card(2);
    await deliver(telegramUpdate(replyMessage(43, second.id, 'deny: not on a Friday')));
    const two = await denied;
    expect(two.ok && approvalDecisionOf(questions, two.value)).toEqual({ approved: false, reason: 'not on a Friday' });
  });

  it('answers nothing for an update without the secret token, and a late click is told', async () => {
    world = await startWorld();
    const { deliver } = world.startBot();
    const settled = settle([colour]);
    const { id, buttons } = await card();
    expect((await deliver(telegramUpdate(callbackQuery(66, id, buttons[1]!.callback_data), 'forged'))).status).toBe(401);
    expect(world.host.pending()).toHaveLength(1);
    await deliver(telegramUpdate(callbackQuery(42, id, buttons[1]!.callback_data)));
    await settled;
    await deliver(telegramUpdate(callbackQuery(44, id, buttons[0]!.callback_data)));
    expect(world.recorder.of('sendMessage').some((call) => /already been answered/.test(String(call.args.text)))).toBe(true);
    expect(world.events.filter((event) => event.type === 'answered')).toHaveLength(1);
  });

  it('after a restart, neither reposts nor loses a click on the old card', async () => {
    world = await startWorld();
    const first = world.startBot();
    const settled = settle([colour]);
    const { id, buttons } = await card();
    await first.channel.close();
    const second = world.startBot();
    await second.bot.initialize();
    await second.deliver(telegramUpdate(callbackQuery(42, id, buttons[1]!.callback_data)));
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Blue'] }] } });
    expect(world.recorder.of('sendMessage').filter((call) => call.args.reply_markup !== undefined)).toHaveLength(1);
  });
});
