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

type Block = { type: string; block_id?: string; elements?: Element[]; text?: { text: string } };
type Element = { type: string; action_id: string; value?: string; text?: { text: string }; style?: string; options?: { value: string; text: { text: string } }[] };

const blocksOf = (call: RecordedCall) => call.args.blocks as Block[];
const elements = (call: RecordedCall) => blocksOf(call).flatMap((block) => (block.type === 'actions' ? (block.elements ?? []) : []));
const control = (call: RecordedCall, label: string) => {
  const found = elements(call).find((element) => element.text?.text === label);
  if (found === undefined) throw new Error(`no control "${label}" in ${JSON.stringify(elements(call).map((e) => e.text?.text))}`);
  return found;
};
const allText = (call: RecordedCall) => JSON.stringify(call.args.blocks);

async function posted(index = 0): Promise<RecordedCall> {
  const posts = await world!.recorder.waitFor('chat.postMessage', index + 1);
  return posts.filter((call) => call.args.thread_ts === undefined)[index]!;
}

const cardTs = async (index = 0) => String((await posted(index)).result?.ts);

describe('a question in Slack', () => {
  it('is one card whose button click answers with the full label, records who answered, and edits the card', async () => {
    world = await startSlackWorld();
    const settled = world.ask([colour]);
    const card = await posted();
    expect(card.args.channel).toBe(channelId);
    expect(blocksOf(card)[0]).toMatchObject({ type: 'header', text: { text: 'Colour' } });
    expect(allText(card)).toContain('*colour*'); // Markdown bold as Slack mrkdwn, never raw **
    const red = control(card, '★ Red');
    expect(red.style).toBe('primary');

    const response = await world.slack.deliver(interactive(click('U0ALEX', await cardTs(), { type: 'button', action_id: red.action_id, value: red.value })));
    expect(response.status).toBe(200);
    expect(await settled).toEqual({ ok: true, value: { answers: [{ id: 'colour', selected: ['Red (Recommended)'] }] } });
    const answered = world.events.find((event) => event.type === 'answered') as { answeredBy?: unknown; channel?: unknown } | undefined;
    expect(answered?.answeredBy).toMatchObject({ via: 'slack', user: 'U0ALEX', destination: `slack:${channelId}` });

    const [update] = await world.recorder.waitFor('chat.update');
    expect(allText(update!)).toContain('Answered by <@U0ALEX>');
    expect(blocksOf(update!).some((block) => block.type === 'actions')).toBe(false);
    expect(world.slack.errors).toEqual([]);
  });
});
