// Routing applies to in-process channels (host.openChannel) too: a channel is shown a routed
// question when a reached tier names one of its destinations, learns of later destinations through
// onEscalated, and its answers are allowed by the destination they came from (or the principal
// the channel mapped the person to).
import { vi } from 'vitest';
import { afterEach, expect, it } from 'vitest';
import type { ChannelQuestion, Route } from '../src/index.js';
import { cleanup, redAnswer, startHost } from './fixture.js';
import { authenticatePeople } from './routing-fixture.js';

afterEach(cleanup);

const route: Route = () => [
  { answerers: [{ channel: 'slack:C0ONCALL' }] },
  { answerers: [{ channel: 'slack:C0LEADS' }, { principal: 'alice' }], after: 1_000 },
];
const answer = (sessionId: string) => ({ ok: true, value: { sessionId, answer: redAnswer } });

it('shows a routed question to the channel its destinations belong to, with them, and tells it of the next tier\'s', async () => {
  const test = await startHost({ token: undefined, authenticate: authenticatePeople, route });
  const slackSeen: ChannelQuestion[] = [];
  const slackEscalated: ChannelQuestion[] = [];
  const emailSeen: ChannelQuestion[] = [];
  const slack = test.host.openChannel({ via: 'slack', onQuestion: (q) => void slackSeen.push(q), onSettled: () => {}, onEscalated: (q) => void slackEscalated.push(q) });
  const email = test.host.openChannel({ via: 'email', onQuestion: (q) => void emailSeen.push(q), onSettled: () => {} });
  const asking = test.ask('agent-a');

  await vi.waitFor(() => expect(slackSeen).toHaveLength(1));
  const [question] = slackSeen;
  expect(question!.destinations).toEqual(['slack:C0ONCALL']);
  // The e-mail channel has no destination in the route: it is not shown the question, and may not answer it.
  expect(emailSeen).toEqual([]);
  expect(email.pending()).toEqual([]);
  expect(await email.respond(question!.rpcId, answer('agent-a'), { destination: 'email:x@example.com' })).toMatchObject({ accepted: false, reason: 'forbidden' });
  // From the leads' Slack channel, before its tier: refused, nothing recorded.
  expect(await slack.respond(question!.rpcId, answer('agent-a'), { destination: 'slack:C0LEADS', user: 'U1' })).toMatchObject({ accepted: false, reason: 'forbidden' });

  // Tier 1 names a second Slack destination: the channel hears of it, and an answer from there is taken.
  await vi.waitFor(() => expect(slackEscalated).toHaveLength(1), { timeout: 5_000 });
  expect(slackEscalated[0]!.destinations).toEqual(['slack:C0ONCALL', 'slack:C0LEADS']);
  expect(await slack.respond(question!.rpcId, answer('agent-a'), { destination: 'slack:C0LEADS', user: 'U1' })).toMatchObject({ accepted: true });
  expect(await asking).toEqual(redAnswer);
  expect((await test.host.store.get(question!.rpcId))?.answeredBy).toEqual({ principalId: 'channel:slack', via: 'slack', user: 'U1', destination: 'slack:C0LEADS' });
});

it('takes a channel answer from a person the channel maps to a principal of a reached tier', async () => {
  const test = await startHost({ token: undefined, authenticate: authenticatePeople, route });
  const seen: ChannelQuestion[] = [];
  const email = test.host.openChannel({ via: 'email', onQuestion: (q) => void seen.push(q), onSettled: () => {} });
  const asking = test.ask('agent-a');
  await vi.waitFor(() => expect(test.host.pending()).toHaveLength(1));
  const rpcId = test.host.pending()[0]!.rpcId;
  expect(await email.respond(rpcId, answer('agent-a'), { principalId: 'alice', user: 'alice@example.com' })).toMatchObject({ accepted: false, reason: 'forbidden' });
  await test.event('escalated');
  expect(await email.respond(rpcId, answer('agent-a'), { principalId: 'alice', user: 'alice@example.com' })).toMatchObject({ accepted: true });
  expect(await asking).toEqual(redAnswer);
});
