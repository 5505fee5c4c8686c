// A real askseam host, a real Chat SDK bot with the real Slack adapter pointed at the local Web API
// recorder, and the chat channel between them. Webhooks are posted to `bot.webhooks.slack` the way
// a route handler would, and the test waits for the handlers they start (`waitUntil`).
import { createSlackAdapter } from '@chat-adapter/slack';
import { createMemoryState, type MemoryStateAdapter } from '@chat-adapter/state-memory';
import { createWebSocketHost, type HostEvent, type WebSocketHost, type WebSocketHostOptions } from '@askseam/host-ws';
import { UserQuestions, type AgentRef, type AskUserQuestionAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import { Chat } from 'chat';
import { chatChannel, type ChatChannel, type ChatChannelOptions } from '../src/index.js';
import { botToken, startSlackRecorder, type SlackRecorder } from './slack-recorder.js';
import { channelId, signingSecret } from './slack-webhooks.js';

export type Settled = { ok: true; value: AskUserQuestionAnswer } | { ok: false; error: unknown };

const silent = { debug() {}, info() {}, warn() {}, error() {}, child() { return silent; } };

export interface SlackBot {
  bot: Chat;
  channel: ChatChannel;
  /** Post a webhook request and wait for every handler it started. */
  deliver(request: Request): Promise<Response>;
  errors: unknown[];
}

export interface SlackWorld {
  host: WebSocketHost;
  userQuestions: UserQuestions;
  recorder: SlackRecorder;
  state: MemoryStateAdapter;
  events: HostEvent[];
  slack: SlackBot;
  /** The one live agent that asks. */
  agent: AgentRef;
  /** Resolves with the `n`-th card posted (1-based) by any bot of this world. */
  posted(n?: number): Promise<{ rpcId: string; messageId: string }>;
  ask(questions: AskUserQuestionItem[]): Promise<Settled> & { asked: Promise<void> };
  /** Start another bot process on the same state (a restart of the bot). */
  startBot(options?: Partial<ChatChannelOptions>): Promise<SlackBot>;
  close(): Promise<void>;
}

/** `hostOptions`: more of the host's options (a `route`, …). */
export async function startSlackWorld(options: Partial<ChatChannelOptions> = {}, hostOptions: Partial<WebSocketHostOptions> = {}): Promise<SlackWorld> {
  const agent: AgentRef = { id: 'agent-a' };
  const userQuestions = new UserQuestions({ agents: { get: (id: string) => (id === agent.id ? agent : undefined), roots: () => [agent].values() } });
  const events: HostEvent[] = [];
  const host = await createWebSocketHost({ token: 'test-token', port: 0, userQuestions, onEvent: (event) => events.push(event), ...hostOptions });
  const recorder = await startSlackRecorder();
  const state = createMemoryState();
  const bots: SlackBot[] = [];
  const cards: { rpcId: string; messageId: string }[] = [];
  const cardWaiters: (() => void)[] = [];

  async function startBot(overrides: Partial<ChatChannelOptions> = {}): Promise<SlackBot> {
    const adapter = createSlackAdapter({
      botToken,
      signingSecret,
      apiUrl: recorder.url,
      logger: silent,
      // A refused call must fail at once, not retry for half an hour.
      webClientOptions: { retryConfig: { retries: 0 } },
    });
    const bot = new Chat({ userName: 'askseam', adapters: { slack: adapter }, state, logger: silent });
    const errors: unknown[] = [];
    const channel = chatChannel({ bot, host, route: () => `slack:${channelId}`,
      onError: (error) => errors.push(error),
      onPosted: (card) => {
        cards.push(card);
        for (const wake of cardWaiters.splice(0)) wake();
      },
      ...options,
      ...overrides,
    });
    const made: SlackBot = {
      bot,
      channel,
      errors,
      async deliver(request) {
        const started: Promise<unknown>[] = [];
        const response = await bot.webhooks.slack(request, { waitUntil: (task: Promise<unknown>) => started.push(task) });
        await Promise.allSettled(started);
        return response;
      },
    };
    bots.push(made);
    return made;
  }

  const slack = await startBot();
  return {
    host,
    userQuestions,
    recorder,
    state,
    events,
    slack,
    agent,
    startBot,
    async posted(n = 1) {
      while (cards.length < n) await new Promise<void>((resolve) => cardWaiters.push(resolve));
      return cards[n - 1]!;
    },
    ask(questions) {
      const before = host.pending().length;
      const settled = userQuestions.ask({ questions, agent }).then(
        (value): Settled => ({ ok: true, value }),
        (error: unknown): Settled => ({ ok: false, error }),
      );
      const asked = (async () => {
        while (host.pending().length <= before) await new Promise((resolve) => setTimeout(resolve, 5));
      })();
      return Object.assign(settled, { asked });
    },
    async close() {
      for (const made of bots) await made.channel.close();
      await host.close();
      await recorder.close();
    },
  };
}
