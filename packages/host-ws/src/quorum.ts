import type { QuestionVote, ReceiptFrame } from '@askseam/protocol';
import { QuestionStoreError, type AnsweredBy, type BusAnnouncement, type QuestionBusAnnouncementMessage, type QuestionRecord, type QuestionStore, type Vote, type Voter } from '@askseam/store';
import { approvalDecisionOf, type ApprovalQuorum, type AskUserQuestionAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import { WebSocketHostError } from './errors.js';
import type { PendingQuestion, PendingTable } from './pending.js';
import type { Principal } from './principal.js';
import type { Cluster } from './cluster.js';
import type { Delivery } from './delivery.js';
import type { Reporter, Responder } from './reporter.js';

// The vote path of a quorum approval (docs/approvals.md, "Quorum"). respond.ts asks this file two
// things at two points of its ordered checks: whether the responder may answer the question at all
// (`quorum.from`), and, for an answer that fits, whether it is an Approve to count rather than a
// settlement to claim. A Deny or a dismissal is claimed as for any question: any one settles it.

/** The quorum of a batch's tool-approval intent; undefined for every other question. */
export function quorumOf(questions: readonly AskUserQuestionItem[]): ApprovalQuorum | undefined {
  for (const question of questions) if (question.intent?.kind === 'tool-approval' && question.intent.quorum !== undefined) return question.intent.quorum;
  return undefined;
}

/** Who is responding, as `from` is matched against it. */
export interface QuorumResponder {
  principal: Principal;
  /** The channel destination the response came through (`slack:C0123`), when it came through one. */
  destination?: string;
}

/** Whether `responder` is one of `quorum.from` (everyone who may see the question, without `from`). */
export function mayVote(quorum: ApprovalQuorum, responder: QuorumResponder): boolean {
  if (quorum.from === undefined) return true;
  const groups = responder.principal.groups;
  // Gate 6 let only answerers with exactly one key through.
  return quorum.from.some((answerer) => {
    if (answerer.principal !== undefined) return answerer.principal === responder.principal.id;
    if (answerer.group !== undefined) return Array.isArray(groups) && groups.includes(answerer.group);
    return responder.destination !== undefined && answerer.channel === responder.destination;
  });
}

/** Refuse a quorum question on a store that cannot count votes, before it is asked (a typed host error, not a silent first-answer-wins). */
export function refuseQuorumWithoutVotes(questions: readonly AskUserQuestionItem[], store: Pick<QuestionStore, 'vote'>): void {
  if (store.vote !== undefined || quorumOf(questions) === undefined) return;
  throw new WebSocketHostError(
    'QUORUM_UNSUPPORTED',
    'This approval needs a quorum of approvers, but the host\'s question store has no vote() to count them atomically; use a store that has it (memory, SQLite, Redis) or ask without quorum.',
  );
}

/** What respond.ts needs for one responder's response to a quorum approval. */
export interface QuorumVoting {
  /** False when `quorum.from` leaves the responder out: any response of theirs is `forbidden`. */
  mayRespond(entry: PendingQuestion): boolean;
  /** The store's count of an Approve; undefined for any other answer (it settles the question). */
  vote(entry: PendingQuestion, answer: AskUserQuestionAnswer): Promise<VoteOutcome> | undefined;
}

/** One Approve, counted. `settled`: it completed the quorum (the question is out of `pending`). */
export type VoteOutcome =
  | { kind: 'counted'; record: QuestionRecord; repeated: boolean }
  | { kind: 'settled'; record: QuestionRecord; announced: boolean }
  | { kind: 'not-pending' }
  | { kind: 'failed'; error: unknown };

export interface QuorumVotingDeps {
  store: Pick<QuestionStore, 'vote'>;
  pending: PendingTable;
  announce?: (message: QuestionBusAnnouncementMessage) => BusAnnouncement | undefined;
}

/** The vote path for one responder: `voter` is who the store records. */
export function quorumVoting(responder: QuorumResponder, voter: Voter, deps: QuorumVotingDeps): QuorumVoting {
  return {
    mayRespond: (entry) => {
      const quorum = quorumOf(entry.questions);
      return quorum === undefined || mayVote(quorum, responder);
    },
    vote: (entry, answer) => {
      const quorum = quorumOf(entry.questions);
      if (quorum === undefined || !approvalDecisionOf(entry.questions, answer).approved) return undefined;
      return castVote(entry, answer, quorum, voter, deps);
    },
  };
}

async function castVote(entry: PendingQuestion, answer: AskUserQuestionAnswer, quorum: ApprovalQuorum, voter: Voter, deps: QuorumVotingDeps): Promise<VoteOutcome> {
  const { store, pending } = deps;
  // A store without vote() never gets here: the question was refused when asked (refuseQuorumWithoutVotes).
  if (store.vote === undefined) return { kind: 'failed', error: new QuestionStoreError('INVALID_INPUT', 'The store has no vote().') };
  const announce = deps.announce?.({ type: 'settled' });
  let result;
  try {
    // The question stays in `pending` while the store counts: other people's votes go on arriving.
    // The store decides, atomically, which vote completes the quorum.
    result = await store.vote(entry.rpcId, { voter, approvals: quorum.approvals, answer }, announce === undefined ? undefined : { announce });
  } catch (error) {
    // Nothing to read back: a vote sent again by the same person is counted once, so the receipt
    // can say "send it again" whether or not the store kept it.
    return { kind: 'failed', error };
  }
  switch (result.kind) {
    case 'not-pending':
      return result;
    case 'counted':
    case 'repeated':
      entry.votes = result.record.votes;
      return { kind: 'counted', record: result.record, repeated: result.kind === 'repeated' };
    case 'settled':
      // Out of the table now that the store settled it; a response racing in sees not-pending.
      pending.claim(entry.rpcId);
      return { kind: 'settled', record: result.record, announced: announce !== undefined };
  }
}

/** The approvals as clients see them (no times, no channel destinations). */
export function votesForClients(votes: readonly Vote[] | undefined): QuestionVote[] | undefined {
  return votes?.map(({ principalId, via, user }) => ({ principalId, via, ...(user === undefined ? {} : { user }) }));
}

/** The accepted receipt of a vote that leaves the question pending: it carries the approvals so far. */
export function voteReceipt(id: string | undefined, rpcId: string, votes: readonly Vote[] | undefined): ReceiptFrame {
  return { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId, accepted: true, votes: votesForClients(votes) ?? [] };
}

/** A counted vote: to `onEvent` and the logger (the store logged `vote_cast` with it), and its progress to every client of the session. */
export function announceVote(record: QuestionRecord, by: Responder, deps: { pending: PendingTable; delivery: Delivery; reporter: Reporter; cluster: Cluster }): void {
  const needed = quorumOf(record.questions)?.approvals ?? 1;
  deps.reporter.report({ kind: 'voted', record, by, approvals: record.votes?.length ?? 0, needed }, { log: false });
  const entry = deps.pending.get(record.rpcId);
  if (entry !== undefined) deps.delivery.votesChanged(entry);
  // The other nodes' clients see it too (a hint: each reads the votes back from the store).
  deps.cluster.publish({ type: 'voted', record });
}

/** A vote counted on another node (the store's record): this node's clients of the session see the new progress. */
export function adoptVotes(record: QuestionRecord, deps: { pending: PendingTable; delivery: Delivery }): void {
  const entry = deps.pending.get(record.rpcId);
  const votes = record.votes ?? [];
  // Reads can cross: never go back to fewer votes than this node already shows.
  if (entry === undefined || votes.length <= (entry.votes ?? entry.record.votes ?? []).length) return;
  entry.votes = votes;
  deps.delivery.votesChanged(entry);
}

/**
 * Who decided a settled record, for the asker: every approver of an approved quorum, in the order
 * they voted; otherwise the one person whose response settled it (the record's `answeredBy`).
 * Undefined when the record does not say.
 */
export function whoDecided(record: QuestionRecord): AnsweredBy[] | undefined {
  const quorum = quorumOf(record.questions);
  const votes = record.votes ?? [];
  if (quorum !== undefined && record.answer !== undefined && votes.length >= quorum.approvals && approvalDecisionOf(record.questions, record.answer).approved) {
    return votes.map(({ at: _at, ...voter }) => voter);
  }
  return record.answeredBy === undefined ? undefined : [record.answeredBy];
}
