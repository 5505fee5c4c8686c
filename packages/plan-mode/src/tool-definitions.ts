import {
  anthropicToolFrom,
  openAIFunctionToolFrom,
  openAIResponsesToolFrom,
  toolJsonSchema,
  type AnthropicTool,
  type OpenAIFunctionTool,
  type OpenAIResponsesFunctionTool,
  type ToolFormatOptions,
  type ToolFormatSource,
  type ToolInputSchema,
} from '@askseam/tool-ask-user';
import { exitPlanModeToolDescription, exitPlanModeToolName } from './description.js';
import { exitPlanModeArgsSchema } from './schema.js';

// The original stays here: the tool's getter and the adapters hand out copies, so an edit to any
// of them (or to the exported constant) reaches no one else.
const exitPlanModeSchemaOriginal = toolJsonSchema(exitPlanModeArgsSchema);

/** A fresh, editable copy of `{ plan }` as JSON Schema (what `exitPlanModeTool.jsonSchema` returns). */
export function exitPlanModeJsonSchemaCopy(): ToolInputSchema {
  return structuredClone(exitPlanModeSchemaOriginal);
}

/**
 * `{ plan }` as JSON Schema (zod 4's `z.toJSONSchema`). Its one field is required and the object is
 * closed, so the same schema qualifies for OpenAI strict mode and Anthropic strict tool use.
 * A plain object of your own: editing it changes nothing else.
 */
export const exitPlanModeJsonSchema: ToolInputSchema = exitPlanModeJsonSchemaCopy();

const exitPlanModeSource: ToolFormatSource = {
  name: exitPlanModeToolName,
  description: exitPlanModeToolDescription,
  jsonSchema: exitPlanModeSchemaOriginal,
  strictJsonSchema: exitPlanModeSchemaOriginal,
};

/** `exit_plan_mode` as an OpenAI Chat Completions function tool. */
export function toOpenAIExitPlanModeTool(options: ToolFormatOptions = {}): OpenAIFunctionTool {
  return openAIFunctionToolFrom(exitPlanModeSource, options);
}

/** `exit_plan_mode` as an OpenAI Responses API function tool. */
export function toOpenAIResponsesExitPlanModeTool(options: ToolFormatOptions = {}): OpenAIResponsesFunctionTool {
  return openAIResponsesToolFrom(exitPlanModeSource, options);
}

/** `exit_plan_mode` as an Anthropic tool: `{ name, description, input_schema }`. */
export function toAnthropicExitPlanModeTool(options: ToolFormatOptions = {}): AnthropicTool {
  return anthropicToolFrom(exitPlanModeSource, options);
}
