import { QuestionStoreError, type QuestionRecord, type QuestionStore } from '@askseam/store';
import { readAwaitingResume, type AwaitingResumeReader } from './awaiting-resume.js';
import type { ClusterLink } from './cluster.js';
import type { Lifecycle } from './lifecycle.js';
import type { HostLogger } from './logger.js';
import type { PendingQuestion } from './pending.js';

/** What a reconcile reads and reports through. */
export interface ReconcileDeps {
  store: QuestionStore;
  lifecycle: Lifecycle;
  logger: HostLogger;
  /** This node's id on the bus: its own askers' questions are checked even in a session still loading. */
  nodeId: string;
  /** How it reads the records awaiting their resume (a node holding its share shares the scan). Default: all of them. */
  readAwaitingResume?: AwaitingResumeReader;
}

/**
 * One reconcile of a node with the store (`BusCluster.reconcile` runs it every `reconcileMs` and
 * when the bus is back): questions asked elsewhere come in, questions settled elsewhere go, and
 * settled records whose asker's node is gone go to the resume handler. Its cost follows what
 * changed, not what is held: with a store that has `listPendingIds` it reads the pending rpcIds of
 * the node's share, never their records, then `get`s only the ids the node does not hold (asked
 * elsewhere, news lost) and the held ones the list no longer has (settled elsewhere, news lost); a
 * store without it is read whole with `listPending`. Big loops give the event loop a turn every
 * `RECONCILE_CHUNK` items, so that heartbeats and sockets are served while a node holding tens of
 * thousands of questions reconciles.
 */
export async function reconcilePass(deps: ReconcileDeps, news: ClusterLink): Promise<void> {
  const { store, lifecycle, logger } = deps;
  const pending = news.pending;
  const started = performance.now();
  const options = { onUnreadable: news.onUnreadable };
  // A node that holds its share reads its own sessions only (its askers' records one by one, below).
  const selection = news.share === undefined ? 'all' : news.share.selection();
  let listed: string[];
  let records: QuestionRecord[] | undefined;
  let awaiting: QuestionRecord[];
  try {
    if (selection === undefined) listed = [];
    else if (typeof store.listPendingIds === 'function') listed = await store.listPendingIds(selection);
    else {
      records = await store.listPending(selection, options);
      listed = records.map((record) => record.rpcId);
    }
    awaiting = await (deps.readAwaitingResume === undefined ? readAwaitingResume(store, options) : deps.readAwaitingResume(options));
  } catch (error) {
    logger.error('could not read the store to reconcile; trying again later', { error: String(error) });
    return;
  }
  if (lifecycle.ended) return;
  const stats = { held: pending.size, listed: listed.length, read: 0 };
  const listedIds = new Set<string>();
  for (const [at, rpcId] of listed.entries()) {
    if (at % RECONCILE_CHUNK === RECONCILE_CHUNK - 1) await nextTurn();
    listedIds.add(rpcId);
  }
  // Held but no longer listed: settled elsewhere and its news lost (or of no session the node
  // lists: its askers' own questions). Our own question still being saved is not in the store yet.
  // A session served but not listed had its first read on its way (share.selection): that read
  // brought its questions, so they are not read again here.
  const selected = selection === 'all' ? undefined : new Set(selection ?? []);
  const loadedApart = (sessionId: string) => selected !== undefined && !selected.has(sessionId) && news.share!.serves(sessionId);
  const unlisted: PendingQuestion[] = [];
  let walked = 0;
  for (const entry of pending.values()) {
    if (++walked % RECONCILE_CHUNK === 0) await nextTurn();
    // An asker waiting here is not kept waiting for the next reconcile by a session's first read.
    if (entry.saved && !listedIds.has(entry.rpcId) && (entry.record.askedOn === deps.nodeId || !loadedApart(entry.sessionId))) unlisted.push(entry);
  }
  for (let from = 0; from < unlisted.length; from += READS_AT_ONCE) {
    if (lifecycle.ended) return;
    const entries = unlisted.slice(from, from + READS_AT_ONCE).filter((entry) => pending.get(entry.rpcId) === entry);
    stats.read += entries.length;
    const found = await Promise.all(entries.map((entry) => readOne(deps, entry.rpcId, news, entry.sessionId)));
    if (lifecycle.ended) return;
    entries.forEach((entry, at) => {
      const record = found[at];
      if (record === unreadable || pending.get(entry.rpcId) !== entry) return;
      // Unknown to the store (its record expired, or a replayed message brought it): nobody can answer it.
      if (record === undefined) news.forgetUnknown(entry);
      // Saved after our read of the pending list: still pending after all.
      else if (record.outcome !== undefined) news.adoptSettled(record);
    });
  }
  if (lifecycle.ended) return;
  if (records !== undefined) {
    for (const [at, record] of records.entries()) {
      if (at % RECONCILE_CHUNK === RECONCILE_CHUNK - 1) await nextTurn();
      if (lifecycle.ended) return;
      news.adoptPending(record);
    }
  } else {
    // Listed but not held: asked elsewhere and its news lost. Adopted in the list's (save) order.
    const missing: string[] = [];
    for (const [at, rpcId] of listed.entries()) {
      if (at % RECONCILE_CHUNK === RECONCILE_CHUNK - 1) await nextTurn();
      if (pending.get(rpcId) === undefined && !pending.wasSettled(rpcId)) missing.push(rpcId);
    }
    for (let from = 0; from < missing.length; from += READS_AT_ONCE) {
      if (lifecycle.ended) return;
      const ids = missing.slice(from, from + READS_AT_ONCE);
      stats.read += ids.length;
      const found = await Promise.all(ids.map((rpcId) => readOne(deps, rpcId, news)));
      if (lifecycle.ended) return;
      for (const record of found) if (record !== undefined && record !== unreadable) news.adoptPending(record);
    }
  }
  await news.share?.afterReconcile();
  await news.resumeOrphans(awaiting);
  logger.debug('reconciled with the store', { ...stats, ms: Math.round(performance.now() - started) });
}

/** What `readOne` gives for a record it could not read (said where): the next reconcile tries again. */
const unreadable = Symbol('unreadable');

/** One record by rpcId for a reconcile; undefined when the store does not know it. */
async function readOne(deps: ReconcileDeps, rpcId: string, news: ClusterLink, sessionId?: string): Promise<QuestionRecord | undefined | typeof unreadable> {
  try {
    return await deps.store.get(rpcId);
  } catch (error) {
    // A damaged record is set aside, as a list would have reported it; anything else waits for the next reconcile.
    if (QuestionStoreError.isInstance(error) && error.code === 'CORRUPT_STORE') news.onUnreadable({ rpcId, ...(sessionId === undefined ? {} : { sessionId }), error });
    else deps.logger.error('could not read a question from the store', { rpcId, error: String(error) });
    return unreadable;
  }
}

/** How many items a reconcile handles between two turns of the event loop. */
export const RECONCILE_CHUNK = 1_000;

/** How many records a reconcile reads from the store at once (those it lacks, or holds but no longer finds listed). */
const READS_AT_ONCE = 50;

/** A turn of the event loop: timers (the heartbeat) and sockets run before the reconcile goes on. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
