import { QuestionStoreError, type ListRecordsOptions, type QuestionRecord } from '@askseam/store';
import { Redis } from 'ioredis';
import type { StoreClient } from './connection.js';
import { corrupt, recordOf } from './decode.js';

type Reply<T> = [error: Error | null, reply: T | undefined];

/**
 * Send many commands at once and get each one's reply or error: one pipeline (one write) on one
 * Redis; on a Cluster, where a pipeline may not span masters, each command on its own (ioredis
 * writes them all before any reply comes back).
 */
export async function many<T>(client: StoreClient, count: number, command: (client: StoreClient, i: number) => Promise<T>): Promise<Reply<T>[]> {
  if (count === 0) return [];
  if (client instanceof Redis) {
    const pipeline = client.pipeline();
    for (let i = 0; i < count; i++) void command(pipeline as unknown as StoreClient, i);
    const results = await pipeline.exec();
    if (results === null) throw new Error('Connection is closed.');
    return results.map(([error, reply]) => [error, reply as T]);
  }
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      command(client, i).then(
        (reply): Reply<T> => [null, reply],
        (error: Error): Reply<T> => [error, undefined],
      ),
    ),
  );
}

/** Every reply of `many`, or its first error. */
async function all<T>(replies: Promise<Reply<T>[]>): Promise<T[]> {
  return (await replies).map(([error, reply]) => {
    if (error) throw error;
    return reply as T;
  });
}

/** An index entry: which record, in which bucket, at which save number. */
export interface IndexEntry {
  rpcId: string;
  bucket: number;
  seq: number;
}

/** Save order across buckets: by save number, then bucket (unique: a bucket never gives out one number twice). */
export function bySaveOrder(a: IndexEntry, b: IndexEntry): number {
  return a.seq - b.seq || a.bucket - b.bucket;
}

/**
 * Every entry of one sorted set per bucket (ZRANGE WITHSCORES), merged in save order. Sent at once,
 * or `perRead` sets at a time, one read after another: the replies of a thousand sets parsed in one
 * go hold the event loop for about 100 ms on a 2-core machine (66,000 entries), a smaller read a
 * tenth of that, with the loop free in between.
 */
export async function readIndexes(client: StoreClient, indexes: { bucket: number; key: string }[], perRead = indexes.length): Promise<IndexEntry[]> {
  const entries: IndexEntry[] = [];
  for (let from = 0; from < indexes.length; from += Math.max(1, perRead)) {
    const part = indexes.slice(from, from + Math.max(1, perRead));
    const ranges = await all(many(client, part.length, (c, i) => c.zrange(part[i]!.key, 0, -1, 'WITHSCORES')));
    ranges.forEach((flat, i) => {
      const bucket = part[i]!.bucket;
      for (let j = 0; j + 1 < flat.length; j += 2) entries.push({ rpcId: flat[j]!, bucket, seq: Number(flat[j + 1]) });
    });
  }
  return entries.sort(bySaveOrder);
}

/** A `listSettled` cursor: the save number and bucket of the last record of a page. */
export function cursorOf(entry: IndexEntry): string {
  return `${entry.seq}-${entry.bucket}`;
}

export function parseCursor(cursor: string, bucketCount: number): { seq: number; bucket: number } | undefined {
  const match = /^([1-9]\d{0,15})-(\d{1,4})$/.exec(cursor);
  if (!match) return undefined;
  const seq = Number(match[1]);
  const bucket = Number(match[2]);
  return Number.isSafeInteger(seq) && bucket < bucketCount ? { seq, bucket } : undefined;
}

/**
 * The next `batch` entries of the settled indexes below `after` (newest first: by save number,
 * then bucket, both descending), merged across `buckets`. Returns them with `complete`: false when
 * some bucket may hold more below the last one returned (call again from there).
 */
export async function settledBelow(
  client: StoreClient,
  settledKey: (bucket: number) => string,
  buckets: number[],
  after: { seq: number; bucket: number } | undefined,
  batch: number,
): Promise<{ entries: IndexEntry[]; complete: boolean }> {
  const replies = await all(
    many(client, buckets.length, (c, i) => {
      const bucket = buckets[i]!;
      // Below the cursor: a lower save number, or the same one in a lower bucket.
      const max = after === undefined ? '+inf' : bucket < after.bucket ? String(after.seq) : `(${after.seq}`;
      return c.zrevrangebyscore(settledKey(bucket), max, '-inf', 'WITHSCORES', 'LIMIT', 0, batch);
    }),
  );
  const entries: IndexEntry[] = [];
  // The highest last entry of a bucket that may hold more: nothing below it is known to be complete.
  let horizon: IndexEntry | undefined;
  replies.forEach((flat, i) => {
    const bucket = buckets[i]!;
    for (let j = 0; j + 1 < flat.length; j += 2) entries.push({ rpcId: flat[j]!, bucket, seq: Number(flat[j + 1]) });
    if (flat.length / 2 >= batch) {
      const last = { rpcId: flat.at(-2)!, bucket, seq: Number(flat.at(-1)) };
      if (horizon === undefined || bySaveOrder(last, horizon) > 0) horizon = last;
    }
  });
  entries.sort((a, b) => bySaveOrder(b, a));
  if (horizon === undefined) return { entries, complete: true };
  const end = horizon;
  return { entries: entries.filter((entry) => bySaveOrder(entry, end) >= 0), complete: false };
}

/**
 * The records of these entries in this order, checked; entries whose record has gone (expired) or
 * fails `keep` are left out. A record that cannot be read rejects the call `CORRUPT_STORE`, or, with
 * `onUnreadable`, is reported there and left out.
 */
export async function readRecords(
  client: StoreClient,
  entries: IndexEntry[],
  { recordKey, target, keep, onUnreadable }: { recordKey: (entry: IndexEntry) => string; target: string; keep: (record: QuestionRecord) => boolean; onUnreadable: ListRecordsOptions['onUnreadable'] },
): Promise<QuestionRecord[]> {
  if (entries.length === 0) return [];
  const results = await many(client, entries.length, (c, i) => c.hgetall(recordKey(entries[i]!)));
  const records: QuestionRecord[] = [];
  results.forEach(([replyError, reply], i) => {
    const rpcId = entries[i]!.rpcId;
    const hash = replyError ? undefined : reply;
    if (hash !== undefined && Object.keys(hash).length === 0) return;
    let record: QuestionRecord;
    try {
      // A key of another type (WRONGTYPE) is damage like a bad field; any other error is the connection's.
      if (replyError) throw replyError.name === 'ReplyError' && replyError.message.startsWith('WRONGTYPE') ? corrupt(`question "${rpcId}"`, target, replyError) : replyError;
      record = recordOf(rpcId, hash!, target);
    } catch (error) {
      if (onUnreadable === undefined || !QuestionStoreError.isInstance(error) || error.code !== 'CORRUPT_STORE') throw error;
      const session = hash?.['session'];
      onUnreadable({ rpcId, ...(session === undefined || session === '' ? {} : { sessionId: session }), error });
      return;
    }
    if (keep(record)) records.push(record);
  });
  return records;
}

/**
 * One `listSettled` page: newest first across `buckets`, from below `after`, the records `read`
 * keeps (filters are checked on the records, so it reads ahead in batches until the page is full
 * or the indexes end). `next` is the cursor of the page's last record.
 */
export async function settledPage(
  client: StoreClient,
  { settledKey, buckets, after, limit, read }: { settledKey: (bucket: number) => string; buckets: number[]; after: { seq: number; bucket: number } | undefined; limit: number; read: (entries: IndexEntry[]) => Promise<QuestionRecord[]> },
): Promise<{ records: QuestionRecord[]; next?: string }> {
  const batch = Math.max(100, limit * 2);
  const records: QuestionRecord[] = [];
  let from = after;
  for (;;) {
    const { entries, complete } = await settledBelow(client, settledKey, buckets, from, batch);
    const found = await read(entries);
    const byId = new Map(entries.map((entry) => [entry.rpcId, entry]));
    for (const record of found) {
      records.push(record);
      if (records.length === limit) return { records, next: cursorOf(byId.get(record.rpcId)!) };
    }
    if (complete || entries.length === 0) return { records };
    from = entries.at(-1)!;
  }
}
