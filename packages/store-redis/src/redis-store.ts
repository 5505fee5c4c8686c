import {
  QuestionStoreError,
  humanOutcomes,
  parseNewQuestionEvent,
  parseNewQuestionEvents,
  parseListSettledOptions,
  parseNewQuestionRecord,
  parseReadEventsOptions,
  parseRecordWithEvent,
  parseSettlement,
  parseVoteRequest,
  redisServerName,
  type NewQuestionEvent,
  type NewQuestionRecord,
  type QuestionEvent,
  type QuestionOutcome,
  type QuestionRecord,
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
import type { ChainableCommander, Redis } from 'ioredis';
import { createOwnedClient, describeTarget, isUnavailableError, unavailable, wasNotSent, whenReady } from './connection.js';
import { corrupt, eventOf, fieldsOf, recordOf } from './decode.js';
import { redisStoreKeys, type RedisStoreKeys } from './keys.js';
import { appendEventScript, appendEventsScript, claimScript, corruptReplyTag, markResumedScript, publishRefusedReplyTag, runScript, saveScript, voteScript } from './scripts.js';

export interface RedisQuestionStoreOptions {
  /**
   * An ioredis client your app made and keeps owning: the store uses it as it is and `close()`
   * leaves it open. Build it with `recommendedRedisOptions` so calls fail fast during an outage.
   * Give either `client` or `url`, not both.
   */
  client?: Redis;
  /** A Redis URL (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS): the store makes its own client and closes it in `close()`. Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Put before every key, so several apps (or tests) can share one Redis. Default `askseam:`. */
  keyPrefix?: string;
  /**
   * Let finished records (resumed, or settled `aborted` / `timed_out`) expire this many ms after
   * they finish. Pending records and settled ones awaiting their resume never expire. Default: no
   * expiry, records are kept until you delete them.
   */
  retainFinishedMs?: number;
}

const defaultUrl = 'redis://127.0.0.1:6379';

/**
 * A `QuestionStore` in Redis (ioredis), shared by every host node that points at the same Redis
 * and prefix. Every write is one Lua script, so Redis runs it whole and alone: `save` refuses a
 * known rpcId and writes the record with its pending indexes at once, `claim` settles exactly once
 * across all processes, `markResumed` marks once. The event log is one stream per session with ids
 * from one store-wide counter. While Redis cannot be reached every call rejects at once with
 * `STORE_UNAVAILABLE`; the client reconnects by itself and the same store works again.
 */
export class RedisQuestionStore implements QuestionStore {
  /** The prefix in front of every key this store writes. */
  readonly keyPrefix: string;
  /**
   * The Redis this store publishes bus messages on when a host hands it one with a write
   * (`redis://host:port/db`, as `RedisQuestionBus.publishesOn`); undefined for a client whose
   * commands ioredis rewrites (its own `keyPrefix`) or that does not name one server (Sentinel).
   */
  readonly announcesOn: string | undefined;
  readonly #client: Redis;
  readonly #owned: boolean;
  readonly #keys: RedisStoreKeys;
  /** The session pending key prefix as the Lua claim script must build it (with the client's own keyPrefix, which ioredis adds to declared keys only). */
  readonly #scriptSessionPendingPrefix: string;
  /** The session events key prefix as the Lua vote script must build it (likewise). */
  readonly #scriptEventsPrefix: string;
  readonly #retainMs: string;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: RedisQuestionStoreOptions = {}) {
    if (options.client !== undefined && options.url !== undefined) {
      throw new QuestionStoreError('INVALID_INPUT', 'RedisQuestionStore takes either a client or a url, not both; drop one of them.');
    }
    const prefix = options.keyPrefix ?? 'askseam:';
    if (typeof prefix !== 'string') throw new QuestionStoreError('INVALID_INPUT', `RedisQuestionStore: keyPrefix must be a string, not ${typeof prefix}.`);
    const retain = options.retainFinishedMs;
    if (retain !== undefined && (!Number.isSafeInteger(retain) || retain <= 0)) {
      throw new QuestionStoreError('INVALID_INPUT', `RedisQuestionStore: retainFinishedMs must be a whole number of milliseconds above 0, not ${String(retain)}; leave it out to keep finished records.`);
    }
    this.keyPrefix = prefix;
    this.#keys = redisStoreKeys(prefix);
    this.#retainMs = String(retain ?? 0);
    this.#owned = options.client === undefined;
    this.#client = options.client ?? createOwnedClient(options.url ?? defaultUrl);
    this.#scriptSessionPendingPrefix = (this.#client.options.keyPrefix ?? '') + this.#keys.sessionPendingPrefix;
    this.#scriptEventsPrefix = (this.#client.options.keyPrefix ?? '') + this.#keys.events('');
    this.announcesOn = redisServerName(this.#client.options);
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
    const [channel = '', before = '', after = ''] = announcementArgs(options);
    const keys = this.#keys;
    const eventKeys = event === undefined ? [] : [keys.eventCounter, keys.events(event.sessionId)];
    const eventArgs = event === undefined ? [] : [JSON.stringify(event), new Date().toISOString()];
    const saved = await this.#run(`save question "${parsed.rpcId}"`, { writes: true, rpcId: parsed.rpcId }, (client) =>
      runScript(
        client,
        saveScript,
        [keys.record(parsed.rpcId), keys.saveCounter, keys.pending, keys.sessionPending(parsed.sessionId), ...eventKeys],
        [JSON.stringify(parsed), parsed.rpcId, parsed.sessionId, channel, before, after, ...eventArgs],
      ),
    );
    if (saved !== 1) {
      throw new QuestionStoreError('DUPLICATE_RPC_ID', `A question with rpcId "${parsed.rpcId}" is already stored; give every question a fresh rpcId.`);
    }
  }

  async claim(rpcId: string, outcome: QuestionOutcome, answer?: AskUserQuestionAnswer, options?: StoreWriteOptions): Promise<QuestionRecord | undefined> {
    const settlement = parseSettlement(outcome, answer, options?.answeredBy);
    const announce = announcementArgs(options);
    const keys = this.#keys;
    const human = humanOutcomes.includes(settlement.outcome) ? '1' : '0';
    const settled = await this.#run(`claim question "${rpcId}"`, { writes: true, rpcId }, (client) =>
      runScript(
        client,
        claimScript,
        [keys.record(rpcId), keys.pending, keys.awaiting, keys.settled],
        [rpcId, settlement.outcome, settlement.answer === undefined ? '' : JSON.stringify(settlement.answer), new Date().toISOString(), this.#scriptSessionPendingPrefix, human, this.#retainMs, settlement.answeredBy === undefined ? '' : JSON.stringify(settlement.answeredBy), ...announce],
      ),
    );
    return settled === null ? undefined : recordOf(rpcId, fieldsOf(settled), this.#target());
  }

  async vote(rpcId: string, request: VoteRequest, options?: StoreWriteOptions): Promise<VoteResult> {
    const { voter, approvals, answer } = parseVoteRequest(request);
    const announce = announcementArgs(options);
    const keys = this.#keys;
    const at = new Date().toISOString();
    const vote = JSON.stringify({ ...voter, at });
    // The event's data but its count, which only the script knows (voteCastEvent's fields).
    const { principalId, via, user, destination } = voter;
    const eventData = JSON.stringify({ principalId, channel: via, ...(user === undefined ? {} : { user }), ...(destination === undefined ? {} : { destination }), needed: approvals });
    // One script: the checks, the vote and (with the last vote needed) the settlement run alone in
    // Redis, so votes from every node are each kept and exactly one settles.
    const reply = (await this.#run(`vote on question "${rpcId}"`, { writes: true, rpcId }, (client) =>
      runScript(
        client,
        voteScript,
        [keys.record(rpcId), keys.pending, keys.awaiting, keys.eventCounter],
        [rpcId, voter.principalId, vote, approvals, JSON.stringify(answer), at, this.#scriptSessionPendingPrefix, this.#scriptEventsPrefix, eventData, JSON.stringify(voter), ...announce],
      ),
    )) as [string, unknown?];
    const kind = reply[0];
    if (kind === 'counted' || kind === 'repeated' || kind === 'settled') return { kind, record: recordOf(rpcId, fieldsOf(reply[1]), this.#target()) };
    return { kind: 'not-pending' };
  }

  async get(rpcId: string): Promise<QuestionRecord | undefined> {
    const hash = await this.#run(`read question "${rpcId}"`, { writes: false, rpcId }, (client) => client.hgetall(this.#keys.record(rpcId)));
    return Object.keys(hash).length === 0 ? undefined : recordOf(rpcId, hash, this.#target());
  }

  async listPending(sessions: SessionSelection, options?: ListRecordsOptions): Promise<QuestionRecord[]> {
    const indexes = sessions === 'all' ? [this.#keys.pending] : [...new Set(sessions)].map((sessionId) => this.#keys.sessionPending(sessionId));
    return this.#run('list pending questions', { writes: false }, async (client) => {
      if (indexes.length === 0) return [];
      const pipeline = client.pipeline();
      for (const index of indexes) pipeline.zrange(index, 0, -1, 'WITHSCORES');
      const ranges = (await exec(pipeline)) as string[][];
      // Every index is scored by the one save counter, so merging by score is the save order across sessions.
      const entries: { rpcId: string; seq: number }[] = [];
      for (const flat of ranges) for (let i = 0; i + 1 < flat.length; i += 2) entries.push({ rpcId: flat[i]!, seq: Number(flat[i + 1]) });
      entries.sort((a, b) => a.seq - b.seq);
      // A record claimed between the two reads is no longer pending: leave it out.
      return this.#readRecords(client, entries.map((entry) => entry.rpcId), (record) => record.outcome === undefined, options?.onUnreadable);
    });
  }

  async listAwaitingResume(options?: ListRecordsOptions): Promise<QuestionRecord[]> {
    return this.#run('list questions awaiting their resume', { writes: false }, async (client) => {
      const rpcIds = await client.zrange(this.#keys.awaiting, 0, -1);
      return this.#readRecords(
        client,
        rpcIds,
        (record) => record.outcome !== undefined && humanOutcomes.includes(record.outcome) && record.resumedAt === undefined,
        options?.onUnreadable,
      );
    });
  }

  /**
   * Newest asked first, from the `settled` index (scored by save number); the cursor is the save
   * number the page before ended on. Records settled before this index existed, and records the
   * retention already forgot, are not listed (an index member whose record is gone is skipped).
   */
  async listSettled(options?: ListSettledOptions): Promise<SettledRecordsPage> {
    const { sessionId, askedBy, outcome, cursor, limit } = parseListSettledOptions(options);
    if (cursor !== undefined && !/^[1-9]\d{0,15}$/.test(cursor)) {
      throw new QuestionStoreError('INVALID_INPUT', `listSettled: "cursor" ${JSON.stringify(cursor.slice(0, 40))} was not made by this store; pass the \`next\` of a page it returned.`);
    }
    const matches = (record: QuestionRecord) =>
      record.outcome !== undefined && (sessionId === undefined || record.sessionId === sessionId) && (askedBy === undefined || record.askedBy === askedBy) && (outcome === undefined || record.outcome === outcome);
    // Filters are checked on the records, so read ahead in batches until the page is full or the index ends.
    const batch = Math.max(100, limit * 2);
    return this.#run('list settled questions', { writes: false }, async (client) => {
      const records: QuestionRecord[] = [];
      let max = cursor === undefined ? '+inf' : `(${cursor}`;
      for (;;) {
        const flat = await client.zrevrangebyscore(this.#keys.settled, max, '-inf', 'WITHSCORES', 'LIMIT', 0, batch);
        const seqs = new Map<string, string>();
        for (let i = 0; i + 1 < flat.length; i += 2) seqs.set(flat[i]!, flat[i + 1]!);
        for (const record of await this.#readRecords(client, [...seqs.keys()], matches, options?.onUnreadable)) {
          records.push(record);
          if (records.length === limit) return { records, next: seqs.get(record.rpcId)! };
        }
        if (seqs.size < batch) return { records };
        max = `(${flat.at(-1)!}`;
      }
    });
  }

  async markResumed(rpcId: string): Promise<boolean> {
    const keys = this.#keys;
    const marked = await this.#run(`mark question "${rpcId}" resumed`, { writes: true, rpcId }, (client) =>
      runScript(client, markResumedScript, [keys.record(rpcId), keys.awaiting], [rpcId, new Date().toISOString(), this.#retainMs]),
    );
    return marked === 1;
  }

  async appendEvent(event: NewQuestionEvent): Promise<QuestionEvent> {
    const parsed = parseNewQuestionEvent(event);
    const at = new Date().toISOString();
    const keys = this.#keys;
    const id = await this.#run(`append a "${parsed.type}" event to session "${parsed.sessionId}"`, { writes: true }, (client) =>
      runScript(client, appendEventScript, [keys.eventCounter, keys.events(parsed.sessionId)], [JSON.stringify(parsed), at]),
    );
    return { ...parsed, id: Number(id), at } as QuestionEvent;
  }

  async appendEvents(events: readonly NewQuestionEvent[]): Promise<void> {
    // Every event is checked before anything is sent: a bad one refuses the batch, nothing written.
    const checked = parseNewQuestionEvents(events);
    if (checked.length === 0) {
      this.#assertOpen('append an empty batch of events');
      return;
    }
    const at = new Date().toISOString();
    const keys = this.#keys;
    const sessions = new Set(checked.map((event) => event.sessionId));
    // One script call: one round trip, run whole and alone, so the ids are consecutive in array order.
    await this.#run(`append ${checked.length} events to ${sessions.size === 1 ? `session "${checked[0]!.sessionId}"` : `${sessions.size} sessions`}`, { writes: true }, (client) =>
      runScript(
        client,
        appendEventsScript,
        [keys.eventCounter, ...checked.map((event) => keys.events(event.sessionId))],
        [at, ...checked.map((event) => JSON.stringify(event))],
      ),
    );
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
  async #run<T>(action: string, { writes, rpcId }: { writes: boolean; rpcId?: string }, step: (client: Redis) => Promise<T>): Promise<T> {
    this.#assertOpen(action);
    const client = this.#client;
    await whenReady(client, (reason) => unavailable(this.#target(), `could not ${action}: ${reason}`));
    try {
      return await step(client);
    } catch (error) {
      if (QuestionStoreError.isInstance(error)) throw error;
      if (error instanceof Error && error.name === 'ReplyError' && (error.message.startsWith(corruptReplyTag) || error.message.startsWith('WRONGTYPE'))) {
        throw corrupt(rpcId === undefined ? `data read to ${action}` : `question "${rpcId}"`, this.#target(), error);
      }
      if (error instanceof Error && error.name === 'ReplyError' && error.message.startsWith(publishRefusedReplyTag)) {
        const reason = error.message.slice(publishRefusedReplyTag.length).trim();
        throw new QuestionStoreError(
          'NOT_PERMITTED',
          `Could not ${action} on Redis at ${this.#target()}: Redis refused to publish its bus announcement (${reason}), so nothing was written. Give the store's ACL user the right to publish on the bus channel, or give the store and the bus different clients so the host publishes through the bus.`,
          { cause: error },
        );
      }
      // OOM refuses a script at its first write, so nothing of it was written (and it announces only after its last).
      if (error instanceof Error && error.name === 'ReplyError' && error.message.startsWith('OOM ')) {
        throw new QuestionStoreError(
          'STORE_FULL',
          `Could not ${action} on Redis at ${this.#target()}: Redis is out of memory (${error.message.split('\n')[0]}), so nothing was written and nothing announced. Raise maxmemory, free memory or choose an eviction policy that spares the store's keys, then retry.`,
          { cause: error },
        );
      }
      if (isUnavailableError(error)) {
        // A refusal reply (LOADING, READONLY…) means the command did not run; only a dropped connection leaves it unknown.
        const sent = writes && !wasNotSent(error) && (error as Error).name !== 'ReplyError';
        throw unavailable(this.#target(), `could not ${action}: ${(error as Error).message}`, { cause: error, sent });
      }
      throw error;
    }
  }

  #assertOpen(action: string): void {
    if (this.#closed) throw new QuestionStoreError('STORE_CLOSED', `The Redis question store is closed (could not ${action}); create a new RedisQuestionStore.`);
  }

  /**
   * The records of these rpcIds in this order, checked; ids whose record has gone (expired) or fails
   * `keep` are left out. A record that cannot be read rejects the call `CORRUPT_STORE`, or, with
   * `onUnreadable`, is reported there and left out.
   */
  async #readRecords(client: Redis, rpcIds: string[], keep: (record: QuestionRecord) => boolean, onUnreadable?: ListRecordsOptions['onUnreadable']): Promise<QuestionRecord[]> {
    if (rpcIds.length === 0) return [];
    const pipeline = client.pipeline();
    for (const rpcId of rpcIds) pipeline.hgetall(this.#keys.record(rpcId));
    const results = await pipeline.exec();
    if (results === null) throw new Error('Connection is closed.');
    const records: QuestionRecord[] = [];
    results.forEach(([replyError, reply], i) => {
      const rpcId = rpcIds[i]!;
      const hash = replyError ? undefined : (reply as Record<string, string>);
      if (hash !== undefined && Object.keys(hash).length === 0) return;
      let record: QuestionRecord;
      try {
        // A key of another type (WRONGTYPE) is damage like a bad field; any other error is the connection's.
        if (replyError) throw replyError.name === 'ReplyError' && replyError.message.startsWith('WRONGTYPE') ? corrupt(`question "${rpcId}"`, this.#target(), replyError) : replyError;
        record = recordOf(rpcId, hash!, this.#target());
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

  #target(): string {
    return describeTarget(this.#client);
  }
}

/** A write's announcement as script arguments (channel, before, after), or none; checked before anything is sent. */
function announcementArgs(options: StoreWriteOptions | undefined): string[] {
  const announce = options?.announce;
  if (announce === undefined) return [];
  const { channel, before, after } = announce;
  if (typeof channel !== 'string' || channel === '' || typeof before !== 'string' || typeof after !== 'string') {
    throw new QuestionStoreError('INVALID_INPUT', 'options.announce must be { channel, before, after } with a non-empty channel and string texts (from a bus\'s announcement()); nothing was written.');
  }
  return [channel, before, after];
}

/** The replies of a pipeline, or its first error. */
async function exec(pipeline: ChainableCommander): Promise<unknown[]> {
  const results = await pipeline.exec();
  if (results === null) throw new Error('Connection is closed.');
  return results.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}

async function quit(client: Redis): Promise<void> {
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
