import { toolJsonSchema, type AnthropicTool, type AskToolResult, type JsonSchema, type OpenAIFunctionTool } from '@askseam/tool-ask-user';
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

/** Everything a model loop needs to offer one clarification tool. */
export interface ClarifyTool<Name extends string, Schema, Context extends ClarifyToolContext = ClarifyToolContext> {
  readonly name: Name;
  readonly description: string;
  /** The zod schema of the arguments the model is told to send (what it does send is read more leniently). */
  readonly parameters: Schema;
  /** The same as JSON Schema (zod 4's `z.toJSONSchema`), optional fields not required. */
  readonly jsonSchema: JsonSchema;
  execute(args: unknown, context: Context): Promise<AskToolResult>;
}

export const askClarificationJsonSchema: JsonSchema = toolJsonSchema(askClarificationArgsSchema);
export const requestHumanInputJsonSchema: JsonSchema = toolJsonSchema(requestHumanInputArgsSchema);
export const requestClarificationJsonSchema: JsonSchema = toolJsonSchema(requestClarificationArgsSchema);

export const askClarificationTool: ClarifyTool<typeof askClarificationToolName, typeof askClarificationArgsSchema> = Object.freeze({
  name: askClarificationToolName,
  description: askClarificationToolDescription,
  parameters: askClarificationArgsSchema,
  jsonSchema: askClarificationJsonSchema,
  execute: executeAskClarification,
});

export const requestHumanInputTool: ClarifyTool<typeof requestHumanInputToolName, typeof requestHumanInputArgsSchema> = Object.freeze({
  name: requestHumanInputToolName,
  description: requestHumanInputToolDescription,
  parameters: requestHumanInputArgsSchema,
  jsonSchema: requestHumanInputJsonSchema,
  execute: executeRequestHumanInput,
});

export const requestClarificationTool: ClarifyTool<typeof requestClarificationToolName, typeof requestClarificationArgsSchema, RequestClarificationContext> = Object.freeze({
  name: requestClarificationToolName,
  description: requestClarificationToolDescription,
  parameters: requestClarificationArgsSchema,
  jsonSchema: requestClarificationJsonSchema,
  execute: executeRequestClarification,
});

/** A clarification tool as an OpenAI-style function tool (a fresh copy each time). */
export function toOpenAIClarifyTool(tool: Pick<ClarifyTool<string, unknown>, 'name' | 'description' | 'jsonSchema'>): OpenAIFunctionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: structuredClone(tool.jsonSchema) } };
}

/** A clarification tool as an Anthropic tool: `{ name, description, input_schema }` (a fresh copy each time). */
export function toAnthropicClarifyTool(tool: Pick<ClarifyTool<string, unknown>, 'name' | 'description' | 'jsonSchema'>): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: structuredClone(tool.jsonSchema) };
}
