// Everything a user may import from @askseam/langchain, named one by one.
export { toLangChainTool } from './tool.js';
export type { AskseamLangChainSchema, AskseamLangChainTool, AskseamToolShape } from './tool.js';
export { hitlRequestOf } from './hitl-types.js';
export type { HitlActionRequest, HitlDecision, HitlDecisionType, HitlRequest, HitlResponse, HitlReviewConfig } from './hitl-types.js';
export { actionCard, cardChoiceOf, reviewActions, reviewConfigFor } from './review.js';
export type { CardChoice, ReviewActionsOptions, ReviewLang } from './review.js';
export { editForm } from './edit-form.js';
export type { EditForm } from './edit-form.js';
export { offeredReview, toolJsonSchemaOf } from './review.js';
export { createAskUserQuestionInterruptTool } from './interrupt-tool.js';
export type { AskUserQuestionInterrupt } from './interrupt-tool.js';
export { langGraphInterrupts } from './interrupt-bridge.js';
export type { BridgeHost, InterruptibleGraph, LangGraphInterrupts, LangGraphInterruptsOptions, PendingInterrupt } from './interrupt-bridge.js';
export { LangGraphBridgeError, langGraphBridgeErrorCodes } from './errors.js';
export type { LangGraphBridgeErrorCode } from './errors.js';
