// Seed 001's pending action kept in seed 002's store: the model called request_clarification, so
// the questions go out as text (an IM bot, an email) and the run ends; the pending business call
// waits in SQLite as the question's `state`. When the reply comes — in another process, after any
// number of restarts — the store is opened again, the question claimed once, and the call resumed.
import { randomUUID } from 'node:crypto';
import { detachedClarificationAsk, prepareRequestClarification, resumePendingAction, type ResumedAction } from '@askseam/clarify';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { parseTextReply } from '@askseam/text';

/** Save the question with its pending call; return what to post to the person. */
export async function parkClarification(filename: string, sessionId: string, call: unknown): Promise<{ rpcId: string; text: string } | { error: string }> {
  const prepared = await prepareRequestClarification(call);
  if (!prepared.ok) return { error: prepared.error.message };
  const { questions, state } = detachedClarificationAsk(prepared.value);
  const rpcId = randomUUID();
  const store = new SqliteQuestionStore(filename);
  try {
    await store.save({ rpcId, sessionId, askedBy: sessionId, askedAt: new Date().toISOString(), questions, mode: 'detached', state });
  } finally {
    await store.close();
  }
  return { rpcId, text: prepared.value.text };
}

/** The person's reply, in a process that knows nothing but the file and the rpcId: the call to run now. */
export async function resumeFromReply(filename: string, rpcId: string, reply: string): Promise<{ call: ResumedAction } | { askAgain: string } | { gone: true }> {
  const store = new SqliteQuestionStore(filename);
  try {
    const record = await store.get(rpcId);
    if (record === undefined || record.outcome !== undefined) return { gone: true };
    const read = parseTextReply(record.questions, reply);
    // The question stays pending, so a corrected reply still counts.
    if (!read.ok) return { askAgain: read.problems.map((problem) => problem.message).join('\n') };
    const call = resumePendingAction(record.state, read.answer);
    // Exactly once: of two replies racing in (two bot workers, a webhook retry), only one claims it.
    if ((await store.claim(rpcId, 'answered', read.answer)) === undefined) return { gone: true };
    await store.markResumed(rpcId);
    return { call };
  } finally {
    await store.close();
  }
}
