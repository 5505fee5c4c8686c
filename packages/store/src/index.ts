// Everything a user may import from @askseam/store, named one by one.
export type { ListAwaitingResumeOptions, ListRecordsOptions, ListSettledOptions, QuestionStore, ReadEventsOptions, SessionSelection, SettledRecordsPage, StoreWriteOptions, UnreadableRecord } from './store.js';
export { MemoryQuestionStore } from './memory.js';
export type { MemoryQuestionStoreOptions } from './memory.js';
export {
  answeredBySchema,
  humanOutcomes,
  newQuestionRecordSchema,
  questionModeSchema,
  questionOutcomeSchema,
  questionRecordSchema,
  traceContextSchema,
  questionUrgencySchema,
  responseViaSchema,
  voteSchema,
} from './record.js';
export type { AnsweredBy, JsonValue, NewQuestionRecord, QuestionMode, QuestionOutcome, QuestionRecord, QuestionUrgency, TraceContext } from './record.js';
export { newQuestionEventSchema, questionEventTypes, responseChannelSchema } from './events.js';
export type { NewQuestionEvent, QuestionEvent, QuestionEventType } from './events.js';
export { QuestionStoreError, questionStoreErrorCodes } from './errors.js';
export type { QuestionStoreErrorCode, QuestionStoreErrorOptions } from './errors.js';
export { parseAwaitingPartition, parseListSettledOptions, parseNewQuestionEvent, parseNewQuestionEvents, parseNewQuestionRecord, parseReadEventsOptions, parseRecordWithEvent, parseSettlement, settledPageLimits } from './validate.js';
export { questionBusMessageSchema } from './bus.js';
export type { BusAnnouncement, BusSealFacts, QuestionBus, QuestionBusAnnouncementMessage, QuestionBusDelivery, QuestionBusListener, QuestionBusMessage } from './bus.js';
export { MemoryQuestionBusHub } from './memory-bus.js';
export { isoNow } from './iso-now.js';
export { OutageGrace } from './outage-grace.js';
export { parseVoteRequest, tallyVote, voteCastEvent } from './vote.js';
export type { Vote, Voter, VoteRequest, VoteResult } from './vote.js';
export { redisServerName } from './redis-server-name.js';
export type { RedisConnectionSettings } from './redis-server-name.js';
