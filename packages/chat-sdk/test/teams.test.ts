// Teams, as far as it goes offline. Posting a card needs a token from Microsoft's token service and
// an inbound activity needs a JWT signed by Microsoft, so neither round trip runs here; what does:
// the card a question becomes (an Adaptive Card, through the adapter's own converter) and the
// adapter refusing a webhook that does not carry Microsoft's signature, with nothing answered.
import { createTeamsAdapter, cardToAdaptiveCard } from '@chat-adapter/teams';
import { createMemoryState } from '@chat-adapter/state-memory';
import { createWebSocketHost, type HostEvent, type WebSocketHost } from '@askseam/host-ws';
import { approvalQuestions, UserQuestions, type AgentRef } from '@askseam/user-questions';
import { Chat } from 'chat';
import { afterEach, describe, expect, it } from 'vitest';
import { chatChannel, type ChatChannel } from '../src/index.js';
import { chatQuestionCard } from '../src/chat-card.js';
import { decodeControl } from '../src/codec.js';

const silent = { debug() {}, info() {}, warn() {}, error() {}, child() { return silent; } };

describe('a question in Teams', () => {
  it('becomes an Adaptive Card whose buttons carry the card key, and an approval shows its arguments as code', () => {
    const card = cardToAdaptiveCard(chatQuestionCard('abcdefghij', approvalQuestions({ tool: { name: 'deploy', input: { env: 'prod' } } })));
    const texts = ((card as { body?: { text?: string }[] }).body ?? []).map((block) => block.text ?? '');
    expect(texts).toContain('```\n{\n  "env": "prod"\n}\n```');
    const actions = (card as { actions?: { title: string; data?: unknown }[] }).actions ?? [];
    expect(actions.map((action) => action.title)).toEqual(['Approve', 'Deny']);
    const values = actions.map((action) => JSON.stringify(action.data).match(/abcdefghij\.o\.0\.\d/)?.[0]);
    expect(values.map((value) => decodeControl(value)?.option)).toEqual([0, 1]);
  });

  let host: WebSocketHost | undefined;
  let channel: ChatChannel | undefined;
  afterEach(async () => {
    await channel?.close();
    await host?.close();
  });

  it('answers nothing for a webhook without Microsoft\'s signature', async () => {
    const agent: AgentRef = { id: 'agent-a' };
    const userQuestions = new UserQuestions({ agents: { get: (id: string) => (id === agent.id ? agent : undefined), roots: () => [agent].values() } });
    const events: HostEvent[] = [];
    host = await createWebSocketHost({ token: 'test-token', port: 0, userQuestions, onEvent: (event) => events.push(event) });
    const adapter = createTeamsAdapter({ appId: '00000000-0000-0000-0000-000000000001', appPassword: 'not-used', logger: silent });
    const bot = new Chat({ userName: 'askseam', adapters: { teams: adapter }, state: createMemoryState(), logger: silent });
    // No route to Teams: posting would need Microsoft's token service.
    channel = chatChannel({ bot, host, route: () => undefined });
    void userQuestions.ask({ agent, questions: [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }] }).catch(() => undefined);
    while (host.pending().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const activity = {
      type: 'invoke',
      name: 'adaptiveCard/action',
      id: 'act1',
      serviceUrl: 'http://127.0.0.1:9/',
      from: { id: '29:forger', name: 'Eve' },
      conversation: { id: '19:team@thread.tacv2' },
      recipient: { id: '28:bot' },
      value: { action: { type: 'Action.Execute', data: { actionId: 'askseam.o.0.0', value: 'abcdefghij.o.0.0' } } },
    };
    for (const authorization of [undefined, 'Bearer forged.jwt.token']) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization !== undefined) headers.authorization = authorization;
      const response = await bot.webhooks.teams(new Request('https://app.example.com/api/teams', { method: 'POST', headers, body: JSON.stringify(activity) }));
      expect(response.status).toBeGreaterThanOrEqual(400);
    }
    expect(host.pending()).toHaveLength(1);
    expect(events.filter((event) => event.type === 'answered')).toHaveLength(0);
  });
});
