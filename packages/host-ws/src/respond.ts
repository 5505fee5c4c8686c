import { respondResultSchema, type ReceiptFrame, type ReceiptRejectionReason } from '@askseam/protocol';
import { QuestionStoreError, type AnsweredBy, type BusAnnouncement, type QuestionBusAnnouncementMessage, type QuestionRecord, type QuestionStore } from '@askseam/store';
import { compiledSafeParse, sealReceivedAnswer, type AskUserQuestionAnswer } from '@askseam/user-questions';
import type { PendingQuestion, PendingTable } from './pending.js';
import { claimVerdict, readBack, readBackDelaysMs } from './read-back.js';
import { voteReceipt, type QuorumVoting } from './quorum.js';

/** One response to one question, from a `question/respond` frame or an HTTP request. */
export interface RespondInput {
  /** Echoed on the receipt (the frame's `id`). */
  id?: string;
  rpcId: string;
  /** Unchecked: `{ ok: true, value: { sessionId, answer } }` or `{ ok: false, error: { code: 'cancelled', message? } }`. */
  result: unknown;
}

export interface RespondDeps {
  pending: PendingTable;
  store: Pick<QuestionStore, 'claim' | 'get'>;
  /** The `settled` message for the store to publish inside the claim, when it can (the cluster's announcement). */
  announce?: (message: QuestionBusAnnouncementMessage) => BusAnnouncement | undefined;
  /** A one-question link's question: every other question is `forbidden` to this responder, whatever its session. */
  onlyQuestion?: string | undefined;
  /** The vote path of quorum approvals (quorum.ts): who may respond to one, and how an Approve is counted. */
  quorum?: QuorumVoting;
  /** The host route's check (routing.ts): false when the responder is not an answerer of a reached tier. Absent: unrouted. */
  mayAnswer?: (() => boolean) | undefined;
  /** Who is responding, kept with the settled record when the response settles it. */
  answeredBy?: AnsweredBy;
}

/** What one response came to. The caller sends `receipt` and, for a settled record, tells everyone. */
export type RespondOutcome =
  /** Refused; the question, if there is one (`entry`), stays as it was. */
  | { kind: 'rejected'; receipt: ReceiptFrame; reason: ReceiptRejectionReason; detail?: string; entry?: PendingQuestion }
  /** Claimed in the store with this answer: the caller must hand `record` to its asker. */
  | { kind: 'answered'; receipt: ReceiptFrame; record: QuestionRecord; answer: AskUserQuestionAnswer; announced?: true }
  /** One approval of a quorum approval, counted (or, `repeated`, already counted for this principal): the question stays pending. */
  | { kind: 'voted'; receipt: ReceiptFrame; record: QuestionRecord; repeated: boolean }
  /** Claimed in the store as dismissed: the caller must hand `record` to its asker (the ask rejects `ASK_CANCELLED`). */
  | { kind: 'cancelled'; receipt: ReceiptFrame; record: QuestionRecord; message?: string; announced?: true }
  /** The store could not record the settlement (a read-back proved it): the question is pending again, so the same response may be sent again. */
  | { kind: 'store-failed'; receipt: ReceiptFrame; entry: PendingQuestion; error: unknown }
  /**
   * The store's reply was lost and it could not be read back either: the settlement may or may not
   * be recorded. The question is out of `pending` (neither pending nor settled here) until the
   * caller has read the truth back and acted on it (answer handed over, or question back pending).
   */
  | { kind: 'unconfirmed'; receipt: ReceiptFrame; entry: PendingQuestion; outcome: 'answered' | 'cancelled'; answer?: AskUserQuestionAnswer; message?: string; error: unknown };

/**
 * Judge one response from someone who sees sessions through `canSee`: the WebSocket and the HTTP
 * API both come here. The checks run in the order of docs/design.md ("Host rules"), top to bottom; the
 * first that fails decides the receipt. Only the two accepting branches (and `unconfirmed`, whose
 * truth the caller settles) take the question out of `pending`; every rejection leaves a pending
 * question pending, so a corrected answer can still be accepted.
 */
export async function respond(input: RespondInput, canSee: (sessionId: string) => boolean, deps: RespondDeps): Promise<RespondOutcome> {
  const { id, rpcId } = input;
  const reject = (reason: ReceiptRejectionReason, unclipped?: string): RespondOutcome => {
    // A detail goes to the sender, the logger and the event log: never longer than a few lines,
    // whatever the sender put in the values it quotes (each is clipped where it is quoted, too).
    const detail = unclipped === undefined ? undefined : clip(unclipped, maxDetailLength);
    return {
      kind: 'rejected',
      reason,
      ...(detail === undefined ? {} : { detail }),
      ...(entry === undefined ? {} : { entry }),
      receipt: { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId, accepted: false, reason, ...(detail === undefined ? {} : { detail }) },
    };
  };
  const accepted: ReceiptFrame = { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId, accepted: true };

  // 1. Unknown or already settled (or not yet saved, so not yet shown to anyone).
  const entry = deps.pending.get(rpcId);
  if (entry === undefined || !entry.saved) return reject('not-pending');

  // 2. Not this caller's session (or, for a link, not its one question). Same receipt for "exists
  // but not yours" whatever the result says.
  if (!canSee(entry.sessionId)) return reject('forbidden');
  if (deps.onlyQuestion !== undefined && deps.onlyQuestion !== rpcId) return reject('forbidden');
  // A routed question: only the answerers of the tiers reached so far (docs/routing.md).
  if (deps.mayAnswer?.() === false) return reject('forbidden', notAnAnswererDetail);
  // A quorum approval whose `from` leaves this responder out: no vote, no deny, no dismissal.
  if (deps.quorum !== undefined && !deps.quorum.mayRespond(entry)) return reject('forbidden', 'This approval needs approvers it names (quorum.from), and you are not one of them.');

  // 3. Before anything else is read: an object that says whether it is an answer or a failure.
  const result = input.result;
  if (!isRecord(result) || !Object.hasOwn(result, 'ok') || typeof result.ok !== 'boolean') {
    return reject('bad-response', `The result must be { ok: true, value: { sessionId, answer } } or { ok: false, error: { code: "cancelled" } }: ${whyNotAResult(result)}.`);
  }

  // 4. A failure other than a person's dismissal is not an answer; the question waits on. Only
  // error.code is read here, so the receipt names the code whatever else the result carries.
  if (!result.ok) {
    const error = Object.hasOwn(result, 'error') && isRecord(result.error) ? result.error : undefined;
    if (error === undefined || !Object.hasOwn(error, 'code') || typeof error.code !== 'string') {
      return reject('bad-response', 'A failure result needs error.code; only the code "cancelled" settles a question.');
    }
    if (error.code !== 'cancelled') return reject('bad-response', `Only the error code "cancelled" settles a question; "${clip(error.code, 64)}" leaves it pending.`);

    // 5. Dismissed. Other fields of the error are ignored, but a message must be text, and keys
    // named after Object.prototype's make it a crafted frame, not a person's dismissal.
    const poisoned = [result, error].some((object) => prototypeKeys.some((key) => Object.hasOwn(object, key)));
    if (poisoned) return reject('bad-response', 'The result carries a key named __proto__, constructor or prototype; send a plain { ok: false, error: { code: "cancelled" } }.');
    const message: unknown = Object.hasOwn(error, 'message') ? error.message : undefined;
    if (message !== undefined && typeof message !== 'string') return reject('bad-response', 'error.message, when given, must be a string.');
    // Claim before settling, so a racing answer on another socket sees not-pending.
    const claimed = await claim(entry, 'cancelled', undefined, deps, { type: 'settled', ...(message === undefined ? {} : { message }) });
    if (claimed.kind === 'lost') return reject('not-pending');
    if (claimed.kind === 'failed') return storeFailed(entry, claimed.error, id);
    if (claimed.kind === 'unconfirmed') return unconfirmed(entry, claimed.error, id, { outcome: 'cancelled', ...(message === undefined ? {} : { message }) });
    return { kind: 'cancelled', receipt: accepted, record: claimed.record, ...(message === undefined ? {} : { message }), ...(claimed.announced ? { announced: true } : {}) };
  }

  // 6. An answer: now the whole result must have the answer result's exact shape.
  const parsed = parseRespondResult(result);
  if (!parsed.success || !parsed.data.ok) {
    const why = parsed.success ? 'it does not match' : firstIssue(parsed.error);
    return reject('bad-response', `The result must be { ok: true, value: { sessionId, answer } } or { ok: false, error: { code: "cancelled" } }: ${why}.`);
  }
  const value = parsed.data.value;

  // 7. An answer meant for another session (a client that mixed up its questions).
  if (value.sessionId !== entry.sessionId) {
    return reject('bad-response', `The answer names session "${clip(value.sessionId, 64)}" but question ${rpcId} belongs to session "${entry.sessionId}".`);
  }

  // 8. The answer must have the answer shape and fit these very questions. Sealed (frozen and
  // branded as checked against this batch) when the batch is the seam's: the store keeps it by
  // reference and the seam's gate 8 knows it fits, so neither checks or copies it again.
  const answer = sealReceivedAnswer(entry.questions, value.answer);
  if (!answer.ok) return reject('bad-response', answer.mismatch.message);

  // 9. A quorum approval's Approve is one vote, counted by the store (quorum.ts). Anything else:
  // first answer wins, so claim here and in the store before anything resolves.
  const voted = deps.quorum?.vote(entry, answer.answer);
  if (voted !== undefined) {
    const vote = await voted;
    if (vote.kind === 'not-pending') return reject('not-pending');
    if (vote.kind === 'failed') return reject('bad-response', 'The host could not record your approval; send it again (an approval sent twice counts once).');
    if (vote.kind === 'counted') return { kind: 'voted', receipt: voteReceipt(id, rpcId, vote.record.votes), record: vote.record, repeated: vote.repeated };
    return { kind: 'answered', receipt: accepted, record: vote.record, answer: answer.answer, ...(vote.announced ? { announced: true } : {}) };
  }
  const claimed = await claim(entry, 'answered', answer.answer, deps, { type: 'settled' });
  if (claimed.kind === 'lost') return reject('not-pending');
  if (claimed.kind === 'failed') return storeFailed(entry, claimed.error, id);
  if (claimed.kind === 'unconfirmed') return unconfirmed(entry, claimed.error, id, { outcome: 'answered', answer: answer.answer });
  return { kind: 'answered', receipt: accepted, record: claimed.record, answer: answer.answer, ...(claimed.announced ? { announced: true } : {}) };
}

/** `announced`: the store published the `settled` message inside the claim, so nobody publishes it again. */
type Claimed = { kind: 'won'; record: QuestionRecord; announced?: boolean } | { kind: 'lost' } | { kind: 'failed'; error: unknown } | { kind: 'unconfirmed'; error: unknown };

async function claim(
  entry: PendingQuestion,
  outcome: 'answered' | 'cancelled',
  answer: AskUserQuestionAnswer | undefined,
  deps: RespondDeps,
  news: QuestionBusAnnouncementMessage,
): Promise<Claimed> {
  // Out of the table synchronously first: a response racing in while the store works sees not-pending at once.
  if (deps.pending.claim(entry.rpcId) !== entry) return { kind: 'lost' };
  const announce = deps.announce?.(news);
  // The session too: a store that files records by session (Redis) finds one asked elsewhere without a lookup.
  const options = { sessionId: entry.sessionId, ...(announce === undefined ? {} : { announce }), ...(deps.answeredBy === undefined ? {} : { answeredBy: deps.answeredBy }) };
  try {
    const record = await deps.store.claim(entry.rpcId, outcome, answer, options);
    // Undefined: another host on the same store settled it first.
    return record === undefined ? { kind: 'lost' } : { kind: 'won', record, announced: announce !== undefined };
  } catch (error) {
    // The store knows its claim never reached the server (the connection was already down): nothing
    // was recorded, and the person can be told so at once, with no read-back to wait for.
    if (neverSent(error)) {
      if (deps.pending.wasSettledElsewhere(entry.rpcId)) return { kind: 'lost' };
      deps.pending.add(entry);
      return { kind: 'failed', error };
    }
    // A networked store can fail after its write went through (the reply was lost): the error
    // cannot say which, so only the store's own copy, read back, decides what the person is told.
    const after = await readBack(deps.store, entry.rpcId, readBackDelaysMs);
    // Unknown: the question must not be offered again as pending (the store may hold this very
    // answer), nor reported settled. The caller keeps reading until it knows.
    if (!after.known) return { kind: 'unconfirmed', error };
    const verdict = claimVerdict(after.record, outcome, answer);
    if (verdict === 'ours') return { kind: 'won', record: after.record! };
    if (verdict === 'theirs') return { kind: 'lost' };
    // Another node settled it meanwhile (its news came while we waited): it is not ours to bring back.
    if (deps.pending.wasSettledElsewhere(entry.rpcId)) return { kind: 'lost' };
    // Proved not recorded, so nothing was settled: the question goes back, pending as before.
    deps.pending.add(entry);
    return { kind: 'failed', error };
  }
}

/** A `STORE_UNAVAILABLE` whose store says the command never reached its server (`sent: false`). */
function neverSent(error: unknown): boolean {
  return QuestionStoreError.isInstance(error) && error.code === 'STORE_UNAVAILABLE' && error.sent === false;
}

function storeFailed(entry: PendingQuestion, error: unknown, id: string | undefined): RespondOutcome {
  const detail = 'The host could not record the response: nothing was recorded, and the question is still pending; send the response again.';
  return {
    kind: 'store-failed',
    entry,
    error,
    receipt: { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId: entry.rpcId, accepted: false, reason: 'bad-response', detail },
  };
}

/** Receipt detail of a response from someone the question's route does not (yet) name. */
export const notAnAnswererDetail = 'This question is routed to other people: only the answerers of the tiers it has reached may answer it. Nothing was recorded.';

/** Receipt detail when the host cannot tell whether the response was recorded (docs/durability.md). */
export const unconfirmedDetail =
  'The host could not confirm whether the response was recorded (the question store did not answer). Do not send it again: the question closes if it was recorded, or is shown again as pending if it was not.';

function unconfirmed(
  entry: PendingQuestion,
  error: unknown,
  id: string | undefined,
  settlement: { outcome: 'answered' | 'cancelled'; answer?: AskUserQuestionAnswer; message?: string },
): RespondOutcome {
  return {
    kind: 'unconfirmed',
    entry,
    error,
    ...settlement,
    receipt: { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId: entry.rpcId, accepted: false, reason: 'bad-response', detail: unconfirmedDetail },
  };
}

const prototypeKeys = ['__proto__', 'constructor', 'prototype'];

// Every answer is read here: the compiled parser gives the schema's answers (and issues), faster.
const parseRespondResult = compiledSafeParse(respondResultSchema);

/** The longest `detail` a rejection carries (characters). */
const maxDetailLength = 500;

/** At most `max` code points of `text`, with … when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text.slice(0, max * 2)).slice(0, max);
  return `${points.join('')}…`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function whyNotAResult(result: unknown): string {
  if (!isRecord(result)) return `it is ${result === null ? 'null' : Array.isArray(result) ? 'an array' : `a ${typeof result}`}, not an object`;
  return Object.hasOwn(result, 'ok') ? '"ok" must be true or false' : 'it has no "ok"';
}

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'it does not match';
  const where = issue.path.length > 0 ? `at ${issue.path.map(String).join('.')}: ` : '';
  return `${where}${issue.message}`;
}
