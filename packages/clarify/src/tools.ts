import {
  anthropicToolFrom,
  openAIFunctionToolFrom,
  openAIResponsesToolFrom,
  toolJsonSchema,
  type AnthropicTool,
  type AskToolResult,
  type JsonSchema,
  type OpenAIFunctionTool,
  type OpenAIResponsesFunctionTool,
  type ToolInputSchema,
} from '@askseam/tool-ask-user';
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
  /**
   * The same as JSON Schema (zod 4's `z.toJSONSchema`), optional fields not required. On the
   * built-in tools, a fresh, editable copy on every read.
   */
  readonly jsonSchema: JsonSchema;
  execute(args: unknown, context: Context): Promise<AskToolResult>;
}

// The originals stay here: the tools' getters and the adapters hand out copies, so a framework
// that edits the schema it is given (LangChain's tool()) neither fails nor changes anyone else's.
const askClarificationSchemaOriginal = toolJsonSchema(askClarificationArgsSchema);
const requestHumanInputSchemaOriginal = toolJsonSchema(requestHumanInputArgsSchema);
const requestClarificationSchemaOriginal = toolJsonSchema(requestClarificationArgsSchema);

// Each exported schema is a plain object of the caller's own: editing it changes nothing else.
export const askClarificationJsonSchema: ToolInputSchema = structuredClone(askClarificationSchemaOriginal);
export const requestHumanInputJsonSchema: ToolInputSchema = structuredClone(requestHumanInputSchemaOriginal);
export const requestClarificationJsonSchema: ToolInputSchema = structuredClone(requestClarificationSchemaOriginal);

export const askClarificationTool: ClarifyTool<typeof askClarificationToolName, typeof askClarificationArgsSchema> = Object.freeze({
  name: askClarificationToolName,
  description: askClarificationToolDescription,
  parameters: askClarificationArgsSchema,
  get jsonSchema(): ToolInputSchema {
    return structuredClone(askClarificationSchemaOriginal);
  },
  execute: executeAskClarification,
});

export const requestHumanInputTool: ClarifyTool<typeof requestHumanInputToolName, typeof requestHumanInputArgsSchema> = Object.freeze({
  name: requestHumanInputToolName,
  description: requestHumanInputToolDescription,
  parameters: requestHumanInputArgsSchema,
  get jsonSchema(): ToolInputSchema {
    return structuredClone(requestHumanInputSchemaOriginal);
  },
  execute: executeRequestHumanInput,
});

export const requestClarificationTool: ClarifyTool<typeof requestClarificationToolName, typeof requestClarificationArgsSchema, RequestClarificationContext> = Object.freeze({
  name: requestClarificationToolName,
  description: requestClarificationToolDescription,
  parameters: requestClarificationArgsSchema,
  get jsonSchema(): ToolInputSchema {
    return structuredClone(requestClarificationSchemaOriginal);
  },
  execute: executeRequestClarification,
});

/** What the adapters read from a clarification tool (yours or a built-in one). */
type ClarifyToolFormatSource = Pick<ClarifyTool<string, unknown>, 'name' | 'description' | 'jsonSchema'>;

// One parameter each (no options), so `tools.map(toOpenAIClarifyTool)` stays safe: the clarification
// schemas have optional fields, so they have no strict form.

/** A clarification tool as an OpenAI Chat Completions function tool (a fresh copy each time). */
export function toOpenAIClarifyTool(tool: ClarifyToolFormatSource): OpenAIFunctionTool {
  return openAIFunctionToolFrom(tool);
}

/** A clarification tool as an OpenAI Responses API function tool, `strict: false` (a fresh copy each time). */
export function toOpenAIResponsesClarifyTool(tool: ClarifyToolFormatSource): OpenAIResponsesFunctionTool {
  return openAIResponsesToolFrom(tool);
}

/** A clarification tool as an Anthropic tool: `{ name, description, input_schema }` (a fresh copy each time). */
export function toAnthropicClarifyTool(tool: ClarifyToolFormatSource): AnthropicTool {
  return anthropicToolFrom(tool);
}
