// Everything a user may import from @askseam/user-questions, named one by one.
export { UserQuestions } from './user-questions.js';
export type { UserQuestionsOptions } from './user-questions.js';
export { askObservationOf, intentKindOf, spanContextOf, telemetryNames } from './telemetry.js';
export type {
  AskObservation,
  AskseamTelemetry,
  AskSpanEventName,
  AskTraceContext,
  Attributes as TelemetryAttributes,
  Meter as TelemetryMeter,
  MeterProvider as TelemetryMeterProvider,
  TelemetryAttributeValue,
  TelemetryInstrumentOptions,
  TelemetryObservableResult,
  TelemetrySpan,
  TelemetrySpanContext,
  Tracer as TelemetryTracer,
  TracerProvider as TelemetryTracerProvider,
} from './telemetry.js';
export { AskseamError, UserQuestionError, userQuestionErrorCodes, hasUserQuestionErrorCode } from './errors.js';
export type { UserQuestionErrorCode } from './errors.js';
export { matchesQuestions, answerMismatch } from './match.js';
export type { AnswerMismatch, AnswerMismatchRule } from './match.js';
export { hasLineBreak, isBlankText } from './text-shape.js';
export { checkReceivedAnswer, isAnswerCheckedFor, isSealedAnswer, sealReceivedAnswer } from './received-answer.js';
export type { ReceivedAnswerCheck } from './received-answer.js';
export { questionBatchProblem } from './batch.js';
export { checkQuestionIntents, toolApprovalInputMaxBytes, toolApprovalInputMaxDepth } from './intent.js';
export { approvalDecisionOf, approvalQuestionId, approvalQuestions, askApproval } from './approval.js';
export { revealBidiControls, toolInputKeys, toolInputText } from './inert-text.js';
export type { ApprovalDecision, ApprovalLang, ApprovalOutcome, ApprovalQuestionRequest, AskApprovalOptions } from './approval.js';
export { copyAnswer, handOverAnswer } from './answer.js';
export { isSensitiveQuestion, namesSecret, redactedAnswerText, redactSensitiveAnswers } from './sensitive.js';
export { isSealedQuestionBatch } from './sealed.js';
export { compiledSafeParse } from './compiled.js';
export type { SafeParse } from './compiled.js';
export {
  askUserQuestionInputKinds,
  checkboxAnswerValues,
  dateAnswerProblem,
  isCalendarDate,
  isMultiSelect,
  isValueInput,
  maxNumberAnswerLength,
  numberAnswerProblem,
  parseDecimalAnswer,
  textLength,
} from './inputs.js';
export {
  agentRefSchema,
  approvalQuorumSchema,
  approvalToolSchema,
  askUserQuestionAnswerItemSchema,
  askUserQuestionAnswerSchema,
  askUserQuestionInputSchema,
  askUserQuestionIntentSchema,
  askUserQuestionItemSchema,
  askUserQuestionOptionSchema,
  askUserQuestionsSchema,
  askUserQuestionUrgencySchema,
  checkboxInputSchema,
  dateInputSchema,
  multiSelectInputSchema,
  numberInputSchema,
  planReviewIntentSchema,
  quorumAnswererSchema,
  quorumMaxApprovals,
  selectInputSchema,
  textareaInputSchema,
  textInputSchema,
  toolApprovalIntentSchema,
} from './schemas.js';
export type {
  ApprovalQuorum,
  ApprovalTool,
  AskUserQuestionAnswer,
  AskUserQuestionAnswerItem,
  AskUserQuestionInput,
  AskUserQuestionInputKind,
  AskUserQuestionIntent,
  AskUserQuestionItem,
  AskUserQuestionOption,
  AskUserQuestionUrgency,
  PlanReviewIntent,
  QuorumAnswerer,
  ToolApprovalIntent,
} from './schemas.js';
export type { AgentRef, AgentRegistry, AnsweredBy, AskUserQuestionRequest, UserQuestionProvider } from './types.js';
