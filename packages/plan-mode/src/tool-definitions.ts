import { toAnthropicTool, toOpenAIResponsesTool, toOpenAITool, type AnthropicTool, type OpenAIFunctionTool, type OpenAIResponsesFunctionTool, type ToolFormatOptions, type ToolInputSchema } from '@askseam/tool-ask-user';
import { exitPlanModeTool } from './tool.js';

/**
 * `{ plan }` as JSON Schema (zod 4's `z.toJSONSchema`). Its one field is required and the object is
 * closed, so the same schema qualifies for OpenAI strict mode and Anthropic strict tool use.
 * A plain object of your own: editing it changes nothing else.
 */
export const exitPlanModeJsonSchema: ToolInputSchema = exitPlanModeTool.jsonSchema;

/**
 * `exit_plan_mode` as an OpenAI Chat Completions function tool.
 * @deprecated Use `toOpenAITool(exitPlanModeTool, { strict? })` from `@askseam/tool-ask-user`.
 */
export function toOpenAIExitPlanModeTool(options: ToolFormatOptions = {}): OpenAIFunctionTool {
  return toOpenAITool(exitPlanModeTool, options);
}

/**
 * `exit_plan_mode` as an OpenAI Responses API function tool.
 * @deprecated Use `toOpenAIResponsesTool(exitPlanModeTool, { strict? })` from `@askseam/tool-ask-user`.
 */
export function toOpenAIResponsesExitPlanModeTool(options: ToolFormatOptions = {}): OpenAIResponsesFunctionTool {
  return toOpenAIResponsesTool(exitPlanModeTool, options);
}

/**
 * `exit_plan_mode` as an Anthropic tool: `{ name, description, input_schema }`.
 * @deprecated Use `toAnthropicTool(exitPlanModeTool, { strict? })` from `@askseam/tool-ask-user`.
 */
export function toAnthropicExitPlanModeTool(options: ToolFormatOptions = {}): AnthropicTool {
  return toAnthropicTool(exitPlanModeTool, options);
}
