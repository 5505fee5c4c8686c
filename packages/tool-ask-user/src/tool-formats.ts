import { isToolInputSchema, type JsonSchema, type ToolInputSchema } from './json-schema.js';

// One place that turns a tool (name, description, JSON Schema) into each provider's plain-object
// format. Every package's adapters (ask_user_question, exit_plan_mode, the clarification tools)
// go through it, so a fix to a format is made once. No SDK is needed to use the results; the type
// tests check them against the real `openai` and `@anthropic-ai/sdk` types.

/** What the format adapters need from a tool. */
export interface ToolFormatSource {
  readonly name: string;
  readonly description: string;
  /** The arguments with optional fields not required: Anthropic and non-strict OpenAI. */
  readonly jsonSchema: JsonSchema;
  /**
   * The arguments for OpenAI strict mode (every field required, optional ones nullable). Absent:
   * the tool has no strict form, and asking for one is refused.
   */
  readonly strictJsonSchema?: JsonSchema | undefined;
}

/** An OpenAI Chat Completions function tool definition (`ChatCompletionTool` in the `openai` SDK). */
export interface OpenAIFunctionTool {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: ToolInputSchema;
    strict?: boolean;
  };
}

/** An OpenAI Responses API function tool definition (`FunctionTool` in the `openai` SDK). */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: ToolInputSchema;
  /** The Responses API requires the field; `false` unless strict mode was asked for. */
  strict: boolean;
}

/** An Anthropic Messages API tool definition (`Tool` in `@anthropic-ai/sdk`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ToolInputSchema;
  strict?: boolean;
}

export interface ToolFormatOptions {
  /** Ask for strict mode (OpenAI strict function calling, Anthropic strict tool use). Off by default. */
  strict?: boolean;
}

/** The tool as an OpenAI Chat Completions function tool: `{ type: 'function', function: { … } }`. */
export function openAIFunctionToolFrom(source: ToolFormatSource, options: ToolFormatOptions = {}): OpenAIFunctionTool {
  const strict = options.strict === true;
  const fn = { name: source.name, description: source.description, parameters: openAIParameters(source, strict) };
  return { type: 'function', function: strict ? { ...fn, strict: true } : fn };
}

/** The tool as an OpenAI Responses API function tool: `{ type: 'function', name, description, parameters, strict }`. */
export function openAIResponsesToolFrom(source: ToolFormatSource, options: ToolFormatOptions = {}): OpenAIResponsesFunctionTool {
  const strict = options.strict === true;
  return { type: 'function', name: source.name, description: source.description, parameters: openAIParameters(source, strict), strict };
}

/** The tool as an Anthropic tool: `{ name, description, input_schema }`. Strict tool use takes the plain schema. */
export function anthropicToolFrom(source: ToolFormatSource, options: ToolFormatOptions = {}): AnthropicTool {
  const tool = { name: source.name, description: source.description, input_schema: inputSchemaCopy(source.name, source.jsonSchema) };
  return options.strict === true ? { ...tool, strict: true } : tool;
}

function openAIParameters(source: ToolFormatSource, strict: boolean): ToolInputSchema {
  if (!strict) return inputSchemaCopy(source.name, source.jsonSchema);
  if (source.strictJsonSchema === undefined) {
    throw new TypeError(`Tool "${source.name}" has no strict JSON Schema; leave strict off or give it strictJsonSchema.`);
  }
  return inputSchemaCopy(source.name, source.strictJsonSchema);
}

/**
 * A fresh copy each time: callers (LangChain's tool(), for one) edit the definition they are
 * given, and that must neither fail nor change the next definition.
 */
function inputSchemaCopy(toolName: string, schema: JsonSchema): ToolInputSchema {
  if (!isToolInputSchema(schema)) {
    throw new TypeError(`Tool "${toolName}" needs a JSON Schema with type "object" at the root; got ${JSON.stringify(schema.type)}.`);
  }
  return structuredClone(schema);
}
