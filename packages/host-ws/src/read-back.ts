import { setTimeout as sleep } from 'node:timers/promises';
import type { QuestionRecord, QuestionStore } from '@askseam/store';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';

/**
 * How long to wait before each read-back of a claim whose reply was lost. A dropped Redis
 * connection reconnects within about 100 ms, so the first tries usually settle it; the receipt
 * waits for all of them (about 2 s) before it says the host could not find out.
 */
export const readBackDelaysMs: readonly number[] = [0, 100, 400, 1_500];

/** Between later read-backs, once the receipt has been sent: doubling from the last delay above, up to 10 s, until the store answers or the host closes. */
export function* confirmDelaysMs(): Generator<number> {
  for (let delay = readBackDelaysMs.at(-1) ?? 1_000; ; delay = Math.min(delay * 2, 10_000)) yield delay;
}

/** What a read-back says about a claim: the store holds it (`ours`), another settlement won or the record is gone (`theirs`), or it is still pending (`pending`: the claim did not run). */
export type ClaimVerdict = 'ours' | 'theirs' | 'pending';

/** Judge the store's copy of a question against the settlement this host tried to record. */
export function claimVerdict(record: QuestionRecord | undefined, outcome: 'answered' | 'cancelled', answer: AskUserQuestionAnswer | undefined): ClaimVerdict {
  if (record === undefined) return 'theirs';
  if (record.outcome === undefined) return 'pending';
  // Both sides went through the same answer schema, so the same answer serialises the same way.
  return record.outcome === outcome && JSON.stringify(record.answer) === JSON.stringify(answer) ? 'ours' : 'theirs';
}

/**
 * The record as the store has it, read with a retry at each of `delays`; `{ known: false }` when
 * every read failed. A read that answers is the truth: a claim cut off with its connection either
 * ran whole or never will (the store's writes are single atomic steps).
 */
export async function readBack(
  store: Pick<QuestionStore, 'get'>,
  rpcId: string,
  delays: Iterable<number>,
  signal?: AbortSignal,
): Promise<{ known: true; record: QuestionRecord | undefined } | { known: false }> {
  for (const delay of delays) {
    if (delay > 0) {
      try {
        await sleep(delay, undefined, signal === undefined ? undefined : { signal });
      } catch {
        return { known: false };
      }
    }
    try {
      return { known: true, record: await store.get(rpcId) };
    } catch {
      // The store is still unreachable: try again after the next delay.
    }
  }
  return { known: false };
}
