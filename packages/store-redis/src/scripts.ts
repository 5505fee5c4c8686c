import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

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

// A script that announces must never write what it may not announce (an ACL user without the
// channel), nor announce what it did not write (Redis keeps what a script wrote before an error,
// and refuses the first write of a script with OOM at maxmemory under noeviction, after anything
// published before it). So it asks Redis whether its user may publish before its first write
// (redis.acl_check_cmd, Redis 7: the same ACL check a PUBLISH would meet, channel included), and
// publishes after its last. No subscriber can act on the message before the script ends.
const refuseUnlessMayPublish = (channel: string, text: string): string => `
if redis.acl_check_cmd and not redis.acl_check_cmd('PUBLISH', ${channel}, ${text}) then
  return redis.error_reply('${publishRefusedReplyTag} this user has no right to publish on the channel')
end`;

// The checks an append makes before its first write, as a Lua function: the event counter must be
// a whole number, and each stream a stream (or absent) whose last entry lies below the id it is
// about to get. Returns the first id the appends take, or nil and what is wrong.
const firstEventIdFunction = `
local function firstEventId(counter, streams)
  local last = redis.call('GET', counter)
  if last and not string.match(last, '^%d+$') then return nil, 'the event counter does not hold a whole number' end
  local first = tonumber(last or '0') + 1
  local checked = {}
  for i, key in ipairs(streams) do
    if not checked[key] then
      checked[key] = true
      local kind = redis.call('TYPE', key).ok
      if kind == 'stream' then
        local top = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)[1]
        local topId = top and tonumber(string.match(top[1], '^(%d+)%-'))
        if top and (not topId or topId >= first + i - 1) then return nil, 'a session stream already holds an id at or above the event counter' end
      elseif kind ~= 'none' then
        return nil, 'a session events key is a ' .. kind .. ', not a stream'
      end
    end
  end
  return first
end`;

/**
 * save: refuse a known rpcId, else take the next save number and write the record and both
 * pending indexes, and with an event append it too. KEYS: record, save counter, pending, session
 * pending, then optionally the event counter and the session stream. ARGV: record JSON, rpcId,
 * sessionId, bus channel ('' for no announcement), text before the record, text after it, then
 * with the event keys the event JSON and its time. The announcement is published after every
 * write, the user's right to publish it checked before the first (see refuseUnlessMayPublish).
 * Every check (the rpcId, the event keys) runs before the first write, so the record and its event
 * are stored together or not at all. Returns 1 when saved, 0 for a duplicate (nothing published,
 * nothing appended).
 */
export const saveScript = lua(`${firstEventIdFunction}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local eventId
if KEYS[6] then
  local problem
  eventId, problem = firstEventId(KEYS[5], { KEYS[6] })
  if not eventId then return redis.error_reply('${corruptReplyTag} ' .. problem) end
end
local announce = ARGV[4] ~= ''
if announce then${refuseUnlessMayPublish('ARGV[4]', 'ARGV[5] .. ARGV[1] .. ARGV[6]')}
end
local seq = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'record', ARGV[1], 'session', ARGV[3], 'seq', seq)
redis.call('ZADD', KEYS[3], seq, ARGV[2])
redis.call('ZADD', KEYS[4], seq, ARGV[2])
if eventId then
  redis.call('SET', KEYS[5], eventId)
  redis.call('XADD', KEYS[6], string.format('%d-0', eventId), 'event', ARGV[7], 'at', ARGV[8])
end
if announce then redis.call('PUBLISH', ARGV[4], ARGV[5] .. ARGV[1] .. ARGV[6]) end
return 1
`);

/**
 * claim: settle a pending record exactly once. KEYS: record, pending, awaiting, settled. ARGV: rpcId,
 * outcome, answer JSON ('' for none), settledAt, session pending key prefix, '1' when a person
 * chose the outcome (it then awaits its resume), retention in ms ('0' for none), answeredBy JSON
 * ('' for none), then optionally a bus announcement (channel, text before the record, text after
 * it), published with the settled record as JSON: the stored record's JSON (an object, without
 * settlement fields) with outcome, settledAt, answer and answeredBy added, after every write (see
 * refuseUnlessMayPublish). Returns the
 * settled hash (HGETALL), or nil when the rpcId is unknown or already settled (nothing published).
 * Every check runs before the first write.
 */
export const claimScript = lua(`
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'outcome') == 1 then return false end
local session = redis.call('HGET', KEYS[1], 'session')
local seq = redis.call('HGET', KEYS[1], 'seq')
local stored = redis.call('HGET', KEYS[1], 'record')
if not session or not seq or not tonumber(seq) or not stored then
  return redis.error_reply('${corruptReplyTag} the stored hash lacks its record, session or save number')
end
local announcement
if ARGV[9] then
  local answer = ''
  if ARGV[3] ~= '' then answer = ',"answer":' .. ARGV[3] end
  if ARGV[8] ~= '' then answer = answer .. ',"answeredBy":' .. ARGV[8] end
  -- The outcome and the time are plain words and an ISO date: nothing in them needs escaping.
  local settled = string.sub(stored, 1, -2) .. ',"outcome":"' .. ARGV[2] .. '","settledAt":"' .. ARGV[4] .. '"' .. answer .. '}'
  announcement = ARGV[10] .. settled .. ARGV[11]${refuseUnlessMayPublish('ARGV[9]', 'announcement')}
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
if announcement then redis.call('PUBLISH', ARGV[9], announcement) end
return redis.call('HGETALL', KEYS[1])
`);

/**
 * vote: count one approval of a quorum approval, append its `vote_cast` event, and settle the
 * record with the vote that completes the quorum, in one step (docs/approvals.md, "Quorum").
 * KEYS: record, pending, awaiting, event counter. ARGV: rpcId, the voter's principalId, the vote
 * as JSON, approvals needed, answer JSON, settledAt (also the event's time), session pending key
 * prefix, session events key prefix, the event's data as JSON without its count, the voter as
 * JSON (the settled record's answeredBy), then optionally a bus announcement (channel, text before the record, text after it) published only with a
 * settlement. The votes are a JSON array in the hash's `votes` field, appended to as text so they
 * stay exactly the JSON the store wrote. Returns { kind, HGETALL } with kind 'counted',
 * 'repeated' or 'settled', or { 'not-pending' } when the rpcId is unknown or settled. Every check
 * runs before the first write.
 */
export const voteScript = lua(`${firstEventIdFunction}
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'outcome') == 1 then return { 'not-pending' } end
local session = redis.call('HGET', KEYS[1], 'session')
local seq = redis.call('HGET', KEYS[1], 'seq')
local stored = redis.call('HGET', KEYS[1], 'record')
if not session or not seq or not tonumber(seq) or not stored then
  return redis.error_reply('${corruptReplyTag} the stored hash lacks its record, session or save number')
end
local votesText = redis.call('HGET', KEYS[1], 'votes')
local count = 0
if votesText then
  local ok, votes = pcall(cjson.decode, votesText)
  if not ok or type(votes) ~= 'table' or string.sub(votesText, -1) ~= ']' then
    return redis.error_reply('${corruptReplyTag} the stored votes are not a JSON array')
  end
  for _, vote in ipairs(votes) do
    if type(vote) ~= 'table' then return redis.error_reply('${corruptReplyTag} a stored vote is not an object') end
    if vote.principalId == ARGV[2] then return { 'repeated', redis.call('HGETALL', KEYS[1]) } end
    count = count + 1
  end
end
local stream = ARGV[8] .. session
local eventId, problem = firstEventId(KEYS[4], { stream })
if not eventId then return redis.error_reply('${corruptReplyTag} ' .. problem) end
local data = cjson.decode(ARGV[9])
data.approvals = count + 1
local event = cjson.encode({ type = 'vote_cast', sessionId = session, rpcId = ARGV[1], data = data })
local withVote = '[' .. ARGV[3] .. ']'
if count > 0 then withVote = string.sub(votesText, 1, -2) .. ',' .. ARGV[3] .. ']' end
local settles = count + 1 >= tonumber(ARGV[4])
local announcement
if settles and ARGV[11] then
  local settled = string.sub(stored, 1, -2) .. ',"outcome":"answered","settledAt":"' .. ARGV[6] .. '","answer":' .. ARGV[5] .. ',"answeredBy":' .. ARGV[10] .. ',"votes":' .. withVote .. '}'
  announcement = ARGV[12] .. settled .. ARGV[13]${refuseUnlessMayPublish('ARGV[11]', 'announcement')}
end
redis.call('HSET', KEYS[1], 'votes', withVote)
redis.call('SET', KEYS[4], eventId)
redis.call('XADD', stream, string.format('%d-0', eventId), 'event', event, 'at', ARGV[6])
if not settles then return { 'counted', redis.call('HGETALL', KEYS[1]) } end
redis.call('HSET', KEYS[1], 'outcome', 'answered', 'settledAt', ARGV[6], 'answer', ARGV[5], 'answeredBy', ARGV[10])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', ARGV[7] .. session, ARGV[1])
redis.call('ZADD', KEYS[3], seq, ARGV[1])
if announcement then redis.call('PUBLISH', ARGV[11], announcement) end
return { 'settled', redis.call('HGETALL', KEYS[1]) }
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
 * appendEvent: take the next event id (one counter for the whole store) and add the event to its
 * session's stream under that id. KEYS: event counter, session stream. ARGV: event JSON, at.
 * Returns the id.
 */
export const appendEventScript = lua(`
local id = redis.call('INCR', KEYS[1])
redis.call('XADD', KEYS[2], string.format('%d-0', id), 'event', ARGV[1], 'at', ARGV[2])
return id
`);

/**
 * appendEvents: a batch of events, all or none. KEYS: event counter, then each event's session
 * stream in batch order. ARGV: at, then each event's JSON in batch order (KEYS[i] goes with ARGV[i]
 * for i >= 2). Redis keeps what a script wrote before an error, so every check runs before the
 * first write: the counter must be a whole number, each stream must be a stream (or absent) whose
 * last entry lies below the id it is about to get. Then the ids are taken at once from the counter
 * and given out in batch order. Returns how many events were added.
 */
export const appendEventsScript = lua(`${firstEventIdFunction}
local count = #KEYS - 1
if count <= 0 then return 0 end
local streams = {}
for i = 2, #KEYS do streams[i - 1] = KEYS[i] end
local first, problem = firstEventId(KEYS[1], streams)
if not first then return redis.error_reply('${corruptReplyTag} ' .. problem) end
redis.call('INCRBY', KEYS[1], count)
for i = 2, #KEYS do
  redis.call('XADD', KEYS[i], string.format('%d-0', first + i - 2), 'event', ARGV[i], 'at', ARGV[1])
end
return count
`);

/** Run a script by its hash, loading it first when this Redis has not seen it (a restart empties the script cache). */
export async function runScript(client: Redis, script: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return await client.eval(script.source, keys.length, ...keys, ...args);
  }
}
