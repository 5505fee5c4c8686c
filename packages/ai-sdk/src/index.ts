// Everything a user may import from @askseam/ai-sdk, named one by one.
export { createAskClarificationTool, createAskUserQuestionTool, createExitPlanModeTool, createRequestClarificationTool, createRequestHumanInputTool } from './tools.js';
export { toAiSdkTool } from './to-ai-sdk-tool.js';
export type { AskseamAiSdkTool } from './to-ai-sdk-tool.js';
export type { AskseamTool, AskseamToolOutput } from './askseam-tool.js';
export { askseamQuestionToolNames, askseamToolApproval, askseamToolApprovalFor } from './tool-approval.js';
export type { ApprovalCardOptions, ApprovalToolCall, AskseamToolApproval, AskseamToolApprovalOptions } from './tool-approval.js';
export { answerApprovalRequests, pendingApprovalRequests, toolApprovalResponse } from './approval-requests.js';
export type { AnswerApprovalRequestsOptions } from './approval-requests.js';
export { noDecisionReason } from './no-decision.js';
export { modelAnswerer } from './model-answerer.js';
export type { ModelAnswerContext, ModelAnswererOptions } from './model-answerer.js';
export { AiSdkError, aiSdkErrorCodes } from './errors.js';
export type { AiSdkErrorCode } from './errors.js';
