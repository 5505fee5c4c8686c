// Everything a user may import from @askseam/client, named one by one.
export { connectQuestions } from './client.js';
export type {
  AcceptedReceipt,
  ClientStatus,
  ConnectQuestionsOptions,
  LinkState,
  PendingQuestion,
  QuestionClient,
  QuestionClientEvents,
  QuestionResolvedEvent,
  QuestionVote,
  ResolvedOutcome,
} from './types.js';
export { QuestionClientError, questionClientErrorCodes } from './errors.js';
export type { QuestionClientErrorCode, QuestionClientErrorOptions } from './errors.js';
export type { WebSocketConstructorLike, WebSocketLike } from './socket.js';
export type { EventSourceConstructorLike, EventSourceLike, FetchLike } from './sse.js';
export { parseRecommendedLabel } from './labels.js';
export { planReviewOf } from './plan-review.js';
export type { PlanReview } from './plan-review.js';
export { approvalOf } from './approval.js';
export type { ToolApproval } from './approval.js';
// Re-exported so a UI can type its code against this package alone.
export type {
  AnswerMismatch,
  AskUserQuestionAnswer,
  AskUserQuestionAnswerItem,
  AskUserQuestionInput,
  AskUserQuestionItem,
  AskUserQuestionOption,
  AskUserQuestionUrgency,
} from '@askseam/user-questions';
