import { askUserQuestionAnswerSchema, askUserQuestionsSchema } from '@askseam/user-questions';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { questionModeSchema, questionUrgencySchema, responseViaSchema } from './record.js';

/** Where a response came from: `AnsweredBy.via` (`websocket`, `http`, `slack`, `email`, `agent`, …). */
export const responseChannelSchema = responseViaSchema;

/** Who sent a response, as the log keeps it: the principal, the channel (`via`), and the channel's own names for the person and the place. */
const responder = {
  principalId: z.string(),
  channel: responseChannelSchema,
  user: z.string().min(1).max(512).optional(),
  destination: z.string().min(1).max(512).optional(),
};

const base = { sessionId: z.string().min(1), rpcId: z.string().min(1) };

/**
 * One entry of a session's append-only log (seed 002's thread events), in the order things
 * happened. `data` is what an agent or an auditor needs to know about that step.
 */
/** The fields of a `human_input_requested` event other than its questions (see validate.ts: a sealed batch is kept, not re-read). */
export const humanInputRequestedWithoutQuestionsSchema = z.strictObject({
  ...base,
  type: z.literal('human_input_requested'),
  data: z.strictObject({ askedBy: z.string(), mode: questionModeSchema, urgency: questionUrgencySchema.optional() }),
});

/** The fields of a `response_from_human` event other than its answer (see validate.ts: a sealed answer is kept, not re-read). */
export const responseFromHumanWithoutAnswerSchema = z.strictObject({
  ...base,
  type: z.literal('response_from_human'),
  data: z.strictObject({ ...responder }),
});

export const newQuestionEventSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...base,
    type: z.literal('human_input_requested'),
    data: z.strictObject({
      askedBy: z.string(),
      mode: questionModeSchema,
      questions: askUserQuestionsSchema,
      urgency: questionUrgencySchema.optional(),
    }),
  }),
  z.strictObject({
    ...base,
    type: z.literal('delivered'),
    /** `channel`: `websocket` for the socket and the event stream, else the in-process channel's name (`slack`, `email`, …). */
    data: z.strictObject({ channel: responseChannelSchema, connectionId: z.string(), replay: z.boolean() }),
  }),
  z.strictObject({
    ...base,
    type: z.literal('response_from_human'),
    data: z.strictObject({ answer: askUserQuestionAnswerSchema, ...responder }),
  }),
  z.strictObject({
    ...base,
    type: z.literal('response_rejected'),
    data: z.strictObject({
      reason: z.enum(['not-pending', 'bad-response', 'forbidden']),
      detail: z.string().optional(),
      ...responder,
    }),
  }),
  z.strictObject({
    ...base,
    type: z.literal('cancelled'),
    data: z.strictObject({ ...responder, message: z.string().optional() }),
  }),
  z.strictObject({
    ...base,
    type: z.literal('aborted'),
    // `operator`: withdrawn from the operator console or `host.withdraw`, by `principalId`, for `reason`.
    data: z.strictObject({ by: z.enum(['signal', 'host-close', 'operator']), principalId: z.string().optional(), reason: z.string().optional() }),
  }),
  z.strictObject({
    ...base,
    type: z.literal('timed_out'),
    data: z.strictObject({}),
  }),
  /** One approval of a quorum approval counted by the store (`QuestionStore.vote`); the vote that completes the quorum is followed by `response_from_human`. */
  z.strictObject({
    ...base,
    type: z.literal('vote_cast'),
    data: z.strictObject({
      principalId: z.string(),
      channel: z.string(),
      user: z.string().optional(),
      destination: z.string().optional(),
      /** Distinct approvals counted so far, this one included. */
      approvals: z.int().min(1),
      /** Approvals the quorum needs. */
      needed: z.int().min(1),
    }),
  }),
  /**
   * A routed question reached one of its later tiers (docs/routing.md): `after` its time came, or
   * `fall-through` when every agent answerer of the tier before gave up. `answerers` names who may
   * answer now (`principal:alice`, `group:oncall`, `channel:slack:C0123`, `agent:triage`). Written
   * once per tier, by one node.
   */
  z.strictObject({
    ...base,
    type: z.literal('escalated'),
    data: z.strictObject({ tier: z.number().int().min(1), reason: z.enum(['after', 'fall-through']), answerers: z.array(z.string()) }),
  }),
  /** A stored record the host could not use (unreadable, or an answer that does not fit its questions): left in the store as it is, and skipped. */
  z.strictObject({
    ...base,
    type: z.literal('record_quarantined'),
    data: z.strictObject({ reason: z.string() }),
  }),
]);

/** Every event type, in the order a question usually meets them. */
export const questionEventTypes = [
  'human_input_requested',
  'delivered',
  'escalated',
  'response_from_human',
  'response_rejected',
  'vote_cast',
  'cancelled',
  'aborted',
  'timed_out',
  'record_quarantined',
] as const;

export type NewQuestionEvent = z.infer<typeof newQuestionEventSchema>;
export type QuestionEventType = NewQuestionEvent['type'];

/** A stored event: `id` grows with every append to the store (a cursor for `readEvents`), `at` is when it was appended. */
export type QuestionEvent = NewQuestionEvent & { id: number; at: string };
