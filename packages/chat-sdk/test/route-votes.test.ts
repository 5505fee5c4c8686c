// The channel following the host's route (tiers naming Slack destinations, an escalation adding
// one) and a quorum approval's votes, with the real Chat SDK and Slack adapter against the local
// Web API recorder and a real askseam host.
import { approvalDecisionOf, approvalQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackWorld, type SlackWorld } from './fixture.js';
import type { RecordedCall } from './slack-recorder.js';
import { click, interactive } from './slack-webhooks.js';

let world: SlackWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

type Element = { type: string; action_id: string; value?: string; text?: { text: string } };
type Block = { type: string; elements?: Element[] };

const colour: AskUserQuestionItem = { id: 'colour', question: 'Which colour?', header: 'Colour', options: [{ label: 'Red' }, { label: 'Blue' }] };
const cardPosts = () => world!.recorder.of('chat.postMessage').filter((call) => call.args.thread_ts === undefined);
const controls = (call: RecordedCall) => (call.args.blocks as Block[]).flatMap((block) => (block.type === 'actions' ? (block.elements ?? []) : []));
const control = (call: RecordedCall, label: string) => controls(call).find((element) => element.text?.text === label)!;
const press = (user: string, ts: string, element: Element) => world!.slack.deliver(interactive(click(user, ts, { type: element.type, action_id: element.action_id, value: element.value })));

/** Tier 0: Slack channel C0AAA; tier 1, 200 ms after the ask: C0BBB too. */
const escalating = () => [{ answerers: [{ channel: 'slack:C0AAA' }] }, { answerers: [{ channel: 'slack:C0BBB' }], after: 200 }];

describe('a question the host routes', () => {
  it('is posted where tier 0 says, then to the new destination when a later tier is reached, and answered from there', async () => {
    // The app's own route (the fixture's channel) is not used once the host's route decided.
    world = await startSlackWorld({}, { route: escalating });
    const settled = world.ask([colour]);
    const first = await world.posted(1);
    expect(cardPosts().map((call) => call.args.channel)).toEqual(['C0AAA']);
    const second = await world.posted(2);
    expect(cardPosts().map((call) => call.args.channel)).toEqual(['C0AAA', 'C0BBB']);
    expect(first.rpcId).toBe(second.rpcId);

    // Answered on the escalated card: its destination is the one recorded (and the one the route allows).
    const card = cardPosts()[1]!;
    await press('U0LEAD', second.messageId, control(card, 'Blue'));
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Blue'] }] } });
    const answered = world.events.find((event) => event.type === 'answered') as { answeredBy?: unknown } | undefined;
    expect(answered?.answeredBy).toMatchObject({ via: 'slack', user: 'U0LEAD', destination: 'slack:C0BBB' });

    // Both cards are closed, and nothing was posted twice.
    const updates = await world.recorder.waitFor('chat.update', 2);
    expect(updates.map((update) => update.args.channel).sort()).toEqual(['C0AAA', 'C0BBB']);
    expect(updates.every((update) => JSON.stringify(update.args.blocks).includes('Answered by <@U0LEAD>'))).toBe(true);
    expect(cardPosts()).toHaveLength(2);
    expect(world.slack.errors).toEqual([]);
  });

  it('is not posted again after a bot restart on the same state, even where an escalation added a card', async () => {
    world = await startSlackWorld({}, { route: escalating });
    const settled = world.ask([colour]);
    await world.posted(2);
    await world.slack.channel.close();
    // Another bot process on the same state is handed the pending question (with both destinations).
    const restarted = await world.startBot();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cardPosts()).toHaveLength(2);
    const card = cardPosts()[0]!;
    await restarted.deliver(interactive(click('U0ALEX', String(card.result?.ts), { type: 'button', action_id: control(card, 'Red').action_id, value: control(card, 'Red').value })));
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Red'] }] } });
    expect(restarted.errors).toEqual([]);
  });
});

describe('a quorum approval in Slack', () => {
  const approval = () => approvalQuestions({ tool: { name: 'migrate', input: { db: 'prod' } }, quorum: { approvals: 2 } });

  it('shows "1 of 2" after the first approval, keeps the controls, and settles on a second distinct person', async () => {
    // Each Slack user answers as their own principal, so two people are two votes.
    world = await startSlackWorld({ principalOf: (user) => `slack-${user.id}` });
    const settled = world.ask(approval());
    const { messageId: ts } = await world.posted();
    const card = cardPosts()[0]!;

    await press('U0ALEX', ts, control(card, 'Approve'));
    const [progress] = await world.recorder.waitFor('chat.update');
    expect(progress!.args.ts).toBe(ts);
    expect(JSON.stringify(progress!.args.blocks)).toContain('1 of 2 approvals (by @U0ALEX)');
    expect(controls(progress!).map((element) => element.text?.text)).toContain('Approve');
    expect(world.host.pending()).toHaveLength(1);

    // The same person again counts once; a second person settles it.
    await press('U0ALEX', ts, control(progress!, 'Approve'));
    expect(world.host.pending()).toHaveLength(1);
    await press('U0BOB', ts, control(progress!, 'Approve'));
    const result = await settled;
    expect(result.ok && approvalDecisionOf(approval(), result.value)).toMatchObject({ approved: true });
    const updates = await world.recorder.waitFor('chat.update', 2);
    const last = updates.at(-1)!;
    expect(JSON.stringify(last.args.blocks)).toContain('Answered by <@U0BOB>');
    expect(controls(last)).toEqual([]);
    expect(world.slack.errors).toEqual([]);
  });
});
