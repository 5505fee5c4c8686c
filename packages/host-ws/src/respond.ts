import { respondResultSchema, type QuestionRespondFrame, type ReceiptFrame, type ReceiptRejectionReason } from '@askseam/protocol';
import { answerMismatch, askUserQuestionAnswerSchema, type AskUserQuestionAnswer } from '@askseam/user-questions';
import type { PendingQuestion, PendingTable } from './pending.js';

/** What one `question/respond` frame came to. The caller sends `receipt` and settles a claimed entry. */
export type RespondOutcome =
  | { kind: 'rejected'; receipt: ReceiptFrame; reason: ReceiptRejectionReason; detail?: string }
  /** The entry was claimed: the caller must resolve its ask with `answer`. */
  | { kind: 'answered'; receipt: ReceiptFrame; entry: PendingQuestion; answer: AskUserQuestionAnswer }
  /** The entry was claimed: the caller must reject its ask with `ASK_CANCELLED`. */
  | { kind: 'cancelled'; receipt: ReceiptFrame; entry: PendingQuestion; message?: string };

/**
 * Judge one respond frame from a connection that sees sessions through `canSee`. The checks run in
 * the order of DESIGN.md ("Host rules"), top to bottom; the first that fails decides the receipt.
 * Only the two accepting branches take the entry out of `pending`; every rejection leaves a
 * pending question pending, so a corrected answer can still be accepted.
 */
export function respond(frame: QuestionRespondFrame, canSee: (sessionId: string) => boolean, pending: PendingTable): RespondOutcome {
  const { id, rpcId } = frame;
  const reject = (reason: ReceiptRejectionReason, detail?: string): RespondOutcome => ({
    kind: 'rejected',
    reason,
    ...(detail === undefined ? {} : { detail }),
    receipt: { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId, accepted: false, reason, ...(detail === undefined ? {} : { detail }) },
  });
  const accepted: ReceiptFrame = { type: 'receipt', ...(id === undefined ? {} : { id }), rpcId, accepted: true };

  // 1. Unknown or already settled.
  const entry = pending.get(rpcId);
  if (entry === undefined) return reject('not-pending');

  // 2. Not this connection's session. Same receipt for "exists but not yours" whatever the result says.
  if (!canSee(entry.sessionId)) return reject('forbidden');

  // 3. The result must have the shape of a result before anything else is read from it.
  const parsed = respondResultSchema.safeParse(frame.result);
  if (!parsed.success) return reject('bad-response', `The result must be { ok: true, value: { sessionId, answer } } or { ok: false, error: { code: "cancelled" } }: ${firstIssue(parsed.error)}.`);
  const result = parsed.data;

  // 4. A failure other than a person's dismissal is not an answer; the question waits on.
  if (!result.ok && result.error.code !== 'cancelled') {
    return reject('bad-response', `Only the error code "cancelled" settles a question; "${result.error.code}" leaves it pending.`);
  }

  // 5. Dismissed: claim before settling, so a racing answer on another socket sees not-pending.
  if (!result.ok) {
    pending.claim(rpcId);
    return { kind: 'cancelled', receipt: accepted, entry, ...(result.error.message === undefined ? {} : { message: result.error.message }) };
  }

  // 6. An answer meant for another session (a client that mixed up its questions).
  if (result.value.sessionId !== entry.sessionId) {
    return reject('bad-response', `The answer names session "${result.value.sessionId}" but question ${rpcId} belongs to session "${entry.sessionId}".`);
  }

  // 7. The answer must have the answer shape and fit these very questions.
  const answer = askUserQuestionAnswerSchema.safeParse(result.value.answer);
  if (!answer.success) return reject('bad-response', `The answer must be { answers: [{ id, selected: string[], custom?: string }] }: ${firstIssue(answer.error)}.`);
  const mismatch = answerMismatch(entry.questions, answer.data);
  if (mismatch) return reject('bad-response', mismatch.message);

  // 8. First answer wins: claim synchronously, before anything resolves.
  pending.claim(rpcId);
  return { kind: 'answered', receipt: accepted, entry, answer: answer.data };
}

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'it does not match';
  const where = issue.path.length > 0 ? `at ${issue.path.map(String).join('.')}: ` : '';
  return `${where}${issue.message}`;
}
