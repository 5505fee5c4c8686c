// Everything a user may import from @askseam/tool-ask-user, named one by one.
export { askUserQuestionTool } from './tool.js';
export type { AskUserQuestionTool } from './tool.js';
export { defineTool } from './define-tool.js';
export type { AnyTool, StrictTool, Tool, ToolDefinition, ToolResult } from './define-tool.js';
export { executeAskUserQuestion } from './execute.js';
export type { AskUserQuestionContext } from './execute.js';
export { parseAskUserQuestionArgs } from './arguments.js';
export type { ParsedAskUserQuestionArgs } from './arguments.js';
export { askUserQuestionToolDescription, askUserQuestionToolName } from './description.js';
export {
  askUserQuestionArgsSchema,
  askUserQuestionFieldDescriptions,
  askUserQuestionItemArgsSchema,
  askUserQuestionOptionArgsSchema,
  askUserQuestionStrictArgsSchema,
} from './schema.js';
export type { AskUserQuestionArgs, AskUserQuestionItemArgs, AskUserQuestionOptionArgs, AskUserQuestionStrictArgs } from './schema.js';
export { askUserQuestionJsonSchema, askUserQuestionStrictJsonSchema, isToolInputSchema, toolJsonSchema } from './json-schema.js';
export type { JsonSchema, ToolInputSchema } from './json-schema.js';
export { toAnthropicTool, toOpenAIResponsesTool, toOpenAITool } from './adapters.js';
export type { AnthropicToolOptions, OpenAIToolOptions } from './adapters.js';
export { anthropicToolFrom, openAIFunctionToolFrom, openAIResponsesToolFrom } from './tool-formats.js';
export type { AnthropicTool, OpenAIFunctionTool, OpenAIResponsesFunctionTool, ToolFormatOptions, ToolFormatSource } from './tool-formats.js';
export { answerText, errorResult, toolErrorResult } from './result.js';
export type { AskToolErrorCode, AskToolFailure, AskToolResult, AskToolSuccess } from './result.js';
export { askToolErrorHints } from './hints.js';
export { valueKindText, withArticle } from './value-kind.js';
