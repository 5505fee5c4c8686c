import {
  defineTool,
  toAnthropicTool,
  toOpenAIResponsesTool,
  toOpenAITool,
  type AnthropicTool,
  type AskToolErrorCode,
  type OpenAIFunctionTool,
  type OpenAIResponsesFunctionTool,
  type Tool,
  type ToolFormatSource,
  type ToolInputSchema,
} from '@askseam/tool-ask-user';
import type * as z from 'zod';
import { askClarificationArgsSchema } from './ask-clarification-schema.js';
import {
  askClarificationToolDescription,
  askClarificationToolName,
  requestClarificationToolDescription,
  requestClarificationToolName,
  requestHumanInputToolDescription,
  requestHumanInputToolName,
} from './description.js';
import { executeAskClarification, executeRequestHumanInput, type ClarifyToolContext } from './execute.js';
import { executeRequestClarification, type RequestClarificationContext } from './request-clarification-execute.js';
import { requestClarificationArgsSchema } from './request-clarification-schema.js';
import { requestHumanInputArgsSchema } from './request-human-input.js';

/**
 * Everything a model loop needs to offer one clarification tool: the `Tool` shape. The clarification
 * schemas have optional fields, so the tools have no strict form (`strictJsonSchema` is undefined).
 */
export type ClarifyTool<Name extends string = string, Schema extends z.ZodType = z.ZodType, Context extends ClarifyToolContext = ClarifyToolContext> = Tool<
  Schema,
  Context,
  AskToolErrorCode,
  Name
>;

export const askClarificationTool: ClarifyTool<typeof askClarificationToolName, typeof askClarificationArgsSchema> = defineTool({
  name: askClarificationToolName,
  description: askClarificationToolDescription,
  parameters: askClarificationArgsSchema,
  execute: executeAskClarification,
});

export const requestHumanInputTool: ClarifyTool<typeof requestHumanInputToolName, typeof requestHumanInputArgsSchema> = defineTool({
  name: requestHumanInputToolName,
  description: requestHumanInputToolDescription,
  parameters: requestHumanInputArgsSchema,
  execute: executeRequestHumanInput,
});

export const requestClarificationTool: ClarifyTool<typeof requestClarificationToolName, typeof requestClarificationArgsSchema, RequestClarificationContext> =
  defineTool({
    name: requestClarificationToolName,
    description: requestClarificationToolDescription,
    parameters: requestClarificationArgsSchema,
    execute: executeRequestClarification,
  });

// Each exported schema is a plain object of the caller's own: editing it changes nothing else.
export const askClarificationJsonSchema: ToolInputSchema = askClarificationTool.jsonSchema;
export const requestHumanInputJsonSchema: ToolInputSchema = requestHumanInputTool.jsonSchema;
export const requestClarificationJsonSchema: ToolInputSchema = requestClarificationTool.jsonSchema;

// One parameter each (no options), so `tools.map(toOpenAIClarifyTool)` stays safe.

/**
 * A clarification tool as an OpenAI Chat Completions function tool (a fresh copy each time).
 * @deprecated Use `toOpenAITool(tool)` from `@askseam/tool-ask-user`.
 */
export function toOpenAIClarifyTool(tool: ToolFormatSource): OpenAIFunctionTool {
  return toOpenAITool(tool);
}

/**
 * A clarification tool as an OpenAI Responses API function tool, `strict: false` (a fresh copy each time).
 * @deprecated Use `toOpenAIResponsesTool(tool)` from `@askseam/tool-ask-user`.
 */
export function toOpenAIResponsesClarifyTool(tool: ToolFormatSource): OpenAIResponsesFunctionTool {
  return toOpenAIResponsesTool(tool);
}

/**
 * A clarification tool as an Anthropic tool: `{ name, description, input_schema }` (a fresh copy each time).
 * @deprecated Use `toAnthropicTool(tool)` from `@askseam/tool-ask-user`.
 */
export function toAnthropicClarifyTool(tool: ToolFormatSource): AnthropicTool {
  return toAnthropicTool(tool);
}
