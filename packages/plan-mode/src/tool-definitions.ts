import { toolJsonSchema, type AnthropicTool, type JsonSchema, type OpenAIFunctionTool } from '@askseam/tool-ask-user';
import { exitPlanModeToolDescription, exitPlanModeToolName } from './description.js';
import { exitPlanModeArgsSchema } from './schema.js';

/**
 * `{ plan }` as JSON Schema (zod 4's `z.toJSONSchema`). Its one field is required and the object is
 * closed, so the same schema qualifies for OpenAI strict mode and Anthropic strict tool use.
 */
export const exitPlanModeJsonSchema: JsonSchema = toolJsonSchema(exitPlanModeArgsSchema);

/** `exit_plan_mode` as an OpenAI-style function tool. */
export function toOpenAIExitPlanModeTool(options: { strict?: boolean } = {}): OpenAIFunctionTool {
  const fn = { name: exitPlanModeToolName, description: exitPlanModeToolDescription, parameters: structuredClone(exitPlanModeJsonSchema) };
  return { type: 'function', function: options.strict === true ? { ...fn, strict: true } : fn };
}

/** `exit_plan_mode` as an Anthropic tool: `{ name, description, input_schema }`. */
export function toAnthropicExitPlanModeTool(options: { strict?: boolean } = {}): AnthropicTool {
  const tool = { name: exitPlanModeToolName, description: exitPlanModeToolDescription, input_schema: structuredClone(exitPlanModeJsonSchema) };
  return options.strict === true ? { ...tool, strict: true } : tool;
}
