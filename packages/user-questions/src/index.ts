// Everything a user may import from @askseam/user-questions, named one by one.
export { UserQuestions } from './user-questions.js';
export type { UserQuestionsOptions } from './user-questions.js';
export { UserQuestionError, userQuestionErrorCodes, hasUserQuestionErrorCode } from './errors.js';
export type { UserQuestionErrorCode } from './errors.js';
export { matchesQuestions, answerMismatch } from './match.js';
export type { AnswerMismatch, AnswerMismatchRule } from './match.js';
export { questionBatchProblem } from './batch.js';
export { copyAnswer } from './answer.js';
export {
  agentRefSchema,
  askUserQuestionAnswerItemSchema,
  askUserQuestionAnswerSchema,
  askUserQuestionIntentSchema,
  askUserQuestionItemSchema,
  askUserQuestionOptionSchema,
  askUserQuestionsSchema,
  planReviewIntentSchema,
} from './schemas.js';
export type {
  AskUserQuestionAnswer,
  AskUserQuestionAnswerItem,
  AskUserQuestionIntent,
  AskUserQuestionItem,
  AskUserQuestionOption,
  PlanReviewIntent,
} from './schemas.js';
export type { AgentRef, AgentRegistry, AskUserQuestionRequest, UserQuestionProvider } from './types.js';
