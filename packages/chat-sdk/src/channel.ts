import { parseTextReply, quorumProgressText } from '@askseam/text';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import { type ActionEvent, type Adapter, type Chat, type Message, type ModalSubmitEvent, type Thread } from 'chat';
import * as z from 'zod';
import { checkboxAnswer, denyAnswer, formAnswer, optionAnswer, type FormResult } from './answers.js';
import { actionPrefix, decodeControl } from './codec.js';
import { chatQuestionCard, chatSettledCard } from './chat-card.js';
import { answersByClick, controlOf, settledText } from './display.js';
import { ChatChannelError } from './errors.js';
import { answerForm, denyForm, formCallbackId } from './modal.js';
import type { ChannelHost, ChannelQuestion, ChannelReceipt, ChannelSettlement, OpenedChannel } from './port.js';
import { slackQuestionCard, slackSettledCard } from './slack-blocks.js';
import { CardState, type PostedCard } from './state.js';
import { tell } from './tell.js';

/** The person who clicked or replied, as the platform names them. */
export interface ChatUser {
  /** The adapter's name: 'slack', 'telegram', … */
  platform: string;
  /** The platform's user id ('U0123ABC' in Slack): recorded as `answeredBy.user`. */
  id: string;
  name: string;
}

export interface ChatChannelOptions {
  /** The app's Chat SDK bot (`new Chat({ adapters, state })`); the channel adds its handlers to it. */
  bot: Chat;
  /** The askseam host whose questions are shown (`createWebSocketHost(…)`, or anything with its `openChannel` port). */
  host: ChannelHost;
  /** Where to post a question: a Chat SDK channel id such as 'slack:C0123' or 'telegram:12345', or `undefined` to leave it. */
  route(question: ChannelQuestion): string | undefined;
  /** Whether this person may answer; a refusal is told to them. Default: anyone who can see the card. */
  mayAnswer?(user: ChatUser, question: ChannelQuestion): boolean | Promise<boolean>;
  /** The app principal a person answers as (`answeredBy.principalId`); default: the channel's own. */
  principalOf?(user: ChatUser): string | undefined;
  /** Called once a question's card is posted (for logs; tests wait for it). */
  onPosted?(posted: { rpcId: string; destination: string; threadId: string; messageId: string }): void;
  /** Where failures of background work go (a post the platform refused, a lost edit). Default: console.error. */
  onError?(error: unknown, during: string): void;
}

export interface ChatChannel {
  /** Stop showing questions and handling clicks, after the posts and edits already started. Idempotent. */
  close(): Promise<void>;
}

const adapterNames = ['slack', 'telegram', 'teams', 'gchat', 'discord', 'whatsapp', 'github', 'linear'];

const formMetadataSchema = z.object({ key: z.string(), indexes: z.array(z.int().min(0)).optional(), deny: z.literal(true).optional() });

/**
 * Show the host's questions in chat and answer them from there. Each routed question becomes one
 * card; clicks, forms and thread replies go to the host as responses, judged like any other; the
 * card is edited when the question ends anywhere.
 */
export function chatChannel(options: ChatChannelOptions): ChatChannel {
  const { bot, host, route } = options;
  if (typeof bot?.getState !== 'function' || typeof host?.openChannel !== 'function' || typeof route !== 'function') {
    throw new ChatChannelError('INVALID_OPTIONS', 'chatChannel needs { bot: a Chat SDK Chat, host: an askseam host with openChannel, route: (question) => channel id | undefined }.');
  }
  const onError = options.onError ?? ((error: unknown, during: string) => console.error(`askseam chat channel: ${during} failed`, error));
  let state: 'open' | 'closed' = 'open';
  const cards = new CardState(bot.getState());
  const inFlight = new Set<Promise<unknown>>();
  // Work on one question runs in order (post before edit), different questions in parallel.
  const chains = new Map<string, Promise<void>>();
  const channels = new Map<string, OpenedChannel>();

  function run(rpcId: string, during: string, work: () => Promise<void>): void {
    const previous = chains.get(rpcId) ?? Promise.resolve();
    const next = previous.then(work).catch((error: unknown) => onError(error, during));
    chains.set(rpcId, next);
    inFlight.add(next);
    void next.finally(() => {
      inFlight.delete(next);
      if (chains.get(rpcId) === next) chains.delete(rpcId);
    });
  }

  const adapterOf = (platform: string): Adapter | undefined => {
    try {
      return bot.getAdapter(platform) as Adapter | undefined;
    } catch {
      return undefined;
    }
  };

  /**
   * Where a question goes on `platform`: the host route's reached destinations when it decided
   * (`question.destinations`), else the app's own `route`. Only destinations of this adapter count.
   */
  function destinationsOf(platform: string, question: ChannelQuestion): string[] {
    let wanted: (string | undefined)[];
    if (question.destinations !== undefined) {
      wanted = question.destinations;
    } else {
      try {
        wanted = [route(question)];
      } catch (error) {
        onError(error, `route(${question.rpcId})`);
        return [];
      }
    }
    return [...new Set(wanted.filter((destination): destination is string => typeof destination === 'string' && destination.split(':')[0] === platform && destination.length > platform.length + 1))];
  }

  /** Post the question to each of its destinations that has no card yet (an escalation adds destinations). */
  async function post(platform: string, question: ChannelQuestion): Promise<void> {
    for (const destination of destinationsOf(platform, question)) await postTo(platform, question, destination);
  }

  /** A quorum approval's progress line, when the question is one. */
  const progressOf = (question: ChannelQuestion): string | undefined => (question.votes === undefined ? undefined : quorumProgressText(question.questions, question.votes));

  async function postTo(platform: string, question: ChannelQuestion, destination: string): Promise<void> {
    await bot.initialize();
    const key = await cards.claim(question.rpcId, destination);
    if (key === undefined || state === 'closed') return;
    // Known before it is posted, so a click that comes back faster than the post's reply finds it.
    const draft: PostedCard = { key, rpcId: question.rpcId, platform, destination, threadId: '', messageId: '', questions: question.questions };
    await cards.save(draft, false);
    const progress = progressOf(question);
    let threadId: string;
    let messageId: string;
    if (platform === 'slack') {
      const slack = adapterOf('slack') as unknown as SlackAdapterLike;
      const channel = destination.slice('slack:'.length).split(':')[0]!;
      const card = slackQuestionCard({ key, questions: question.questions, urgency: question.urgency, progress });
      const sent = await slack.webClient.chat.postMessage({ channel, blocks: card.blocks, text: card.text, unfurl_links: false, unfurl_media: false });
      messageId = String(sent.ts);
      threadId = slack.encodeThreadId({ channel, threadTs: messageId });
    } else {
      const sent = await bot.channel(destination).post(chatQuestionCard(key, question.questions, question.urgency, progress));
      messageId = sent.id;
      threadId = sent.threadId;
    }
    await cards.save({ ...draft, threadId, messageId }, platform === 'slack');
    await bot.getState().subscribe(threadId);
    options.onPosted?.({ rpcId: question.rpcId, destination, threadId, messageId });
  }

  /** A vote was counted: every open card of the question shows the progress, its controls kept. */
  async function showVotes(question: ChannelQuestion): Promise<void> {
    const progress = progressOf(question);
    if (progress === undefined) return;
    for (const card of await cards.cardsOf(question.rpcId)) {
      if (card.settled !== undefined || card.messageId === '') continue;
      if (card.platform === 'slack') {
        const slack = adapterOf('slack') as unknown as SlackAdapterLike;
        const channel = slack.decodeThreadId(card.threadId).channel;
        const updated = slackQuestionCard({ key: card.key, questions: card.questions, urgency: question.urgency, progress });
        await slack.webClient.chat.update({ channel, ts: card.messageId, blocks: updated.blocks, text: updated.text });
      } else {
        await adapterOf(card.platform)?.editMessage(card.threadId, card.messageId, chatQuestionCard(card.key, card.questions, question.urgency, progress));
      }
    }
  }

  async function settle(settlement: ChannelSettlement): Promise<void> {
    for (const card of await cards.cardsOf(settlement.rpcId)) {
      if (card.settled !== undefined || card.messageId === '') continue;
      // Slack draws <@U…> as the person's name; elsewhere the name they clicked with, if it was here.
      const answerer = card.platform === 'slack' ? undefined : await cards.answererOf(card.key);
      const mention = (user: string) => (card.platform === 'slack' ? `<@${user}>` : answerer?.id === user ? `@${answerer.name}` : user);
      await editSettled(card, settledText(settlement.outcome, settlement.answeredBy, mention));
    }
  }

  async function editSettled(card: PostedCard, text: string): Promise<void> {
    if (card.platform === 'slack') {
      const slack = adapterOf('slack') as unknown as SlackAdapterLike;
      const channel = slack.decodeThreadId(card.threadId).channel;
      const settled = slackSettledCard({ questions: card.questions }, text);
      await slack.webClient.chat.update({ channel, ts: card.messageId, blocks: settled.blocks, text: settled.text });
    } else {
      await adapterOf(card.platform)?.editMessage(card.threadId, card.messageId, chatSettledCard(card.questions, text));
    }
    await cards.markSettled(card, text);
    // A Slack card has a thread of its own; a Telegram chat is shared by every card posted there.
    if (card.platform === 'slack') await bot.getState().unsubscribe(card.threadId);
  }

  for (const platform of adapterNames) {
    if (adapterOf(platform) === undefined) continue;
    channels.set(
      platform,
      host.openChannel({
        via: platform,
        onQuestion: (question) => run(question.rpcId, `posting ${question.rpcId} to ${platform}`, () => post(platform, question)),
        onSettled: (settlement) => run(settlement.rpcId, `editing the card of ${settlement.rpcId}`, () => settle(settlement)),
        // A later tier of the host's route named more destinations here: post to the new ones only.
        onEscalated: (question) => run(question.rpcId, `posting ${question.rpcId} to ${platform} after an escalation`, () => post(platform, question)),
        onVotes: (question) => run(question.rpcId, `showing the votes on ${question.rpcId}`, () => showVotes(question)),
      }),
    );
  }

  /** The card's question if it is still pending; otherwise the person is told, and the card is closed if nobody did yet. */
  async function pendingOf(card: PostedCard, told: (text: string) => Promise<void>): Promise<ChannelQuestion | undefined> {
    const question = channels.get(card.platform)?.pending().find((pending) => pending.rpcId === card.rpcId);
    if (question !== undefined) return question;
    await told('This question has already been answered or closed; nothing was changed.');
    // It ended while no process was watching (or on a node that does not show it): close the card now.
    if (card.settled === undefined && card.messageId !== '') await editSettled(card, 'Closed.');
    return undefined;
  }

  async function allowed(user: ChatUser, question: ChannelQuestion, told: (text: string) => Promise<void>): Promise<boolean> {
    if (options.mayAnswer === undefined || (await options.mayAnswer(user, question))) return true;
    await told('You are not among the people who may answer this question; nothing was changed.');
    return false;
  }

  /** Send one answer through the host's judging and tell the person if it was refused. */
  async function respond(card: PostedCard, question: ChannelQuestion, user: ChatUser, answer: AskUserQuestionAnswer, told: (text: string) => Promise<void>): Promise<ChannelReceipt | undefined> {
    const channel = channels.get(card.platform);
    if (channel === undefined) return undefined;
    const person: { user: string; destination: string; principalId?: string } = { user: user.id, destination: card.destination };
    const principalId = options.principalOf?.(user);
    if (principalId !== undefined) person.principalId = principalId;
    // Saved before answering: the card is edited as soon as the host settles, maybe before respond returns.
    // A name is only used when the record's answeredBy.user is this person.
    await cards.setAnswerer(card.key, { id: user.id, name: user.name });
    const receipt = await channel.respond(card.rpcId, { ok: true, value: { sessionId: question.sessionId, answer } }, person);
    if (!receipt.accepted) {
      await told(receipt.reason === 'not-pending' ? 'This question has already been answered; nothing was changed.' : `Not accepted: ${receipt.detail ?? receipt.reason}`);
    }
    return receipt;
  }

  const userOf = (platform: string, author: { userId: string; userName: string }): ChatUser => ({ platform, id: author.userId, name: author.userName });

  async function onAction(event: ActionEvent): Promise<void> {
    if (state === 'closed' || !event.actionId.startsWith(`${actionPrefix}.`)) return;
    const control = decodeControl(event.value);
    if (control === undefined) return; // a checkbox ticked: read when Submit is pressed
    const told = (text: string) => tell(bot, event.threadId, event.user, text);
    const card = await cards.byKey(control.key);
    if (card === undefined) return told('This card is no longer known to askseam; nothing was changed.');
    const question = await pendingOf(card, told);
    if (question === undefined) return;
    const user = userOf(card.platform, event.user);
    if (!(await allowed(user, question, told))) return;
    const items = question.questions;
    if (control.verb === 'o') {
      const answer = answersByClick(items) ? optionAnswer(items[0]!, control.option) : undefined;
      if (answer !== undefined) await respond(card, question, user, answer, told);
      return;
    }
    if (control.verb === 's') {
      if (items.length === 1 && controlOf(items[0]!) === 'checkboxes') await respond(card, question, user, checkboxAnswer(items[0]!, event.raw), told);
      return;
    }
    const form =
      control.verb === 'r'
        ? denyForm(card.key)
        : answerForm(card.key, items, control.question < 0 ? items.map((_item, index) => index) : [control.question], control.question >= 0 && (items[control.question]?.options?.length ?? 0) > 0);
    const opened = await event.openModal(form);
    if (opened === undefined) await told('Forms are not available here: reply to the card instead.');
  }

  async function onFormSubmit(event: ModalSubmitEvent): Promise<{ action: 'errors'; errors: Record<string, string> } | undefined> {
    if (state === 'closed') return undefined;
    const metadata = formMetadataSchema.safeParse(safeJson(event.privateMetadata));
    if (!metadata.success) return undefined;
    const card = await cards.byKey(metadata.data.key);
    const firstField = metadata.data.deny === true ? 'reason' : `q${metadata.data.indexes?.[0] ?? 0}`;
    const errors = (text: string) => ({ action: 'errors' as const, errors: { [firstField]: text } });
    if (card === undefined) return errors('This question is no longer known to askseam.');
    let refusal: string | undefined;
    const told = async (text: string) => {
      refusal = text;
    };
    const question = await pendingOf(card, told);
    if (question === undefined) return errors(refusal!);
    const user = userOf(card.platform, event.user);
    if (!(await allowed(user, question, told))) return errors(refusal!);
    const items = question.questions;
    const indexes = (metadata.data.indexes ?? []).filter((index) => index < items.length);
    const result: FormResult = metadata.data.deny === true ? denyAnswer(items, event.values.reason ?? '') : formAnswer(items, indexes, event.values);
    if (!result.ok) return { action: 'errors', errors: result.errors };
    // A form answering part of a batch: the rest is skipped, and the host says if that is not allowed.
    const answer = { answers: items.map((item) => result.answer.answers.find((given) => given.id === item.id) ?? { id: item.id, selected: [] }) };
    await respond(card, question, user, answer, told);
    return refusal === undefined ? undefined : errors(refusal);
  }

  async function onReply(thread: Thread, message: Message): Promise<void> {
    if (state === 'closed' || message.author.isMe || message.author.isBot === true) return;
    const replyTo = replyToOf(message.raw);
    const card = await cards.byReply(thread.id, replyTo);
    if (card === undefined) return;
    const told = async (text: string) => {
      await thread.post({ markdown: text });
    };
    const question = await pendingOf(card, told);
    if (question === undefined) return;
    const user = userOf(card.platform, message.author);
    if (!(await allowed(user, question, told))) return;
    const parsed = parseTextReply(question.questions, message.text);
    if (!parsed.ok) {
      await told(['That reply did not answer the question, so it is still open:', ...parsed.problems.map((problem) => `• ${problem.message}`)].join('\n'));
      return;
    }
    await respond(card, question, user, parsed.answer, told);
  }

  const tracked =
    <A extends unknown[], R>(handler: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const work = handler(...args);
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work)).catch(() => undefined);
      return work;
    };
  bot.onAction(tracked(onAction));
  bot.onModalSubmit(formCallbackId, tracked(onFormSubmit));
  bot.onSubscribedMessage(tracked(onReply));

  return {
    async close() {
      if (state === 'closed') return;
      state = 'closed';
      for (const channel of channels.values()) channel.close();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

function safeJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The message a reply answers, where the platform says (Telegram's reply_to_message), as the adapter's message id. */
function replyToOf(raw: unknown): string | undefined {
  const reply = (raw as { reply_to_message?: { message_id?: unknown; chat?: { id?: unknown } } } | null)?.reply_to_message;
  const id = reply?.message_id;
  if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  // Telegram's adapter names a message "<chat id>:<message id>".
  const chat = reply?.chat?.id;
  return typeof chat === 'number' || typeof chat === 'string' ? `${chat}:${id}` : String(id);
}

/** What the channel uses of `@chat-adapter/slack`'s adapter, which it reaches through `bot.getAdapter('slack')`. */
interface SlackAdapterLike {
  webClient: {
    chat: {
      postMessage(args: Record<string, unknown>): Promise<{ ts?: string }>;
      update(args: Record<string, unknown>): Promise<unknown>;
    };
  };
  encodeThreadId(data: { channel: string; threadTs: string }): string;
  decodeThreadId(threadId: string): { channel: string };
}
