// Everything a user may import from @askseam/openai-agents, named one by one.
export { createAskClarificationTool, createAskUserQuestionTool, createExitPlanModeTool, createRequestClarificationTool, createRequestHumanInputTool } from './tools.js';
export { agentsToolFrom } from './agents-tool.js';
export type { AgentsToolOptions, AskseamToolLike } from './agents-tool.js';
export { answerInterruptions, runWithApprovals } from './approve-interruptions.js';
export type { AgentRunner, ApprovalOptions, InterruptedRun, RunWithApprovalsOptions } from './approve-interruptions.js';
export { askRunApprovalDetached, resumeRunFromApproval } from './durable.js';
export type { DetachedRunApprovalOptions, ResumedRun, ResumeRunOptions } from './durable.js';
export { approvalToolOf } from './approval-item.js';
export { deniedMessage, undecidedMessage } from './messages.js';
export { OpenAIAgentsError, openAIAgentsErrorCodes } from './errors.js';
export type { OpenAIAgentsErrorCode } from './errors.js';
