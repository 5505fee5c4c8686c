// Everything a user may import from @askseam/mcp, named one by one.
export { askseamMcpToolNames, createAskseamMcpServer, registerAskseamTools } from './server.js';
export type { AskseamMcpServerOptions, AskseamMcpToolName, AskseamMcpToolsOptions } from './server.js';
export {
  approveToolCallArgsSchema,
  approveToolCallDescription,
  approveToolCallTool,
  approveToolCallToolName,
  executeApproveToolCall,
} from './approval-tool.js';
export type { ApproveToolCallArgs, ApproveToolCallContext, ApproveToolCallResult } from './approval-tool.js';
export { McpBridgeError, mcpBridgeErrorCodes } from './errors.js';
export type { McpBridgeErrorCode } from './errors.js';
export { defaultProgressIntervalMs } from './progress.js';
export { createElicitationProvider } from './elicitation-provider.js';
export type { ElicitationProviderOptions } from './elicitation-provider.js';
export { answerFromContent, elicitationFormFor, otherFieldSuffix } from './elicitation-form.js';
export type { ElicitationForm } from './elicitation-form.js';
export { startAskseamMcp } from './app.js';
export type { AskseamMcpApp, AskseamMcpAppOptions } from './app.js';
export { declineLinkLabel, handleElicitation, openLinkLabel } from './elicitation-handler.js';
export type { HandleElicitationOptions } from './elicitation-handler.js';
export { contentFromAnswer, questionsForForm } from './elicitation-questions.js';
export type { RequestedForm } from './elicitation-questions.js';
