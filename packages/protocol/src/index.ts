// Everything a user may import from @askseam/protocol, named one by one.
export {
  PROTOCOL_VERSION,
  clientFrameSchemas,
  errorFrameSchema,
  frameErrorCodeSchema,
  helloFrameSchema,
  pingFrameSchema,
  pongFrameSchema,
  questionOutcomeSchema,
  questionRequestedFrameSchema,
  questionResolvedFrameSchema,
  questionRespondFrameSchema,
  questionVoteSchema,
  receiptFrameSchema,
  receiptRejectionReasonSchema,
  respondResultSchema,
  serverFrameSchemas,
} from './frames.js';
export type {
  ClientFrame,
  ErrorFrame,
  FrameErrorCode,
  HelloFrame,
  PingFrame,
  PongFrame,
  QuestionOutcome,
  QuestionRequestedFrame,
  QuestionResolvedFrame,
  QuestionRespondFrame,
  QuestionVote,
  ReceiptFrame,
  ReceiptRejectionReason,
  RespondResult,
  ServerFrame,
} from './frames.js';
export { parseClientFrame, parseFrame, parseServerFrame } from './parse.js';
export type { FrameData, Parsed } from './parse.js';
export { closeCodes } from './close-codes.js';
export type { CloseCode } from './close-codes.js';
export { DEFAULT_CLIENT_HEARTBEAT_MS, DEFAULT_HOST_HEARTBEAT_MS } from './heartbeat.js';
