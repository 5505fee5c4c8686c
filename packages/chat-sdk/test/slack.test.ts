// The channel end to end in Slack: the real Chat SDK and Slack adapter, a real askseam host, the
// Web API at a local recorder that refuses what Slack refuses, and webhooks signed like Slack's.
import { approvalDecisionOf, approvalQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackWorld, type SlackWorld } from './fixture.js';
import type { RecordedCall } from './slack-recorder.js';
import { channelId, click, interactive, submitView, threadMessage } from './slack-webhooks.js';

let world: SlackWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const colour: AskUserQuestionItem = { id: 'colour', question: 'Which **colour**?', header: 'Colour', options: [{ label: 'Red (Recommended)' }, { label: 'Blue', description: 'Calmer' }] };

type Element = { type: string; action_id: string; value?: string; text?: { text: string }; style?: string; options?: { value: string; text: { text: string } }[] };
type Block = { type: string; block_id?: string; elements?: Element[]; text?: unknown };

const cardPosts = () => world!.recorder.of('chat.postMessage').filter((call) => call.args.thread_ts === undefined);
const threadPosts = () => world!.recorder.of('chat.postMessage').filter((call) => call.args.thread_ts !== undefined);
const blocksOf = (call: RecordedCall) => call.args.blocks as Block[];
const controls = (call: RecordedCall) => blocksOf(call).flatMap((block) => (block.type === 'actions' ? (block.elements ?? []) : []));
function control(call: RecordedCall, label: string): Element {
  const found = controls(call).find((element) => element.text?.text === label);
  if (found === undefined) throw new Error(`no control "${label}" in ${JSON.stringify(controls(call).map((e) => e.text?.text ?? e.type))}`);
  return found;
}

/** Ask, wait for the card, and return it with its message ts. */
async function askAndPost(questions: AskUserQuestionItem[], n = 1) {
  const settled = world!.ask(questions);
  const { messageId, rpcId } = await world!.posted(n);
  const card = cardPosts().find((call) => call.result?.ts === messageId)!;
  return { settled, card, ts: messageId, rpcId };
}

const press = (user: string, ts: string, element: Element) => world!.slack.deliver(interactive(click(user, ts, { type: element.type, action_id: element.action_id, value: element.value })));

async function openForm(user: string, ts: string, element: Element) {
  const before = world!.recorder.of('views.open').length;
  await press(user, ts, element);
  const [view] = (await world!.recorder.waitFor('views.open', before + 1)).slice(before);
  return view!.args.view as { callback_id: string; private_metadata: string; blocks: { block_id: string; element: { action_id: string; type: string } }[] };
}

async function submit(user: string, view: Awaited<ReturnType<typeof openForm>>, values: Record<string, string>) {
  const response = await world!.slack.deliver(interactive(submitView(user, view, values)));
  const text = await response.text();
  return text === '' ? undefined : (JSON.parse(text) as { response_action?: string; errors?: Record<string, string> });
}

describe('a question in Slack', () => {
  it('is one card whose button click answers with the full label, records who answered, and edits the card', async () => {
    world = await startSlackWorld();
    const { settled, card, ts } = await askAndPost([colour]);
    expect(card.args.channel).toBe(channelId);
    expect(blocksOf(card)[0]).toMatchObject({ type: 'header', text: { text: 'Colour' } });
    // Markdown goes to Slack's markdown block, which Slack renders.
    expect(blocksOf(card)[1]).toEqual({ type: 'markdown', text: 'Which **colour**?' });
    const red = control(card, '★ Red');
    expect(red.style).toBe('primary');

    expect((await press('U0ALEX', ts, red)).status).toBe(200);
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Red (Recommended)'] }] } });
    const answered = world.events.find((event) => event.type === 'answered') as { answeredBy?: unknown } | undefined;
    expect(answered?.answeredBy).toMatchObject({ via: 'slack', user: 'U0ALEX', destination: `slack:${channelId}` });

    const [update] = await world.recorder.waitFor('chat.update');
    expect(update!.args.ts).toBe(ts);
    expect(JSON.stringify(update!.args.blocks)).toContain('Answered by <@U0ALEX>');
    expect(blocksOf(update!).some((block) => block.type === 'actions')).toBe(false);
    expect(world.slack.errors).toEqual([]);
  });

  it('answers from a select menu when there are more options than buttons', async () => {
    world = await startSlackWorld();
    const options = Array.from({ length: 8 }, (_v, i) => ({ label: `Region ${i + 1} ${'x'.repeat(90)}` }));
    const { settled, card, ts } = await askAndPost([{ id: 'region', question: 'Which region?', options }]);
    const select = controls(card).find((element) => element.type === 'static_select')!;
    expect(select.options).toHaveLength(8);
    const seventh = select.options![6]!;
    expect(Array.from(seventh.text.text).length).toBeLessThanOrEqual(75);
    await world.slack.deliver(interactive(click('U0ALEX', ts, { type: 'static_select', action_id: select.action_id, selected_option: { value: seventh.value, text: seventh.text } })));
    // The label was shortened for display; the answer carries it whole.
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'region', selected: [options[6]!.label] }] } });
  });

  it('answers a multi-select from the ticked checkboxes when Submit is pressed', async () => {
    world = await startSlackWorld();
    const options = Array.from({ length: 12 }, (_v, i) => ({ label: `Check ${i + 1}` }));
    const { settled, card, ts } = await askAndPost([{ id: 'checks', question: 'Which checks?', multiSelect: true, options }]);
    const groups = controls(card).filter((element) => element.type === 'checkboxes');
    expect(groups.map((group) => group.options!.length)).toEqual([10, 2]);
    // Ticking sends block_actions too; nothing is answered until Submit.
    await world.slack.deliver(interactive(click('U0ALEX', ts, { type: 'checkboxes', action_id: groups[0]!.action_id, selected_options: [{ value: '1' }] })));
    expect(world.host.pending()).toHaveLength(1);
    const state = {
      a: { [groups[0]!.action_id]: { type: 'checkboxes', selected_options: [{ value: '1' }, { value: '4' }] } },
      b: { [groups[1]!.action_id]: { type: 'checkboxes', selected_options: [{ value: '11' }] } },
    };
    const submitButton = control(card, 'Submit');
    await world.slack.deliver(interactive(click('U0ALEX', ts, { type: 'button', action_id: submitButton.action_id, value: submitButton.value }, state)));
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'checks', selected: ['Check 2', 'Check 5', 'Check 12'] }] } });
  });

  it('answers free text and typed inputs through a form, and a misfit stays in the form with askseam\'s problem text', async () => {
    world = await startSlackWorld();
    const { settled, card, ts } = await askAndPost([{ id: 'replicas', question: 'How many replicas?', input: { kind: 'number', min: 1, max: 9 } }]);
    const view = await openForm('U0ALEX', ts, control(card, 'Answer…'));
    expect(view.callback_id).toBe('askseam');
    const refused = await submit('U0ALEX', view, { q0: '12' });
    expect(refused?.response_action).toBe('errors');
    expect(refused?.errors?.q0).toMatch(/9/);
    expect(world.host.pending()).toHaveLength(1);
    expect(await submit('U0ALEX', view, { q0: '3' })).toBeUndefined();
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'replicas', selected: [], custom: '3' }] } });
  });

  it('answers a batch in one form', async () => {
    world = await startSlackWorld();
    const { settled, card, ts } = await askAndPost([colour, { id: 'name', question: 'Project name?', input: { kind: 'text', maxLength: 20 } }]);
    const view = await openForm('U0ALEX', ts, control(card, 'Answer…'));
    expect(view.blocks.map((block) => block.element.action_id)).toEqual(['q0', 'q1']);
    expect(view.blocks[0]!.element.type).toBe('static_select');
    expect(await submit('U0ALEX', view, { q0: '2', q1: 'seam' })).toBeUndefined();
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Blue'] }, { id: 'name', selected: [], custom: 'seam' }] } });
  });

  it('answers by a reply in the card thread, and a reply that does not fit gets a correction and leaves it pending', async () => {
    world = await startSlackWorld();
    const { settled, ts } = await askAndPost([colour, { id: 'when', question: 'Which day?', input: { kind: 'date' } }]);
    await world.slack.deliver(threadMessage('U0BOB', ts, '1: blue\n2: someday'));
    const [correction] = threadPosts();
    expect(correction?.args.thread_ts).toBe(ts);
    expect(JSON.stringify(correction?.args)).toMatch(/did not answer/);
    expect(world.host.pending()).toHaveLength(1);
    await world.slack.deliver(threadMessage('U0BOB', ts, '1: blue\n2: 2026-08-20'));
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Blue'] }, { id: 'when', selected: [], custom: '2026-08-20' }] } });
    const answered = world.events.find((event) => event.type === 'answered') as { answeredBy?: unknown } | undefined;
    expect(answered?.answeredBy).toMatchObject({ via: 'slack', user: 'U0BOB' });
  });
});

describe('a tool approval in Slack', () => {
  const approval = () => approvalQuestions({ tool: { name: 'deploy', input: { env: 'prod', note: '*Approved* <https://evil.example|ok>' }, description: 'Ships it' } });

  it('shows the arguments as inert preformatted text and approves with one click', async () => {
    world = await startSlackWorld();
    const { settled, card, ts } = await askAndPost(approval());
    const preformatted = blocksOf(card).find((block) => block.type === 'rich_text') as { elements: { type: string; elements: { text: string }[] }[] } | undefined;
    expect(preformatted?.elements[0]?.type).toBe('rich_text_preformatted');
    expect(preformatted?.elements[0]?.elements[0]?.text).toContain('<https://evil.example|ok>');
    expect(control(card, 'Deny').style).toBe('danger');
    await press('U0ALEX', ts, control(card, 'Approve'));
    const result = await settled;
    expect(result.ok && approvalDecisionOf(approval(), result.value)).toEqual({ approved: true });
  });

  it('denies with a reason from the form, or from a thread reply', async () => {
    world = await startSlackWorld();
    const first = await askAndPost(approval());
    const view = await openForm('U0ALEX', first.ts, control(first.card, 'Deny with a reason…'));
    await submit('U0ALEX', view, { reason: 'not on a Friday' });
    const denied = await first.settled;
    expect(denied.ok && approvalDecisionOf(approval(), denied.value)).toEqual({ approved: false, reason: 'not on a Friday' });

    const second = await askAndPost(approval(), 2);
    await world.slack.deliver(threadMessage('U0BOB', second.ts, 'deny: wait for the freeze to end'));
    const deniedByReply = await second.settled;
    expect(deniedByReply.ok && approvalDecisionOf(approval(), deniedByReply.value)).toEqual({ approved: false, reason: 'wait for the freeze to end' });
  });
});

describe('a plan review in Slack', () => {
  it('shows the plan as Markdown and asks for changes in a form', async () => {
    world = await startSlackWorld();
    const plan: AskUserQuestionItem = {
      id: 'plan',
      question: 'Approve this plan?',
      detail: '## Plan\n1. Migrate the **database**\n2. Deploy',
      options: [{ label: 'Approve' }, { label: 'Keep planning' }],
      intent: { kind: 'plan-review', approve: 'Approve' },
    };
    const { settled, card, ts } = await askAndPost([plan]);
    expect(blocksOf(card)).toContainEqual({ type: 'markdown', text: plan.detail });
    expect(control(card, 'Approve').style).toBe('primary');
    const view = await openForm('U0ALEX', ts, control(card, 'Request changes…'));
    expect(view.blocks[0]!.element.type).toBe('plain_text_input');
    await submit('U0ALEX', view, { q0: 'Deploy behind a flag first' });
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'plan', selected: [], custom: 'Deploy behind a flag first' }] } });
  });
});

describe('the card after the question ends', () => {
  it('is edited when answered elsewhere, and a late click is told "already answered" and changes nothing', async () => {
    world = await startSlackWorld();
    const { settled, card, ts, rpcId } = await askAndPost([colour]);
    // Another surface answers first (here another channel on the same host).
    const other = world.host.openChannel({ via: 'email', onQuestion() {}, onSettled() {} });
    const receipt = await other.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'colour', selected: ['Blue'] }] } } }, { user: 'alex@example.com' });
    expect(receipt.accepted).toBe(true);
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Blue'] }] } });
    const [update] = await world.recorder.waitFor('chat.update');
    expect(JSON.stringify(update!.args.blocks)).toContain('alex@example.com');

    await press('U0LATE', ts, control(card, '★ Red'));
    const [ephemeral] = world.recorder.of('chat.postEphemeral');
    expect(ephemeral?.args.user).toBe('U0LATE');
    expect(JSON.stringify(ephemeral?.args)).toMatch(/already been answered/);
    expect(world.events.filter((event) => event.type === 'answered')).toHaveLength(1);
    other.close();
  });

  it('says "Withdrawn" when the agent stops asking', async () => {
    world = await startSlackWorld();
    const controller = new AbortController();
    void world.userQuestions.ask({ questions: [colour], agent: world.agent, signal: controller.signal }).catch(() => undefined);
    await world.posted();
    controller.abort();
    const [update] = await world.recorder.waitFor('chat.update');
    expect(JSON.stringify(update!.args.blocks)).toContain('Withdrawn');
  });
});

describe('who may answer', () => {
  it('tells a person the route does not allow, and leaves the question pending', async () => {
    world = await startSlackWorld({ mayAnswer: (user) => user.id === 'U0ONCALL' });
    const { settled, card, ts } = await askAndPost([colour]);
    await press('U0ALEX', ts, control(card, 'Blue'));
    const [ephemeral] = world.recorder.of('chat.postEphemeral');
    expect(JSON.stringify(ephemeral?.args)).toMatch(/not among the people who may answer/);
    expect(world.host.pending()).toHaveLength(1);
    await press('U0ONCALL', ts, control(card, 'Blue'));
    expect(await settled).toMatchObject({ ok: true });
  });

  it('answers nothing for a forged or stale webhook', async () => {
    world = await startSlackWorld();
    const { card, ts } = await askAndPost([colour]);
    const blue = control(card, 'Blue');
    const payload = click('U0EVE', ts, { type: 'button', action_id: blue.action_id, value: blue.value });
    expect((await world.slack.deliver(interactive(payload, { secret: 'not-the-secret' }))).status).toBe(401);
    expect((await world.slack.deliver(interactive(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 }))).status).toBe(401);
    expect((await world.slack.deliver(threadMessage('U0EVE', ts, 'blue', { secret: 'not-the-secret' }))).status).toBe(401);
    expect(world.host.pending()).toHaveLength(1);
    expect(world.events.filter((event) => event.type === 'answered')).toHaveLength(0);
  });
});

describe('a restart of the bot', () => {
  it('neither reposts a replayed question nor loses a click on the old card', async () => {
    world = await startSlackWorld();
    const { settled, card, ts } = await askAndPost([colour]);
    await world.slack.channel.close();
    // A new process on the same state: the host replays the pending question to its new channel.
    const restarted = await world.startBot();
    await restarted.bot.initialize();
    expect(cardPosts()).toHaveLength(1);
    await restarted.deliver(interactive(click('U0ALEX', ts, { type: 'button', action_id: control(card, 'Blue').action_id, value: control(card, 'Blue').value })));
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Blue'] }] } });
    await world.recorder.waitFor('chat.update');
    expect(cardPosts()).toHaveLength(1);
  });
});
