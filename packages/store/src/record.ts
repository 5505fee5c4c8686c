import { askUserQuestionAnswerSchema, askUserQuestionUrgencySchema, askUserQuestionsSchema } from '@askseam/user-questions';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

/**
 * How the question was asked. `blocking`: an agent awaits `ask()` in this process. `detached`: the
 * asker returned at once and its answer goes to the host's resume handler, possibly after a restart.
 */
export const questionModeSchema = z.enum(['blocking', 'detached']);

/** How urgently a human should look (seed 002's `options.urgency`): the seam's own levels, for notifiers and UIs to sort by. */
export const questionUrgencySchema = askUserQuestionUrgencySchema;

/**
 * How a question was settled. `answered` and `cancelled` come from a person; `aborted` (the asker
 * gave up, or a host that owns its store closed) and `timed_out` (the asker's deadline) from the asker.
 */
export const questionOutcomeSchema = z.enum(['answered', 'cancelled', 'aborted', 'timed_out']);

const timestampSchema = z.iso.datetime();

/**
 * How a response came in: `websocket`, `http`, a channel's name (`slack`, `teams`, `gchat`,
 * `discord`, `telegram`, `email`) or `agent`. A short lowercase name, so logs and metrics can group by it.
 */
export const responseViaSchema = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'a lowercase name of at most 32 letters, digits and dashes, starting with a letter');

/** Who settled a question by answering or dismissing it (docs/design.md, "Who answered"). */
export const answeredBySchema = z.strictObject({
  /** The principal the response came in as: a socket's or HTTP caller's, a channel's, or the app principal a channel mapped its user to. */
  principalId: z.string().min(1),
  via: responseViaSchema,
  /** The person as the channel names them (a Slack user id, an e-mail address). */
  user: z.string().min(1).max(512).optional(),
  /** Where the channel showed the question (`slack:C0123`, `email:oncall@example.com`). */
  destination: z.string().min(1).max(512).optional(),
});

/** What `save` takes: a question that has just been asked and is waiting for its answer. */
export const newQuestionRecordSchema = z.strictObject({
  /** The question's id on the wire and in every store call; unique in the store. */
  rpcId: z.string().min(1),
  /** The session whose clients see and answer the question (the asking agent's id for a blocking ask). */
  sessionId: z.string().min(1),
  /** The id of the agent that asked. */
  askedBy: z.string().min(1),
  askedAt: timestampSchema,
  questions: askUserQuestionsSchema.min(1),
  mode: questionModeSchema,
  urgency: questionUrgencySchema.optional(),
  /** The asker's opaque JSON, echoed back unchanged to the resume handler. Never shown to clients. */
  state: z.json().optional(),
  /**
   * For a blocking ask on a host that shares its store with other nodes (a `QuestionBus`): the id
   * of the node whose process holds the waiting asker. Another node that settles the question
   * hands the answer to that node while it lives, and to its own resume handler once it is gone.
   */
  askedOn: z.string().min(1).optional(),
});

/** A stored question: what was saved, plus how and when it was settled and whether its resume was delivered. */
export const questionRecordSchema = newQuestionRecordSchema.extend({
  outcome: questionOutcomeSchema.optional(),
  /** The validated answer, for outcome `answered` only. */
  answer: askUserQuestionAnswerSchema.optional(),
  settledAt: timestampSchema.optional(),
  /** Who answered or dismissed it (outcomes `answered` and `cancelled`), when the claim said. */
  answeredBy: answeredBySchema.optional(),
  /** When the resume handler (or the in-process asker) took the settled record; unset until then. */
  resumedAt: timestampSchema.optional(),
});

export type QuestionMode = z.infer<typeof questionModeSchema>;
export type QuestionUrgency = z.infer<typeof questionUrgencySchema>;
export type QuestionOutcome = z.infer<typeof questionOutcomeSchema>;
export type NewQuestionRecord = z.infer<typeof newQuestionRecordSchema>;
export type QuestionRecord = z.infer<typeof questionRecordSchema>;
export type AnsweredBy = z.infer<typeof answeredBySchema>;
/** A JSON value, as `state` must be (it is written to disk by durable stores). */
export type JsonValue = z.infer<ReturnType<typeof z.json>>;

/** Outcomes a person chose; only these reach a resume handler. */
export const humanOutcomes: readonly QuestionOutcome[] = ['answered', 'cancelled'];
