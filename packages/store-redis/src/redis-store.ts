import {
  QuestionStoreError,
  humanOutcomes,
  parseNewQuestionEvent,
  parseNewQuestionEvents,
  parseListSettledOptions,
  parseNewQuestionRecord,
  parseReadEventsOptions,
  parseRecordWithEvent,
  parseAwaitingPartition,
  parseSettlement,
  parseVoteRequest,
  type NewQuestionEvent,
  type NewQuestionRecord,
  type QuestionEvent,
  type QuestionOutcome,
  type QuestionRecord,
  type ListAwaitingResumeOptions,
  type ListRecordsOptions,
  type ListSettledOptions,
  type SettledRecordsPage,
  type QuestionStore,
  type ReadEventsOptions,
  type SessionSelection,
  type StoreWriteOptions,
  type VoteRequest,
  type VoteResult,
} from '@askseam/store';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import { Cluster, type ClusterNode } from 'ioredis';
import { announcementArgs } from './announce.js';
import { clientKeyPrefix, createOwnedClient, describeTarget, publisherName, unavailable, whenReady, type StoreClient } from './connection.js';
import { corrupt, eventOf, fieldsOf, recordOf } from './decode.js';
import { redisStoreKeys, sessionBucket, type RedisStoreKeys } from './keys.js';
import { checkLayout } from './layout.js';
import { parseCursor, readIndexes, readRecords, settledPage, type IndexEntry } from './lists.js';
import { IdClock } from './id-clock.js';
import { appendEventsScript, claimScript, markResumedScript, readScript, runScript, saveScript, voteScript } from './scripts.js';
import { storeError } from './store-errors.js';

export interface RedisQuestionStoreOptions {
  /**
   * An ioredis client your app made and keeps owning, a `Redis` or a `Cluster`: the store uses it
   * as it is and `close()` leaves it open. Build it with `recommendedRedisOptions` (or
   * `recommendedClusterOptions`) so calls fail fast during an outage. Give one of `client`, `url`
   * or `nodes`.
   */
  client?: StoreClient;
  /** A Redis URL (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS): the store makes its own client and closes it in `close()`. Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Redis Cluster nodes to start from (`redis://host:port` URLs or `{ host, port }`): the store makes its own `Cluster` client and closes it in `close()`. */
  nodes?: readonly (string | ClusterNode)[];
  /** Put before every key, so several apps (or tests) can share one Redis. Without `{` or `}` (the store's hash tags follow it). Default `askseam:`. */
  keyPrefix?: string;
  /**
   * Let finished records (resumed, or settled `aborted` / `timed_out`) expire this many ms after
   * they finish. Pending records and settled ones awaiting their resume never expire. Default: no
   * expiry, records are kept until you delete them.
   */
  retainFinishedMs?: number;
}

const defaultUrl = 'redis://127.0.0.1:6379';
/** How many pending indexes `listPendingIds` reads per round trip (see readIndexes). */
const INDEXES_PER_READ = 64;
/** How many rpcId → bucket answers a store remembers (an rpcId's bucket never changes). */
const bucketCacheSize = 10_000;

/**
 * A `QuestionStore` in Redis (ioredis) or Redis Cluster, shared by every host node that points at
 * the same Redis and prefix. Sessions are spread over 1024 buckets; every write is one Lua script
 * on the keys of one bucket (one hash slot), so Redis runs it whole and alone: `save` refuses a
 * known rpcId and writes the record with its pending indexes at once, `claim` settles exactly once
 * across all processes, `markResumed` marks once. The event log is one stream per session. While
 * Redis cannot be reached every call rejects at once with `STORE_UNAVAILABLE`; the client
 * reconnects by itself and the same store works again.
 */
export class RedisQuestionStore implements QuestionStore {
  /** The prefix in front of every key this store writes. */
  readonly keyPrefix: string;
  /**
   * The Redis this store publishes bus messages on when a host hands it one with a write
   * (`redis://host:port/db`, `redis-cluster://…` for a Cluster, as `RedisQuestionBus.publishesOn`);
   * undefined for a client whose commands ioredis rewrites (its own `keyPrefix`) or that does not
   * name one server (Sentinel).
   */
  readonly announcesOn: string | undefined;
  /** `listAwaitingResume` reads one partition of the buckets when given `partition`. */
  readonly partitionsAwaitingResume = true;
  readonly #client: StoreClient;
  readonly #owned: boolean;
  readonly #keys: RedisStoreKeys;
  /** The keys as a Lua script must build them (with the client's own keyPrefix, which ioredis adds to declared keys only). */
  readonly #scriptKeys: RedisStoreKeys;
  readonly #retainMs: string;
  readonly #buckets = new Map<string, number>();
  readonly #ids = new IdClock();
  #layout: Promise<void> | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: RedisQuestionStoreOptions = {}) {
    const given = [options.client, options.url, options.nodes].filter((value) => value !== undefined).length;
    if (given > 1) {
      throw new QuestionStoreError('INVALID_INPUT', 'RedisQuestionStore takes one of client, url or nodes, not several; drop the others.');
    }
    const prefix = options.keyPrefix ?? 'askseam:';
    if (typeof prefix !== 'string') throw new QuestionStoreError('INVALID_INPUT', `RedisQuestionStore: keyPrefix must be a string, not ${typeof prefix}.`);
    if (/[{}]/.test(prefix)) throw new QuestionStoreError('INVALID_INPUT', `RedisQuestionStore: keyPrefix ${JSON.stringify(prefix)} holds { or }; the store puts its own hash tags after the prefix, so leave braces out.`);
    if (options.nodes !== undefined && (!Array.isArray(options.nodes) || options.nodes.length === 0)) {
      throw new QuestionStoreError('INVALID_INPUT', 'RedisQuestionStore: nodes must be a non-empty array of Redis Cluster nodes.');
    }
    const retain = options.retainFinishedMs;
    if (retain !== undefined && (!Number.isSafeInteger(retain) || retain <= 0)) {
      throw new QuestionStoreError('INVALID_INPUT', `RedisQuestionStore: retainFinishedMs must be a whole number of milliseconds above 0, not ${String(retain)}; leave it out to keep finished records.`);
    }
    this.keyPrefix = prefix;
    this.#keys = redisStoreKeys(prefix);
    this.#retainMs = String(retain ?? 0);
    this.#owned = options.client === undefined;
    this.#client = options.client ?? createOwnedClient(options.nodes ?? options.url ?? defaultUrl);
    this.#scriptKeys = redisStoreKeys(clientKeyPrefix(this.#client) + prefix);
    this.announcesOn = publisherName(this.#client);
  }

  async save(record: NewQuestionRecord, options?: StoreWriteOptions): Promise<void> {
    await this.#save(parseNewQuestionRecord(record), undefined, options);
  }

  /** The record and its event in one script: Redis runs it whole and alone, so both are stored or neither. */
  async saveWithEvent(record: NewQuestionRecord, event: NewQuestionEvent, options?: StoreWriteOptions): Promise<void> {
    const checked = parseRecordWithEvent(record, event);
    await this.#save(checked.record, checked.event, options);
  }

  async #save(parsed: NewQuestionRecord, event: NewQuestionEvent | undefined, options: StoreWriteOptions | undefined): Promise<void> {
    const bucket = sessionBucket(parsed.sessionId);
    const recordJson = JSON.stringify(parsed);
    const announce = announcementArgs(options, bucket, { record: recordJson });
    const keys = this.#keys;
    const action = `save question "${parsed.rpcId}"`;
    const duplicate = () => new QuestionStoreError('DUPLICATE_RPC_ID', `A question with rpcId "${parsed.rpcId}" is already stored; give every question a fresh rpcId.`);
    // On a Cluster the pointer goes first (its own slot): a second save of the rpcId in another
    // session stops here, and the bucket joins the ones the lists read (never left: a superset is
    // enough). One left behind by a save that never ran names a bucket without the record: get
    // finds nothing. On one Redis the save script does both itself, in the same round trip.
    const cluster = this.#client instanceof Cluster;
    const pointed = !cluster
      ? 'script'
      : await this.#run(action, { writes: true, rpcId: parsed.rpcId }, async (client) => {
          const [set] = await Promise.all([client.set(keys.pointer(parsed.rpcId), String(bucket), 'NX'), client.sadd(keys.buckets, String(bucket))]);
          if (set === 'OK') return 'created';
          return (await client.get(keys.pointer(parsed.rpcId))) === String(bucket) ? 'same' : 'other';
        });
    if (pointed === 'other') throw duplicate();
    const floor = this.#ids.floor(this.#ids.reserve(event === undefined ? 1 : 2), bucket);
    const eventKeys = event === undefined ? [] : [keys.events(parsed.sessionId)];
    const eventArgs = event === undefined ? ['', ''] : [JSON.stringify(event), new Date().toISOString()];
    const pointerArgs = cluster ? ['', '', ''] : [this.#scriptKeys.pointer(parsed.rpcId), this.#scriptKeys.buckets, String(bucket)];
    let reply: [number, number?];
    try {
      reply = (await this.#run(action, { writes: true, rpcId: parsed.rpcId }, (client) =>
        runScript(
          client,
          saveScript,
          [keys.record(bucket, parsed.rpcId), keys.clock(bucket), keys.pending(bucket), keys.sessionPending(parsed.sessionId), ...eventKeys],
          [recordJson, parsed.rpcId, parsed.sessionId, floor, parsed.askedOn ?? '', ...eventArgs, ...pointerArgs, ...announce],
        ),
      )) as [number, number?];
    } catch (error) {
      // Refused (damaged data, no right to publish, no memory): nothing was saved, so the pointer goes too.
      if (pointed === 'created' && QuestionStoreError.isInstance(error) && error.code !== 'STORE_UNAVAILABLE') {
        await this.#client.del(keys.pointer(parsed.rpcId)).catch(() => {});
      }
      throw error;
    }
    if (reply[0] === 0) throw duplicate();
    this.#ids.observe(Math.max(reply[0], reply[1] ?? 0));
    this.#remember(parsed.rpcId, bucket);
  }

  async claim(rpcId: string, outcome: QuestionOutcome, answer?: AskUserQuestionAnswer, options?: StoreWriteOptions): Promise<QuestionRecord | undefined> {
    const settlement = parseSettlement(outcome, answer, options?.answeredBy);
    announcementArgs(options, 0); // checked before anything is sent
    const action = `claim question "${rpcId}"`;
    // The caller's session names the bucket without a pointer read; a wrong guess finds no record there, and the pointer decides.
    const hinted = typeof options?.sessionId === 'string' && !this.#buckets.has(rpcId) ? sessionBucket(options.sessionId) : undefined;
    const bucket = hinted ?? (await this.#bucketOf(rpcId, action));
    if (bucket === undefined) return undefined;
    const settled = await this.#claimIn(bucket, rpcId, settlement, options, action);
    if (settled !== undefined || hinted === undefined) return settled;
    const filed = await this.#bucketOf(rpcId, action);
    return filed === undefined || filed === hinted ? undefined : this.#claimIn(filed, rpcId, settlement, options, action);
  }

  async #claimIn(bucket: number, rpcId: string, settlement: ReturnType<typeof parseSettlement>, options: StoreWriteOptions | undefined, action: string): Promise<QuestionRecord | undefined> {
    const answerJson = settlement.answer === undefined ? '' : JSON.stringify(settlement.answer);
    const answeredByJson = settlement.answeredBy === undefined ? '' : JSON.stringify(settlement.answeredBy);
    const settledAt = new Date().toISOString();
    const announce = announcementArgs(options, bucket, { rpcId, outcome: settlement.outcome, settledAt, answer: answerJson, answeredBy: answeredByJson });
    const keys = this.#keys;
    const human = humanOutcomes.includes(settlement.outcome) ? '1' : '0';
    const settled = await this.#run(action, { writes: true, rpcId }, (client) =>
      runScript(
        client,
        claimScript,
        [keys.record(bucket, rpcId), keys.pending(bucket), keys.awaiting(bucket), keys.settled(bucket)],
        [rpcId, settlement.outcome, answerJson, settledAt, this.#scriptKeys.sessionPendingPrefix(bucket), human, this.#retainMs, answeredByJson, ...announce],
      ),
    );
    if (settled === null) return undefined;
    if (human === '0') await this.#expirePointer(rpcId);
    return recordOf(rpcId, fieldsOf(settled), this.#target());
  }

  async vote(rpcId: string, request: VoteRequest, options?: StoreWriteOptions): Promise<VoteResult> {
    const { voter, approvals, answer } = parseVoteRequest(request);
    announcementArgs(options, 0); // checked before anything is sent
    const action = `vote on question "${rpcId}"`;
    const bucket = await this.#bucketOf(rpcId, action);
    if (bucket === undefined) return { kind: 'not-pending' };
    const announce = announcementArgs(options, bucket);
    const keys = this.#keys;
    const at = new Date().toISOString();
    const vote = JSON.stringify({ ...voter, at });
    // The event's data but its count, which only the script knows (voteCastEvent's fields).
    const { principalId, via, user, destination } = voter;
    const eventData = JSON.stringify({ principalId, channel: via, ...(user === undefined ? {} : { user }), ...(destination === undefined ? {} : { destination }), needed: approvals });
    const floor = this.#ids.floor(this.#ids.reserve(1), bucket);
    // One script: the checks, the vote and (with the last vote needed) the settlement run alone in
    // Redis, so votes from every node are each kept and exactly one settles.
    const reply = (await this.#run(action, { writes: true, rpcId }, (client) =>
      runScript(
        client,
        voteScript,
        [keys.record(bucket, rpcId), keys.pending(bucket), keys.awaiting(bucket), keys.clock(bucket)],
        [rpcId, voter.principalId, vote, approvals, JSON.stringify(answer), at, this.#scriptKeys.sessionPendingPrefix(bucket), this.#scriptKeys.eventsPrefix(bucket), eventData, JSON.stringify(voter), floor, ...announce],
      ),
    )) as [string, unknown?, number?];
    const kind = reply[0];
    this.#ids.observe(reply[2] ?? 0);
    if (kind === 'counted' || kind === 'repeated' || kind === 'settled') return { kind, record: recordOf(rpcId, fieldsOf(reply[1]), this.#target()) };
    return { kind: 'not-pending' };
  }

  async get(rpcId: string): Promise<QuestionRecord | undefined> {
    const action = `read question "${rpcId}"`;
    if (!this.#buckets.has(rpcId) && !(this.#client instanceof Cluster)) {
      // One round trip on one Redis: the script follows the pointer itself.
      const [before, after] = this.#scriptKeys.recordAround;
      const reply = (await this.#run(action, { writes: false, rpcId }, (client) => runScript(client, readScript, [this.#keys.pointer(rpcId)], [before, after, rpcId]))) as [string?, unknown?];
      if (reply[0] === undefined) return undefined;
      this.#remember(rpcId, this.#checkBucket(rpcId, reply[0]));
      const hash = fieldsOf(reply[1]);
      return Object.keys(hash).length === 0 ? undefined : recordOf(rpcId, hash, this.#target());
    }
    const bucket = await this.#bucketOf(rpcId, action);
    if (bucket === undefined) return undefined;
    const hash = await this.#run(action, { writes: false, rpcId }, (client) => client.hgetall(this.#keys.record(bucket, rpcId)));
    return Object.keys(hash).length === 0 ? undefined : recordOf(rpcId, hash, this.#target());
  }

  async listPending(sessions: SessionSelection, options?: ListRecordsOptions): Promise<QuestionRecord[]> {
    const keys = this.#keys;
    const chosen = sessions === 'all' ? undefined : [...new Set(sessions)].map((sessionId) => ({ bucket: sessionBucket(sessionId), key: keys.sessionPending(sessionId) }));
    return this.#run('list pending questions', { writes: false }, async (client) => {
      const indexes = chosen ?? (await this.#usedBuckets(client)).map((bucket) => ({ bucket, key: keys.pending(bucket) }));
      if (indexes.length === 0) return [];
      const entries = await readIndexes(client, indexes);
      // A record claimed between the two reads is no longer pending: leave it out.
      return this.#readRecords(client, entries, (record) => record.outcome === undefined, options?.onUnreadable);
    });
  }

  /**
   * The pending indexes alone (ZRANGE per session, or per bucket for `'all'`), no record read: a
   * host's reconcile compares them with what it holds and reads only the records it lacks.
   */
  async listPendingIds(sessions: SessionSelection): Promise<string[]> {
    const keys = this.#keys;
    const chosen = sessions === 'all' ? undefined : [...new Set(sessions)].map((sessionId) => ({ bucket: sessionBucket(sessionId), key: keys.sessionPending(sessionId) }));
    return this.#run('list the ids of pending questions', { writes: false }, async (client) => {
      const indexes = chosen ?? (await this.#usedBuckets(client)).map((bucket) => ({ bucket, key: keys.pending(bucket) }));
      if (indexes.length === 0) return [];
      // A reconcile's read, off every answer's path: in parts, so that it never holds the event loop long.
      return (await readIndexes(client, indexes, INDEXES_PER_READ)).map((entry) => entry.rpcId);
    });
  }

  /**
   * With `partition: { index, count }`, only the buckets `b` with `b % count === index`: each of
   * `count` nodes, holding one partition's lease, reads only its part (every record lies in one).
   */
  async listAwaitingResume(options?: ListAwaitingResumeOptions): Promise<QuestionRecord[]> {
    const partition = parseAwaitingPartition(options?.partition);
    return this.#run('list questions awaiting their resume', { writes: false }, async (client) => {
      const buckets = (await this.#usedBuckets(client)).filter((bucket) => partition === undefined || bucket % partition.count === partition.index);
      const entries = await readIndexes(client, buckets.map((bucket) => ({ bucket, key: this.#keys.awaiting(bucket) })));
      return this.#readRecords(
        client,
        entries,
        (record) => record.outcome !== undefined && humanOutcomes.includes(record.outcome) && record.resumedAt === undefined,
        options?.onUnreadable,
      );
    });
  }

  /**
   * Newest asked first, merged from every bucket's `settled` index (scored by save number); the
   * cursor names the save number and bucket the page before ended on. Records the retention already
   * forgot are not listed (an index member whose record is gone is skipped).
   */
  async listSettled(options?: ListSettledOptions): Promise<SettledRecordsPage> {
    const { sessionId, askedBy, outcome, cursor, limit } = parseListSettledOptions(options);
    const after = cursor === undefined ? undefined : parseCursor(cursor, this.#keys.bucketCount);
    if (cursor !== undefined && after === undefined) {
      throw new QuestionStoreError('INVALID_INPUT', `listSettled: "cursor" ${JSON.stringify(cursor.slice(0, 40))} was not made by this store; pass the \`next\` of a page it returned.`);
    }
    const matches = (record: QuestionRecord) =>
      record.outcome !== undefined && (sessionId === undefined || record.sessionId === sessionId) && (askedBy === undefined || record.askedBy === askedBy) && (outcome === undefined || record.outcome === outcome);
    // One session lives in one bucket; otherwise every bucket is merged.
    return this.#run('list settled questions', { writes: false }, async (client) => {
      const buckets = sessionId === undefined ? await this.#usedBuckets(client) : [sessionBucket(sessionId)];
      return settledPage(client, { settledKey: (bucket) => this.#keys.settled(bucket), buckets, after, limit, read: (entries) => this.#readRecords(client, entries, matches, options?.onUnreadable) });
    });
  }

  async markResumed(rpcId: string): Promise<boolean> {
    const action = `mark question "${rpcId}" resumed`;
    const bucket = await this.#bucketOf(rpcId, action);
    if (bucket === undefined) return false;
    const keys = this.#keys;
    const marked = await this.#run(action, { writes: true, rpcId }, (client) =>
      runScript(client, markResumedScript, [keys.record(bucket, rpcId), keys.awaiting(bucket)], [rpcId, new Date().toISOString(), this.#retainMs]),
    );
    if (marked === 1) await this.#expirePointer(rpcId);
    return marked === 1;
  }

  async appendEvent(event: NewQuestionEvent): Promise<QuestionEvent> {
    const parsed = parseNewQuestionEvent(event);
    const at = new Date().toISOString();
    const [id] = await this.#append([parsed], at, `append a "${parsed.type}" event to session "${parsed.sessionId}"`);
    return { ...parsed, id: id!, at } as QuestionEvent;
  }

  async appendEvents(events: readonly NewQuestionEvent[]): Promise<void> {
    // Every event is checked before anything is sent: a bad one refuses the batch, nothing written.
    const checked = parseNewQuestionEvents(events);
    if (checked.length === 0) {
      this.#assertOpen('append an empty batch of events');
      return;
    }
    const sessions = new Set(checked.map((event) => event.sessionId));
    await this.#append(checked, new Date().toISOString(), `append ${checked.length} events to ${sessions.size === 1 ? `session "${checked[0]!.sessionId}"` : `${sessions.size} sessions`}`);
  }

  /**
   * One script on one Redis: the batch is stored whole or not at all. On a Cluster one script per
   * bucket (a script cannot span slots); with more than one, every part is checked first, so a
   * batch that damaged data refuses writes nothing (a crash between the parts can still leave a
   * part). Ids grow in batch order within every session and, as long as no other writer's clock
   * runs ahead, across them. Returns the first id of each part.
   */
  async #append(events: NewQuestionEvent[], at: string, action: string): Promise<number[]> {
    const keys = this.#keys;
    const tick = this.#ids.reserve(events.length);
    const items = events.map((event, place) => {
      const bucket = sessionBucket(event.sessionId);
      return { bucket, keys: [keys.clock(bucket), keys.events(event.sessionId)], args: [this.#ids.floor(tick + place, bucket), JSON.stringify(event)] };
    });
    const parts = new Map<number | 'all', typeof items>();
    for (const item of items) {
      const part = this.#client instanceof Cluster ? item.bucket : 'all';
      parts.set(part, [...(parts.get(part) ?? []), item]);
    }
    const send = (client: StoreClient, part: typeof items, checkOnly: boolean) =>
      runScript(client, appendEventsScript, part.flatMap((item) => item.keys), [at, checkOnly ? '1' : '0', ...part.flatMap((item) => item.args)]) as Promise<[number, number]>;
    const replies = await this.#run(action, { writes: true }, async (client) => {
      if (parts.size > 1) await Promise.all([...parts.values()].map((part) => send(client, part, true)));
      return Promise.all([...parts.values()].map((part) => send(client, part, false)));
    });
    for (const [, last] of replies) this.#ids.observe(last);
    return replies.map(([first]) => first);
  }

  /** The buckets a question was ever saved in (the others hold nothing the lists show), in order. */
  async #usedBuckets(client: StoreClient): Promise<number[]> {
    const members = await client.smembers(this.#keys.buckets);
    return members
      .map(Number)
      .filter((bucket) => Number.isInteger(bucket) && bucket >= 0 && bucket < this.#keys.bucketCount)
      .sort((a, b) => a - b);
  }

  #remember(rpcId: string, bucket: number): void {
    if (this.#buckets.size >= bucketCacheSize) this.#buckets.delete(this.#buckets.keys().next().value!);
    this.#buckets.set(rpcId, bucket);
  }

  /** The bucket an rpcId was saved in (its pointer), or undefined for an unknown rpcId. */
  async #bucketOf(rpcId: string, action: string): Promise<number | undefined> {
    const known = this.#buckets.get(rpcId);
    if (known !== undefined) return known;
    const text = await this.#run(action, { writes: false, rpcId }, (client) => client.get(this.#keys.pointer(rpcId)));
    if (text === null) return undefined;
    const bucket = this.#checkBucket(rpcId, text);
    this.#remember(rpcId, bucket);
    return bucket;
  }

  #checkBucket(rpcId: string, text: string): number {
    const bucket = Number(text);
    if (!/^\d{1,4}$/.test(text) || bucket >= this.#keys.bucketCount) {
      throw corrupt(`pointer of question "${rpcId}"`, this.#target(), new Error(`it names bucket ${JSON.stringify(text.slice(0, 20))}`));
    }
    return bucket;
  }

  /** A finished record expires with the retention; its pointer (another slot, so not in the script) follows. */
  async #expirePointer(rpcId: string): Promise<void> {
    if (this.#retainMs === '0') return;
    this.#buckets.delete(rpcId);
    // Best effort: a pointer left behind names a bucket without the record, which reads as unknown.
    await this.#client.pexpire(this.#keys.pointer(rpcId), Number(this.#retainMs)).catch(() => {});
  }

  async readEvents(sessionId: string, options?: ReadEventsOptions): Promise<QuestionEvent[]> {
    const { after, limit } = parseReadEventsOptions(options);
    const key = this.#keys.events(sessionId);
    // Entry ids are `<event id>-0`, so "after id N" is the range from `N+1-0` on.
    const start = `${after + 1}-0`;
    const entries = await this.#run(`read the events of session "${sessionId}"`, { writes: false }, async (client) => {
      if (limit === 0) return [];
      return limit === undefined ? client.xrange(key, start, '+') : client.xrange(key, start, '+', 'COUNT', limit);
    });
    return entries.map((entry) => eventOf(sessionId, entry, this.#target()));
  }

  /** Stop using Redis. Closes the client the store made from `url`; a client you passed stays open. Idempotent; later calls reject with `STORE_CLOSED`. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    this.#closing = this.#owned ? quit(this.#client) : Promise.resolve();
    return this.#closing;
  }

  /** Run one step against Redis, translating what goes wrong into the store's error codes. */
  async #run<T>(action: string, { writes, rpcId }: { writes: boolean; rpcId?: string }, step: (client: StoreClient) => Promise<T>): Promise<T> {
    this.#assertOpen(action);
    const client = this.#client;
    await whenReady(client, (reason) => unavailable(this.#target(), `could not ${action}: ${reason}`));
    try {
      // Once per store: a prefix holding the old layout is refused before anything is read or written.
      this.#layout ??= checkLayout(client, this.#keys, this.#target()).catch((error: unknown) => {
        this.#layout = undefined;
        throw error;
      });
      await this.#layout;
      return await step(client);
    } catch (error) {
      throw storeError(error, { action, writes, rpcId, target: this.#target() });
    }
  }

  #assertOpen(action: string): void {
    if (this.#closed) throw new QuestionStoreError('STORE_CLOSED', `The Redis question store is closed (could not ${action}); create a new RedisQuestionStore.`);
  }

  #readRecords(client: StoreClient, entries: IndexEntry[], keep: (record: QuestionRecord) => boolean, onUnreadable?: ListRecordsOptions['onUnreadable']): Promise<QuestionRecord[]> {
    return readRecords(client, entries, { recordKey: (entry) => this.#keys.record(entry.bucket, entry.rpcId), target: this.#target(), keep, onUnreadable });
  }

  #target(): string {
    return describeTarget(this.#client);
  }
}

async function quit(client: StoreClient): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // Fall through: the connection went away while quitting.
    }
  }
  // Not connected (or quitting failed): stop the reconnect loop and drop the socket.
  client.disconnect();
}
