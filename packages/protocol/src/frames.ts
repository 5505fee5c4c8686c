import { askUserQuestionsSchema, askUserQuestionUrgencySchema } from '@askseam/user-questions';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

/**
 * Bumped on any change a peer of the previous version could not read.
 * 2: the connection whose response settled a question gets its accepted receipt and no
 * `question/resolved` for it (the receipt says the same); every other connection still gets it.
 */
export const PROTOCOL_VERSION = 2;

// ── server → client ────────────────────────────────────────────────────────────

export const helloFrameSchema = z.object({
  type: z.literal('hello'),
  protocol: z.number().int(),
  /** The sessions this connection may see, when the host can list them (absent for "every session"). */
  sessions: z.array(z.string()).optional(),
  /**
   * The rpcIds of the pending questions about to be replayed to this connection. A reconnecting
   * client drops any question it still holds that is not listed: it was settled while it was away.
   */
  pending: z.array(z.string()).optional(),
  /**
   * Present on a connection opened with a one-question link: the question it is for, and whether
   * that question is already settled (answered or dismissed), in which case nothing is replayed
   * and the page should say so rather than wait.
   */
  link: z.object({ rpcId: z.string(), settled: z.boolean() }).optional(),
});

/**
 * One approval counted on a quorum approval (`intent.quorum`): who approved, as the host recorded
 * it. A client shows the progress ("1 of 2 approvals (by @alex)"); the count needed is the intent's.
 */
export const questionVoteSchema = z.object({
  principalId: z.string(),
  /** How the vote came in: `websocket`, `http`, a channel's name. */
  via: z.string(),
  /** The person as their channel names them, when it does. */
  user: z.string().optional(),
});

export const questionRequestedFrameSchema = z.object({
  type: z.literal('question/requested'),
  /** A random UUID, stable across replays: key drafts by it. */
  rpcId: z.string(),
  /** The asking agent's id. */
  sessionId: z.string(),
  questions: askUserQuestionsSchema,
  /** When the agent asked, as an ISO 8601 timestamp. */
  askedAt: z.string(),
  /**
   * How soon a person should look (`low | medium | high`), when the asker said. A value this
   * version does not know reads as `medium` (as the seam asks of providers), so a newer host's
   * level never makes an older client drop the whole question.
   */
  urgency: askUserQuestionUrgencySchema.catch('medium').optional(),
  /**
   * A quorum approval's approvals so far. The host sends the frame again, same rpcId, each time a
   * vote is counted: a client that holds the question updates its progress; one built before
   * votes keeps the question as it is (a replay of a held question changes nothing there).
   */
  votes: z.array(questionVoteSchema).optional(),
});

export const questionOutcomeSchema = z.enum(['answered', 'cancelled']);

export const questionResolvedFrameSchema = z.object({
  type: z.literal('question/resolved'),
  rpcId: z.string(),
  sessionId: z.string(),
  outcome: questionOutcomeSchema,
  /**
   * Who settled it, when an agent answerer of a host route did (`via: 'agent'`, principal
   * `agent:<name>`), so a page can say "answered by agent <name>". Absent for a person's answer.
   */
  answeredBy: z.object({ principalId: z.string(), via: z.string() }).optional(),
});

export const receiptRejectionReasonSchema = z.enum(['not-pending', 'bad-response', 'forbidden']);

export const receiptFrameSchema = z.discriminatedUnion('accepted', [
  z.object({
    type: z.literal('receipt'),
    id: z.string().optional(),
    rpcId: z.string(),
    accepted: z.literal(true),
    /**
     * Set when the response was one approval of a quorum approval that still waits for more: the
     * question stays pending (this receipt is not its end), and these are the approvals so far.
     */
    votes: z.array(questionVoteSchema).optional(),
  }),
  z.object({
    type: z.literal('receipt'),
    id: z.string().optional(),
    rpcId: z.string(),
    accepted: z.literal(false),
    reason: receiptRejectionReasonSchema,
    /** Why, in words a person can act on (set for `bad-response`). */
    detail: z.string().optional(),
  }),
]);

export const frameErrorCodeSchema = z.enum(['malformed-json', 'unknown-type', 'invalid-frame', 'binary-frame']);

export const errorFrameSchema = z.object({
  type: z.literal('error'),
  code: frameErrorCodeSchema,
  message: z.string(),
});

// Application-level heartbeat, for peers (browsers) that cannot see protocol-level pings.
export const pingFrameSchema = z.object({ type: z.literal('ping') });
export const pongFrameSchema = z.object({ type: z.literal('pong') });

// ── client → server ────────────────────────────────────────────────────────────

export const questionRespondFrameSchema = z.object({
  type: z.literal('question/respond'),
  /** Echoed on the receipt so a client can match receipts to its sends. */
  id: z.string().optional(),
  rpcId: z.string(),
  // Checked by the host against `respondResultSchema`, so that a result of the wrong shape earns
  // a `bad-response` receipt (question stays pending) rather than an unreadable-frame error.
  result: z.unknown(),
});

/** What a `question/respond` frame's `result` must be. */
export const respondResultSchema = z.discriminatedUnion('ok', [
  z.strictObject({
    ok: z.literal(true),
    value: z.strictObject({ sessionId: z.string(), answer: z.unknown() }),
  }),
  z.strictObject({
    ok: z.literal(false),
    error: z.strictObject({ code: z.string(), message: z.string().optional() }),
  }),
]);

export const serverFrameSchemas = {
  hello: helloFrameSchema,
  'question/requested': questionRequestedFrameSchema,
  'question/resolved': questionResolvedFrameSchema,
  receipt: receiptFrameSchema,
  error: errorFrameSchema,
  ping: pingFrameSchema,
  pong: pongFrameSchema,
} as const;

export const clientFrameSchemas = {
  'question/respond': questionRespondFrameSchema,
  ping: pingFrameSchema,
  pong: pongFrameSchema,
} as const;

export type HelloFrame = z.infer<typeof helloFrameSchema>;
export type QuestionRequestedFrame = z.infer<typeof questionRequestedFrameSchema>;
export type QuestionVote = z.infer<typeof questionVoteSchema>;
export type QuestionOutcome = z.infer<typeof questionOutcomeSchema>;
export type QuestionResolvedFrame = z.infer<typeof questionResolvedFrameSchema>;
export type ReceiptRejectionReason = z.infer<typeof receiptRejectionReasonSchema>;
export type ReceiptFrame = z.infer<typeof receiptFrameSchema>;
export type FrameErrorCode = z.infer<typeof frameErrorCodeSchema>;
export type ErrorFrame = z.infer<typeof errorFrameSchema>;
export type PingFrame = z.infer<typeof pingFrameSchema>;
export type PongFrame = z.infer<typeof pongFrameSchema>;
export type QuestionRespondFrame = z.infer<typeof questionRespondFrameSchema>;
export type RespondResult = z.infer<typeof respondResultSchema>;

export type ServerFrame = HelloFrame | QuestionRequestedFrame | QuestionResolvedFrame | ReceiptFrame | ErrorFrame | PingFrame | PongFrame;
export type ClientFrame = QuestionRespondFrame | PingFrame | PongFrame;
