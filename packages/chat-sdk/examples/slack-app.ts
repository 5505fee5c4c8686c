// askseam questions answered in Slack: the host, a Chat SDK bot with the Slack adapter, and one
// webhook route (Hono here; a Next.js route handler is the same one line). Run by the tests against
// a local Slack Web API; in production leave `slackApiUrl` out and set the real token and secret.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatChannel } from '@askseam/chat-sdk';
import { createWebSocketHost, toNodeListener } from '@askseam/host-ws';
import { UserQuestions, type AgentRegistry } from '@askseam/user-questions';
import { createSlackAdapter } from '@chat-adapter/slack';
import { createMemoryState } from '@chat-adapter/state-memory';
import { Chat } from 'chat';
import { Hono } from 'hono';

export interface SlackAppOptions {
  agents: AgentRegistry;
  /** xoxb-… (scopes: chat:write, chat:write.public or an invited bot, users:read). */
  botToken: string;
  /** Basic Information → Signing Secret. */
  signingSecret: string;
  /** The channel questions go to, e.g. 'C0123ABC'. */
  slackChannel: string;
  /** Only for tests: where the Slack Web API is. */
  slackApiUrl?: string;
  port?: number;
}

export async function startSlackApp(options: SlackAppOptions): Promise<{ url: string; userQuestions: UserQuestions; close(): Promise<void> }> {
  // #region slack-app
  const userQuestions = new UserQuestions({ agents: options.agents });
  const server: Server = createServer();
  const host = await createWebSocketHost({ userQuestions, server, token: process.env.ASKSEAM_TOKEN ?? 'change-me' });

  const bot = new Chat({
    userName: 'askseam',
    adapters: {
      slack: createSlackAdapter({
        botToken: options.botToken,
        signingSecret: options.signingSecret,
        ...(options.slackApiUrl === undefined ? {} : { apiUrl: options.slackApiUrl, webClientOptions: { retryConfig: { retries: 0 } } }),
      }),
    },
    // Use @chat-adapter/state-redis (or -ioredis, -pg) in production: the channel keeps which
    // message shows which question there, so a restart neither reposts nor loses a click.
    state: createMemoryState(),
  });

  const channel = chatChannel({
    bot,
    host,
    // Every question to one channel; return undefined to leave a question to the page.
    route: () => `slack:${options.slackChannel}`,
  });

  // Slack → Interactivity & Shortcuts → Request URL, and Event Subscriptions → Request URL
  // (message.channels, for thread replies): both https://your.app/api/slack.
  const app = new Hono();
  app.post('/api/slack', (c) => bot.webhooks.slack(c.req.raw));
  const serveApp = toNodeListener((request) => Promise.resolve(app.fetch(request)));
  server.on('request', (req, res) => {
    if (!host.handleRequest(req, res)) serveApp(req, res);
  });
  // #endregion slack-app

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    userQuestions,
    async close() {
      await channel.close();
      await host.close();
      await bot.shutdown();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
