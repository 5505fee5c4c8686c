// Everything a user may import from @askseam/claude-agent-sdk, named one by one.
export { askseamCanUseTool } from './can-use-tool.js';
export type { AskseamCanUseToolOptions } from './can-use-tool.js';
export { askUserQuestionToolName, askseamQuestionsOf, claudeAnswersOf, claudeQuestionId, parseClaudeQuestions, skippedAnswerText } from './claude-questions.js';
export type { ClaudeAnswers, ClaudeQuestion, ParsedClaudeQuestions } from './claude-questions.js';
export { askDeferredToolUse, deferToolUse, deferredStateKey } from './defer.js';
export type { DeferredAskOptions } from './defer.js';
export { deferredDecision, deferredToolUseFromRecord, hooksAnswering, resumeDeferredToolUse } from './resume.js';
export type { DeferredToolUse } from './resume.js';
export { ClaudeAgentSdkError, claudeAgentSdkErrorCodes } from './errors.js';
export type { ClaudeAgentSdkErrorCode } from './errors.js';
