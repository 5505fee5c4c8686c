import type { AskUserQuestionItem } from '@askseam/user-questions';
import type { StateAdapter } from 'chat';
import * as z from 'zod';
import { isCardKey, newCardKey } from './codec.js';

// What the channel remembers, in the Chat SDK state adapter the bot was given (memory, Redis,
// ioredis, Postgres): which message shows which question. It outlives the process, so after a
// restart a replayed question is not posted again and a click on an old card still finds its
// question. Keys are namespaced; values are JSON the state adapter stores as it likes.

const prefix = 'askseam:chat';
/** How long a card's record is kept after its question ended: late clicks still get "already answered". */
const settledTtlMs = 30 * 24 * 60 * 60 * 1000;
/** A claim to post that never became a card (the process died mid-post) frees the question after this. */
const claimTtlMs = 10 * 60 * 1000;

export const postedCardSchema = z.object({
  key: z.string(),
  rpcId: z.string(),
  /** The Chat SDK adapter name ('slack', 'telegram', …). */
  platform: z.string(),
  /** What `route` returned, e.g. 'slack:C0123'. */
  destination: z.string(),
  /** The card's thread (replies there answer it) and its message id; empty while it is being posted. */
  threadId: z.string(),
  messageId: z.string(),
  questions: z.array(z.custom<AskUserQuestionItem>((value) => typeof value === 'object' && value !== null)),
  /** Set once the card was edited to say how the question ended. */
  settled: z.string().optional(),
});

export type PostedCard = z.infer<typeof postedCardSchema>;

export class CardState {
  constructor(private readonly state: StateAdapter) {}

  /**
   * Claim the right to post `rpcId` to `destination`: a key once across processes sharing the
   * state, then undefined while a claim or a card for that destination exists. The key is decided
   * here, so a retried post reuses it. A question routed to several destinations gets a card in each.
   */
  async claim(rpcId: string, destination: string): Promise<string | undefined> {
    const key = newCardKey();
    const won = await this.state.setIfNotExists(`${prefix}:claim:${rpcId}:${destination}`, key, claimTtlMs);
    if (!won) return undefined;
    if ((await this.cardsOf(rpcId)).some((card) => card.destination === destination)) return undefined;
    return key;
  }

  /** `ownThread`: the card has a thread of its own (Slack), so any reply there answers it. */
  async save(card: PostedCard, ownThread: boolean): Promise<void> {
    await this.state.set(`${prefix}:card:${card.key}`, card);
    if (card.messageId === '') {
      await this.state.appendToList(`${prefix}:cards:${card.rpcId}`, card.key);
      return;
    }
    await this.state.set(`${prefix}:msg:${card.threadId}:${card.messageId}`, card.key);
    if (ownThread) await this.state.set(`${prefix}:thread:${card.threadId}`, card.key);
  }

  async byKey(key: string): Promise<PostedCard | undefined> {
    if (!isCardKey(key)) return undefined;
    const parsed = postedCardSchema.safeParse(await this.state.get(`${prefix}:card:${key}`));
    return parsed.success ? parsed.data : undefined;
  }

  /** Every card posted (or being posted) for `rpcId`, in the order they were claimed. */
  async cardsOf(rpcId: string): Promise<PostedCard[]> {
    const keys = (await this.state.getList<unknown>(`${prefix}:cards:${rpcId}`)).filter((key): key is string => typeof key === 'string');
    // A card posted by an earlier release, which kept one card per question under `rpc:`.
    const legacy = await this.state.get<string>(`${prefix}:rpc:${rpcId}`);
    if (typeof legacy === 'string' && !keys.includes(legacy)) keys.unshift(legacy);
    const cards = await Promise.all(keys.map((key) => this.byKey(key)));
    return cards.filter((card): card is PostedCard => card !== undefined);
  }

  /** The card a reply belongs to: the one it replies to, else the one whose thread it is in. */
  async byReply(threadId: string, replyTo: string | undefined): Promise<PostedCard | undefined> {
    if (replyTo !== undefined) {
      const key = await this.state.get<string>(`${prefix}:msg:${threadId}:${replyTo}`);
      if (typeof key === 'string') return this.byKey(key);
    }
    const key = await this.state.get<string>(`${prefix}:thread:${threadId}`);
    return typeof key === 'string' ? this.byKey(key) : undefined;
  }

  /** The last person who answered on this card, to name them when it is edited (a platform id alone says little). */
  async setAnswerer(key: string, person: { id: string; name: string }): Promise<void> {
    await this.state.set(`${prefix}:answerer:${key}`, person, settledTtlMs);
  }

  async answererOf(key: string): Promise<{ id: string; name: string } | undefined> {
    const parsed = z.object({ id: z.string(), name: z.string() }).safeParse(await this.state.get(`${prefix}:answerer:${key}`));
    return parsed.success ? parsed.data : undefined;
  }

  async markSettled(card: PostedCard, text: string): Promise<void> {
    const settled = { ...card, settled: text };
    await this.state.set(`${prefix}:card:${card.key}`, settled, settledTtlMs);
  }
}
