import { createHash } from 'node:crypto';
import type { StoreClient } from './connection.js';
import { bucketCount } from './keys.js';

/** A Lua script Redis runs atomically: no other command, from any connection, runs in between. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

function lua(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** Thrown by a script that finds a record it cannot work with, before it writes anything. */
export const corruptReplyTag = 'ASKSEAM_CORRUPT';

/** Thrown by a script whose bus announcement the store's ACL user may not publish, before it writes anything. */
export const publishRefusedReplyTag = 'ASKSEAM_PUBLISH_REFUSED';

/**
 * Save numbers and event ids of bucket b are b modulo this (the bucket count), so no two buckets
 * give out the same one: each is the writer's floor (a clock tick × idStep + b) or the bucket's
 * last one + idStep, whichever is higher.
 */
export const idStep = bucketCount;

// Every script touches keys of one bucket only (one hash tag, so one Redis Cluster slot). Keys a
// script derives from the record's own session (its session pending index, its stream) carry the
// same tag. Numbers go to Redis through string.format('%d'): Lua would print a save number of 16
// digits as 1.78e+15.
const helpers = `
local function clockOf(key)
  local last = redis.call('GET', key)
  if last and not string.match(last, '^%d+$') then return nil end
  return tonumber(last or '0')
end
local function streamProblem(key, id)
  local kind = redis.call('TYPE', key).ok
  if kind == 'stream' then
    local top = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)[1]
    local topId = top and tonumber(string.match(top[1], '^(%d+)%-'))
    if top and (not topId or topId >= id) then return 'a session stream already holds an id at or above the one its next event is about to get' end
  elseif kind ~= 'none' then
    return 'a session events key is a ' .. kind .. ', not a stream'
  end
  return nil
end
local function corrupt(problem) return redis.error_reply('${corruptReplyTag} ' .. problem) end
-- The announcement block at ARGV[from]: text before the record, text after it, the channel every
-- node without follows hears (PUBLISH), the session channel prefix ('' for none: SPUBLISH on
-- prefix .. session, same slot as the keys), the asking node's channel prefix ('' for none).
local function announceTargets(from, session, node)
  if not ARGV[from] then return nil end
  local targets = { { 'PUBLISH', ARGV[from + 2] } }
  if ARGV[from + 3] ~= '' then targets[#targets + 1] = { 'SPUBLISH', ARGV[from + 3] .. session } end
  if ARGV[from + 4] ~= '' and node then targets[#targets + 1] = { 'PUBLISH', ARGV[from + 4] .. node } end
  return targets
end
-- A script that announces must never write what it may not announce (an ACL user without the
-- channel), nor announce what it did not write (Redis keeps what a script wrote before an error,
-- and refuses the first write of a script with OOM at maxmemory under noeviction, after anything
-- published before it). So it asks Redis whether its user may publish before its first write
-- (redis.acl_check_cmd, Redis 7: the same ACL check a PUBLISH would meet, channel included), and
-- publishes after its last. No subscriber can act on the message before the script ends.
local function refusal(targets, text)
  if not redis.acl_check_cmd then return nil end
  for _, target in ipairs(targets) do
    if not redis.acl_check_cmd(target[1], target[2], text) then
      return redis.error_reply('${publishRefusedReplyTag} this user has no right to publish on ' .. target[2])
    end
  end
  return nil
end
local function publishAll(targets, text)
  for _, target in ipairs(targets) do redis.call(target[1], target[2], text) end
end`;

/**
 * save: refuse a known rpcId, else take the next save number and write the record and both
 * pending indexes, and with an event append it too. KEYS: record, bucket clock, bucket pending,
 * session pending, then optionally the session stream. ARGV: record JSON, rpcId, sessionId, the
 * writer's floor for the save number, askedOn ('' for none), the event JSON ('' for none), its
 * time, then the rpcId's pointer key, the used-buckets key and the bucket ('' '' '' when the caller
 * wrote the pointer itself: on a Cluster they lie in other slots; on one Redis the script does it,
 * saving a round trip), then optionally the announcement block. The save number is above the
 * bucket's clock and the floor; the event id is the next one. Every check runs before the first
 * write, the announcement after the last. Returns { save number, event id or 0 }, or { 0 } for a
 * duplicate (nothing published, nothing appended).
 */
export const saveScript = lua(`${helpers}
if redis.call('EXISTS', KEYS[1]) == 1 then return { 0 } end
local pointer = ARGV[8]
if pointer ~= '' then
  local named = redis.call('GET', pointer)
  if named and named ~= ARGV[10] then return { 0 } end
end
local last = clockOf(KEYS[2])
if not last then return corrupt('the bucket clock does not hold a whole number') end
local seq = math.max(last + ${idStep}, tonumber(ARGV[4]))
local eventId
if KEYS[5] then
  eventId = seq + ${idStep}
  local problem = streamProblem(KEYS[5], eventId)
  if problem then return corrupt(problem) end
end
local targets = announceTargets(11, ARGV[3], nil)
local text
if targets then
  text = ARGV[11] .. ARGV[1] .. ARGV[12]
  local refused = refusal(targets, text)
  if refused then return refused end
end
if pointer ~= '' then
  redis.call('SET', pointer, ARGV[10])
  redis.call('SADD', ARGV[9], ARGV[10])
end
local seqText = string.format('%d', seq)
redis.call('SET', KEYS[2], string.format('%d', eventId or seq))
redis.call('HSET', KEYS[1], 'record', ARGV[1], 'session', ARGV[3], 'seq', seqText)
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'node', ARGV[5]) end
redis.call('ZADD', KEYS[3], seqText, ARGV[2])
redis.call('ZADD', KEYS[4], seqText, ARGV[2])
if eventId then
  redis.call('XADD', KEYS[5], string.format('%d-0', eventId), 'event', ARGV[6], 'at', ARGV[7])
end
if targets then publishAll(targets, text) end
return { seq, eventId or 0 }
`);

/**
 * read: on one Redis only (it builds a key in a slot it does not declare), an rpcId's record in
 * one round trip: its pointer, then the record in the bucket it names. KEYS: the pointer. ARGV: the
 * record key's text before the bucket number, and after it (up to the rpcId), the rpcId. Returns
 * { bucket, HGETALL } or { } for an unknown rpcId.
 */
export const readScript = lua(`
local bucket = redis.call('GET', KEYS[1])
if not bucket then return {} end
return { bucket, redis.call('HGETALL', ARGV[1] .. bucket .. ARGV[2] .. ARGV[3]) }
`);

/**
 * claim: settle a pending record exactly once. KEYS: record, bucket pending, awaiting, settled.
 * ARGV: rpcId, outcome, answer JSON ('' for none), settledAt, the bucket's session pending key
 * prefix, '1' when a person chose the outcome (it then awaits its resume), retention in ms ('0' for
 * none), answeredBy JSON ('' for none), then optionally the announcement block, published with the
 * settled record as JSON: the stored record's JSON (an object, without settlement fields) with
 * outcome, settledAt, answer and answeredBy added. Returns the settled hash (HGETALL), or nil when
 * the rpcId is unknown or already settled (nothing published). Every check runs before the first write.
 */
export const claimScript = lua(`${helpers}
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'outcome') == 1 then return false end
local session = redis.call('HGET', KEYS[1], 'session')
local seq = redis.call('HGET', KEYS[1], 'seq')
local stored = redis.call('HGET', KEYS[1], 'record')
if not session or not seq or not tonumber(seq) or not stored then
  return corrupt('the stored hash lacks its record, session or save number')
end
local targets = announceTargets(9, session, redis.call('HGET', KEYS[1], 'node') or nil)
local announcement
if targets then
  local answer = ''
  if ARGV[3] ~= '' then answer = ',"answer":' .. ARGV[3] end
  if ARGV[8] ~= '' then answer = answer .. ',"answeredBy":' .. ARGV[8] end
  -- The outcome and the time are plain words and an ISO date: nothing in them needs escaping.
  local settled = string.sub(stored, 1, -2) .. ',"outcome":"' .. ARGV[2] .. '","settledAt":"' .. ARGV[4] .. '"' .. answer .. '}'
  announcement = ARGV[9] .. settled .. ARGV[10]
  local refused = refusal(targets, announcement)
  if refused then return refused end
end
redis.call('HSET', KEYS[1], 'outcome', ARGV[2], 'settledAt', ARGV[4])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'answer', ARGV[3]) end
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'answeredBy', ARGV[8]) end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', ARGV[5] .. session, ARGV[1])
-- The history index (listSettled): every settled rpcId by its save number.
redis.call('ZADD', KEYS[4], seq, ARGV[1])
if ARGV[6] == '1' then
  redis.call('ZADD', KEYS[3], seq, ARGV[1])
elseif ARGV[7] ~= '0' then
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
end
if targets then publishAll(targets, announcement) end
return redis.call('HGETALL', KEYS[1])
`);

/**
 * vote: count one approval of a quorum approval, append its `vote_cast` event, and settle the
 * record with the vote that completes the quorum, in one step (docs/approvals.md, "Quorum").
 * KEYS: record, bucket pending, awaiting, bucket clock. ARGV: rpcId, the voter's principalId, the
 * vote as JSON, approvals needed, answer JSON, settledAt (also the event's time), the bucket's
 * session pending key prefix, the bucket's events key prefix, the event's data as JSON without its
 * count, the voter as JSON (the settled record's answeredBy), the writer's floor for the event id,
 * then optionally the announcement block, published only with a settlement. The votes are a JSON
 * array in the hash's `votes` field, appended to as text so they stay exactly the JSON the store
 * wrote. Returns { kind, HGETALL, event id } with kind 'counted', 'repeated' or 'settled', or
 * { 'not-pending' } when the rpcId is unknown or settled. Every check runs before the first write.
 */
export const voteScript = lua(`${helpers}
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'outcome') == 1 then return { 'not-pending' } end
local session = redis.call('HGET', KEYS[1], 'session')
local seq = redis.call('HGET', KEYS[1], 'seq')
local stored = redis.call('HGET', KEYS[1], 'record')
if not session or not seq or not tonumber(seq) or not stored then
  return corrupt('the stored hash lacks its record, session or save number')
end
local votesText = redis.call('HGET', KEYS[1], 'votes')
local count = 0
if votesText then
  local ok, votes = pcall(cjson.decode, votesText)
  if not ok or type(votes) ~= 'table' or string.sub(votesText, -1) ~= ']' then
    return corrupt('the stored votes are not a JSON array')
  end
  for _, vote in ipairs(votes) do
    if type(vote) ~= 'table' then return corrupt('a stored vote is not an object') end
    if vote.principalId == ARGV[2] then return { 'repeated', redis.call('HGETALL', KEYS[1]), 0 } end
    count = count + 1
  end
end
local stream = ARGV[8] .. session
local last = clockOf(KEYS[4])
if not last then return corrupt('the bucket clock does not hold a whole number') end
local eventId = math.max(last + ${idStep}, tonumber(ARGV[11]))
local problem = streamProblem(stream, eventId)
if problem then return corrupt(problem) end
local data = cjson.decode(ARGV[9])
data.approvals = count + 1
local event = cjson.encode({ type = 'vote_cast', sessionId = session, rpcId = ARGV[1], data = data })
local withVote = '[' .. ARGV[3] .. ']'
if count > 0 then withVote = string.sub(votesText, 1, -2) .. ',' .. ARGV[3] .. ']' end
local settles = count + 1 >= tonumber(ARGV[4])
local targets
local announcement
if settles then targets = announceTargets(12, session, redis.call('HGET', KEYS[1], 'node') or nil) end
if targets then
  local settled = string.sub(stored, 1, -2) .. ',"outcome":"answered","settledAt":"' .. ARGV[6] .. '","answer":' .. ARGV[5] .. ',"answeredBy":' .. ARGV[10] .. ',"votes":' .. withVote .. '}'
  announcement = ARGV[12] .. settled .. ARGV[13]
  local refused = refusal(targets, announcement)
  if refused then return refused end
end
redis.call('HSET', KEYS[1], 'votes', withVote)
redis.call('SET', KEYS[4], string.format('%d', eventId))
redis.call('XADD', stream, string.format('%d-0', eventId), 'event', event, 'at', ARGV[6])
if not settles then return { 'counted', redis.call('HGETALL', KEYS[1]), eventId } end
redis.call('HSET', KEYS[1], 'outcome', 'answered', 'settledAt', ARGV[6], 'answer', ARGV[5], 'answeredBy', ARGV[10])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', ARGV[7] .. session, ARGV[1])
redis.call('ZADD', KEYS[3], seq, ARGV[1])
if targets then publishAll(targets, announcement) end
return { 'settled', redis.call('HGETALL', KEYS[1]), eventId }
`);

/**
 * markResumed: stamp a settled, not yet resumed record. KEYS: record, awaiting. ARGV: rpcId,
 * resumedAt, retention in ms ('0' for none). Returns 1 when marked, else 0.
 */
export const markResumedScript = lua(`
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'outcome') == 0 or redis.call('HEXISTS', KEYS[1], 'resumedAt') == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'resumedAt', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[3] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
`);

/**
 * appendEvents: a batch of events, all or none. KEYS: for each event in order, its bucket's clock
 * and its session stream (on a Cluster, the caller sends each bucket's events in a call of their
 * own). ARGV: at, '1' to only check (write nothing), then for each event its floor and its JSON.
 * Each event's id is max(its bucket's previous id + idStep, its floor): with floors growing in
 * batch order, ids grow in batch order. Every check runs before the first write: each clock must
 * be a whole number, each stream a stream (or absent) whose last entry lies below its first new id.
 * Returns { first id, last id }.
 */
export const appendEventsScript = lua(`${helpers}
local count = #KEYS / 2
local clocks = {}
local ids = {}
for i = 1, count do
  local clock = KEYS[2 * i - 1]
  local previous = clocks[clock]
  if previous == nil then
    previous = clockOf(clock)
    if not previous then return corrupt('the bucket clock does not hold a whole number') end
  end
  ids[i] = math.max(previous + ${idStep}, tonumber(ARGV[2 * i + 1]))
  clocks[clock] = ids[i]
end
local checked = {}
for i = 1, count do
  local stream = KEYS[2 * i]
  if not checked[stream] then
    checked[stream] = true
    local problem = streamProblem(stream, ids[i])
    if problem then return corrupt(problem) end
  end
end
if ARGV[2] == '1' then return { 0, 0 } end
for clock, id in pairs(clocks) do redis.call('SET', clock, string.format('%d', id)) end
for i = 1, count do
  redis.call('XADD', KEYS[2 * i], string.format('%d-0', ids[i]), 'event', ARGV[2 * i + 2], 'at', ARGV[1])
end
return { ids[1], ids[count] }
`);

/** Run a script by its hash, loading it first when this Redis has not seen it (a restart empties the script cache). */
export async function runScript(client: StoreClient, script: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return await client.eval(script.source, keys.length, ...keys, ...args);
  }
}
