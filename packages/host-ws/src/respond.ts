import { respondResultSchema, type ReceiptFrame, type ReceiptRejectionReason } from '@askseam/protocol';
import type { QuestionRecord, QuestionStore } from '@askseam/store';
import { checkReceivedAnswer, type AskUserQuestionAnswer } from '@askseam/user-questions';
import type { PendingQuestion, PendingTable } from './pending.js';

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
}

/** What one response came to. The caller sends `receipt` and, for a settled record, tells everyone. */
export type RespondOutcome =
  /** Refused; the question, if there is one (`entry`), stays as it was. */
  | { kind: 'rejected'; receipt: ReceiptFrame; reason: ReceiptRejectionReason; detail?: string; entry?: PendingQuestion }
  /** Claimed in the store with this answer: the caller must hand `record` to its asker. */
  | { kind: 'answered'; receipt: ReceiptFrame; record: QuestionRecord; answer: AskUserQuestionAnswer }
  /** Claimed in the store as dismissed: the caller must hand `record` to its asker (the ask rejects `ASK_CANCELLED`). */
  | { kind: 'cancelled'; receipt: ReceiptFrame; record: QuestionRecord; message?: string }
  /** The store could not record the settlement; the question is still pending, so the same response may be sent again. */
  | { kind: 'store-failed'; receipt: ReceiptFrame; entry: PendingQuestion; error: unknown };

/**
 * Judge one response from someone who sees sessions through `canSee`: the WebSocket and the HTTP
 * API both come here. The checks run in the order of docs/design.md ("Host rules"), top to bottom; the
 * first that fails decides the receipt. Only the two accepting branches take the question out of
 * `pending`; every rejection leaves a pending question pending, so a corrected answer can still
 * be accepted.
 */
export async function respond(input: RespondInput, canSee: (sessionId: string) => boolean, deps: RespondDeps): Promise<RespondOutcome> {
  const { id, rpcId } = input;
  const reject = (reason: ReceiptRejectionReason, detail?: string): RespondOutcome => ({
    kind: 'rejected',
    reason,
    ...(detail === undefined ? {} : { detail }),
    ...(entry === undefined ? {} : { entry }),
    receipt: { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId, accepted: false, reason, ...(detail === undefined ? {} : { detail }) },
  });
  const accepted: ReceiptFrame = { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId, accepted: true };

  // 1. Unknown or already settled (or not yet saved, so not yet shown to anyone).
  const entry = deps.pending.get(rpcId);
  if (entry === undefined || !entry.saved) return reject('not-pending');

  // 2. Not this caller's session. Same receipt for "exists but not yours" whatever the result says.
  if (!canSee(entry.sessionId)) return reject('forbidden');

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
    if (error.code !== 'cancelled') return reject('bad-response', `Only the error code "cancelled" settles a question; "${error.code.slice(0, 64)}" leaves it pending.`);

    // 5. Dismissed. Other fields of the error are ignored, but a message must be text, and keys
    // named after Object.prototype's make it a crafted frame, not a person's dismissal.
    const poisoned = [result, error].some((object) => prototypeKeys.some((key) => Object.hasOwn(object, key)));
    if (poisoned) return reject('bad-response', 'The result carries a key named __proto__, constructor or prototype; send a plain { ok: false, error: { code: "cancelled" } }.');
    const message: unknown = Object.hasOwn(error, 'message') ? error.message : undefined;
    if (message !== undefined && typeof message !== 'string') return reject('bad-response', 'error.message, when given, must be a string.');
    // Claim before settling, so a racing answer on another socket sees not-pending.
    const claimed = await claim(entry, 'cancelled', undefined, deps);
    if (claimed.kind === 'lost') return reject('not-pending');
    if (claimed.kind === 'failed') return storeFailed(entry, claimed.error, id);
    return { kind: 'cancelled', receipt: accepted, record: claimed.record, ...(message === undefined ? {} : { message }) };
  }

  // 6. An answer: now the whole result must have the answer result's exact shape.
  const parsed = respondResultSchema.safeParse(result);
  if (!parsed.success || !parsed.data.ok) {
    const why = parsed.success ? 'it does not match' : firstIssue(parsed.error);
    return reject('bad-response', `The result must be { ok: true, value: { sessionId, answer } } or { ok: false, error: { code: "cancelled" } }: ${why}.`);
  }
  const value = parsed.data.value;

  // 7. An answer meant for another session (a client that mixed up its questions).
  if (value.sessionId !== entry.sessionId) {
    return reject('bad-response', `The answer names session "${value.sessionId}" but question ${rpcId} belongs to session "${entry.sessionId}".`);
  }

  // 8. The answer must have the answer shape and fit these very questions.
  const answer = checkReceivedAnswer(entry.questions, value.answer);
  if (!answer.ok) return reject('bad-response', answer.mismatch.message);

  // 9. First answer wins: claim here and in the store before anything resolves.
  const claimed = await claim(entry, 'answered', answer.answer, deps);
  if (claimed.kind === 'lost') return reject('not-pending');
  if (claimed.kind === 'failed') return storeFailed(entry, claimed.error, id);
  return { kind: 'answered', receipt: accepted, record: claimed.record, answer: answer.answer };
}

type Claimed = { kind: 'won'; record: QuestionRecord } | { kind: 'lost' } | { kind: 'failed'; error: unknown };

async function claim(entry: PendingQuestion, outcome: 'answered' | 'cancelled', answer: AskUserQuestionAnswer | undefined, deps: RespondDeps): Promise<Claimed> {
  // Out of the table synchronously first: a response racing in while the store works sees not-pending at once.
  if (deps.pending.claim(entry.rpcId) !== entry) return { kind: 'lost' };
  try {
    const record = await deps.store.claim(entry.rpcId, outcome, answer);
    // Undefined: another host on the same store settled it first.
    return record === undefined ? { kind: 'lost' } : { kind: 'won', record };
  } catch (error) {
    // A networked store can fail after its write went through (the reply was lost): ask it again.
    const after = await readBack(entry.rpcId, deps);
    if (after?.outcome !== undefined) {
      const ours = after.outcome === outcome && JSON.stringify(after.answer) === JSON.stringify(answer);
      return ours ? { kind: 'won', record: after } : { kind: 'lost' };
    }
    // Another node settled it meanwhile (its news came while we waited): it is not ours to bring back.
    if (deps.pending.wasSettledElsewhere(entry.rpcId)) return { kind: 'lost' };
    // Nothing was recorded, so nothing was settled: the question goes back, pending as before.
    deps.pending.add(entry);
    return { kind: 'failed', error };
  }
}

/** The record as the store has it now, or undefined when the store cannot say. */
async function readBack(rpcId: string, deps: RespondDeps): Promise<QuestionRecord | undefined> {
  try {
    return await deps.store.get(rpcId);
  } catch {
    return undefined;
  }
}

function storeFailed(entry: PendingQuestion, error: unknown, id: string | undefined): RespondOutcome {
  const detail = 'The host could not record the response, so the question is still pending; send the response again.';
  return {
    kind: 'store-failed',
    entry,
    error,
    receipt: { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId: entry.rpcId, accepted: false, reason: 'bad-response', detail },
  };
}

const prototypeKeys = ['__proto__', 'constructor', 'prototype'];

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
