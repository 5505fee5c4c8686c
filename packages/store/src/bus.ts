import { questionRecordSchema } from './record.js';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

/**
 * What one host node tells the others. Every message carries the whole record as the sender saw
 * it, but a message is only a hint (anyone who can reach the bus can publish one): the WebSocket
 * host reads the record from the store before it shows a question or hands an answer over, unless
 * the bus delivered it sealed by a node holding the key the nodes share (`QuestionBusDelivery`).
 */
export const questionBusMessageSchema = z.discriminatedUnion('type', [
  /** Saved and pending: show it to your sockets of `record.sessionId` and accept answers to it. */
  z.strictObject({ type: z.literal('asked'), from: z.string().min(1), record: questionRecordSchema }),
  /**
   * Settled in the store (any outcome; the sender won the claim): drop it, tell your sockets, and
   * if its blocking asker waits in your process, hand it the answer. `message` is a dismissal's text.
   */
  z.strictObject({ type: z.literal('settled'), from: z.string().min(1), record: questionRecordSchema, message: z.string().optional() }),
  /** A quorum approval counted another vote (`record.votes`) and still waits: show your sockets the progress. */
  z.strictObject({ type: z.literal('voted'), from: z.string().min(1), record: questionRecordSchema }),
]);

export type QuestionBusMessage = z.infer<typeof questionBusMessageSchema>;

/** A bus message without its record and sender: what `QuestionBus.announcement` turns into text. */
export type QuestionBusAnnouncementMessage = { type: 'asked' } | { type: 'settled'; message?: string };

/**
 * A bus message a store publishes itself, in the same atomic step as the write it announces, so the
 * news leaves with the write instead of one round trip after it (docs/scaling.md). The store sends
 * `before`, then the record as it wrote it (JSON), then `after`, on `channel`, and only when the
 * write happened: a saved record, a won claim. Receivers treat it like any bus message: a hint,
 * checked against the store before anything is shown or handed over, unless it is sealed (`seal`).
 */
export interface BusAnnouncement {
  readonly channel: string;
  readonly before: string;
  readonly after: string;
  /**
   * Optional (a bus whose nodes share a sealing key): the text that seals this message, given what
   * the store is about to write. The store appends it right after `after`. Without it, or from a
   * store that does not call it, the message is an ordinary hint.
   */
  seal?(facts: BusSealFacts): string;
}

/**
 * What a store tells `BusAnnouncement.seal` about the write it announces, each part exactly as it
 * goes into the message: for `asked` the record's JSON; for `settled` the settlement (JSON texts,
 * `''` when absent). A receiver recomputes the same from the message it parsed.
 */
export type BusSealFacts =
  | { readonly record: string }
  | { readonly rpcId: string; readonly outcome: string; readonly settledAt: string; readonly answer: string; readonly answeredBy: string };

/** What a bus knows about a message besides its content. */
export interface QuestionBusDelivery {
  /**
   * True when the message carries a seal this node verified with the key the nodes share: a node
   * with the key sent it (its `asked` record, its settlement and dismissal text are as sent). Only a
   * bus configured with a key says so; any other message is a hint.
   */
  readonly sealed: boolean;
}

/** Who receives a bus's messages. */
export interface QuestionBusListener {
  /** A message another node published (never one this node published itself). */
  message(message: QuestionBusMessage, delivery?: QuestionBusDelivery): void;
  /**
   * Messages may have been lost (the connection to the bus dropped) and the bus is receiving
   * again: the host re-reads the store's pending questions to catch up.
   */
  resync(): void;
}

/**
 * How several host processes sharing one store keep each other informed, so that a question asked
 * on node A can be answered through node B. A bus carries news only: the store stays the single
 * source of truth (claims are decided there), and a lost message is repaired by `resync`.
 *
 * Errors are `QuestionStoreError`s: `STORE_UNAVAILABLE` while the bus cannot be reached (at once,
 * not after a long queue), `STORE_CLOSED` after `close()`, `INVALID_INPUT` for a message that is not
 * a bus message, a second listener, or a bad lease ttl.
 *
 * `describeQuestionBusContract` from `@askseam/store-testing` checks an implementation.
 */
export interface QuestionBus {
  /** This node's id, unique among the nodes on the bus (a random id per process is right). */
  readonly nodeId: string;
  /**
   * Start receiving messages; resolves once subscribed (a message published by another node after
   * that reaches `listener`). One listener per bus. Rejects when the bus cannot be reached.
   */
  subscribe(listener: QuestionBusListener): Promise<void>;
  /** Send to every other subscribed node. Rejects when the bus cannot be reached. */
  publish(message: QuestionBusMessage): Promise<void>;
  /**
   * Whether the node with this id is on the bus (a closed node is not; a dead one is not once the
   * bus notices). A live node whose connection is being re-made should still count as alive, and a
   * node whose own connection dropped should take nobody for gone until the others have had a
   * liveness period to refresh after it is back (they were likely cut off with it).
   */
  isNodeAlive(nodeId: string): Promise<boolean>;
  /**
   * Take the lease named `key` for `ttlMs`: true for exactly one caller among all nodes until it
   * expires. Used so that one settled record goes to one node's resume handler at a time.
   */
  acquireLease(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Optional: the server this bus publishes on (for Redis `redis://host:port/db`). A host whose store
   * has the same `announcesOn` lets the store publish `asked` and `settled` inside its writes, through
   * `announcement`, and does not publish them itself.
   */
  readonly publishesOn?: string;
  /**
   * Optional, with `publishesOn`: the channel and the text around the record of this node's message
   * of this type, for a store to publish. Throws `INVALID_INPUT` for a message `publish` would refuse.
   */
  announcement?(message: QuestionBusAnnouncementMessage): BusAnnouncement;
  /**
   * Optional: news by session (docs/scaling.md, "What each node holds"). A bus on which neither `follow`
   * nor `unfollow` was ever called delivers every message, as a bus without `follow` does. From the
   * first call of either on (a node that serves nothing yet calls `unfollow('*')`), a node receives a session's `asked`, `settled` and `voted` only while it follows that session,
   * plus every `settled` whose `record.askedOn` names this node (its waiting asker), plus everything
   * while it follows `'*'` (a node with a channel open). Resolves once subscribed: a message
   * published after that reaches the listener. Following twice is one follow (one copy of each
   * message); a `settled` that reaches a node both ways may arrive twice (a hint: the second copy
   * changes nothing). What is followed survives a dropped connection (the bus follows it again
   * before it calls `resync`). Rejects `INVALID_INPUT` for an empty id, and as `subscribe` does when
   * the bus cannot be reached or is closed.
   */
  follow?(sessionId: string | '*'): Promise<void>;
  /**
   * Optional, with `follow`: stop receiving the session's news (`'*'`: stop receiving everything
   * else; the sessions followed one by one stay followed). Unfollowing what is not followed does
   * nothing; after the last unfollow a node receives only the `settled` of its own askers.
   */
  unfollow?(sessionId: string | '*'): Promise<void>;
  /** Stop receiving and leave the bus (other nodes then see this node as not alive). Idempotent. */
  close(): Promise<void>;
}
