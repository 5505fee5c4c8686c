// The README's Slack app, run as a server: a signed click posted over HTTP to its webhook route
// answers the agent's question.
import { afterEach, expect, it } from 'vitest';
import { startSlackApp } from '../examples/slack-app.js';
import { botToken, startSlackRecorder, type SlackRecorder } from './slack-recorder.js';
import { channelId, click, interactive, signingSecret } from './slack-webhooks.js';

let recorder: SlackRecorder | undefined;
let app: Awaited<ReturnType<typeof startSlackApp>> | undefined;
afterEach(async () => {
  await app?.close();
  await recorder?.close();
});

it('answers a question clicked in Slack through the app\'s webhook route', async () => {
  recorder = await startSlackRecorder();
  const agent = { id: 'agent-a' };
  app = await startSlackApp({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent].values() }, botToken, signingSecret, slackChannel: channelId, slackApiUrl: recorder.url });
  const answer = app.userQuestions.ask({ agent, questions: [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
  const [post] = await recorder.waitFor('chat.postMessage');
  const yes = (post!.args.blocks as { type: string; elements?: { text?: { text: string }; action_id: string; value: string }[] }[]).flatMap((block) => block.elements ?? []).find((element) => element.text?.text === 'Yes')!;
  const request = interactive(click('U0ALEX', String(post!.result?.ts), { type: 'button', action_id: yes.action_id, value: yes.value }));
  const response = await fetch(`${app.url}/api/slack`, { method: 'POST', headers: request.headers, body: await request.text() });
  expect(response.status).toBe(200);
  expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] });
});
