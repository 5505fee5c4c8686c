import { askUserQuestionAnswerSchema, isSealedAnswer, type AskUserQuestionAnswer } from '@askseam/user-questions';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { QuestionStoreError } from './errors.js';
import type { NewQuestionEvent } from './events.js';
import { answeredBySchema, voteSchema, type AnsweredBy, type QuestionRecord } from './record.js';

// Quorum approvals (docs/approvals.md, "Quorum"): each person's Approve is a vote kept on the
// pending record, counted by the store in one atomic step, so votes cast at once on several nodes
// are all kept and exactly one of them settles the question. A Deny is no vote: it settles the
// question through an ordinary `claim`.

/** Who cast a vote: the host's `answeredBy` of the response. */
export type Voter = AnsweredBy;
export type Vote = z.infer<typeof voteSchema>;

/** What `QuestionStore.vote` takes. */
export interface VoteRequest {
  /** Who approves. A principal that already voted on the question is not counted again. */
  voter: Voter;
  /** How many distinct principals' approvals settle the question (the intent's `quorum.approvals`). */
  approvals: number;
  /** The answer the question settles with (outcome `answered`) when this vote is the last one needed. */
  answer: AskUserQuestionAnswer;
}

/**
 * What one vote came to. `counted`: kept, the question still waits for more (`record.votes` holds
 * every vote so far). `repeated`: this principal had voted already; nothing changed. `settled`:
 * this vote was the last one needed: the question is settled `answered` with the request's answer,
 * `record.votes` lists every approver. `not-pending`: the rpcId is unknown or already settled.
 */
export type VoteResult =
  | { kind: 'counted'; record: QuestionRecord }
  | { kind: 'repeated'; record: QuestionRecord }
  | { kind: 'settled'; record: QuestionRecord }
  | { kind: 'not-pending' };

const voteRequestSchema = z.strictObject({
  voter: answeredBySchema,
  approvals: z.int().min(1),
  answer: z.unknown(),
});

/** A checked copy of a vote request, or `INVALID_INPUT` naming what is wrong; a store checks before it touches anything. */
export function parseVoteRequest(request: unknown): VoteRequest {
  const parsed = voteRequestSchema.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.map(String).join('.')}`;
    throw new QuestionStoreError('INVALID_INPUT', `The vote request is not valid${where}: ${issue?.message ?? 'it does not match'}. Pass { voter: { principalId, via }, approvals, answer }.`);
  }
  const { voter, approvals, answer } = parsed.data;
  if (isSealedAnswer(answer)) return { voter, approvals, answer };
  const parsedAnswer = askUserQuestionAnswerSchema.safeParse(answer);
  if (!parsedAnswer.success) throw new QuestionStoreError('INVALID_INPUT', `The answer of a vote request is not a valid answer: ${parsedAnswer.error.issues[0]?.message ?? 'it does not match'}.`);
  return { voter, approvals, answer: parsedAnswer.data };
}

/**
 * The tally every store runs inside its atomic step: `record` as it is now (pending) and the new
 * record to write, or `repeated` with nothing to write. Pure, so memory and SQL stores count alike.
 */
export function tallyVote(record: QuestionRecord, request: VoteRequest, at: string): VoteResult {
  const votes = record.votes ?? [];
  if (votes.some((vote) => vote.principalId === request.voter.principalId)) return { kind: 'repeated', record };
  const withVote: QuestionRecord = { ...record, votes: [...votes, { ...request.voter, at }] };
  if (withVote.votes!.length < request.approvals) return { kind: 'counted', record: withVote };
  // The settling vote's voter is who answered, as for any response; `votes` lists every approver.
  return { kind: 'settled', record: { ...withVote, outcome: 'answered', answer: request.answer, settledAt: at, answeredBy: { ...request.voter } } };
}

/**
 * The `vote_cast` event of a vote the store counted (the one that settles included), which the
 * store appends in the same atomic step as the vote: the audit log never lacks a kept vote.
 */
export function voteCastEvent(record: QuestionRecord, request: VoteRequest): NewQuestionEvent {
  const { principalId, via, user, destination } = request.voter;
  return {
    type: 'vote_cast',
    rpcId: record.rpcId,
    sessionId: record.sessionId,
    data: {
      principalId,
      channel: via,
      ...(user === undefined ? {} : { user }),
      ...(destination === undefined ? {} : { destination }),
      approvals: record.votes?.length ?? 0,
      needed: request.approvals,
    },
  };
}
