import { askUserQuestionTool } from './tool.js';
import type { StrictTool } from './define-tool.js';
import {
  anthropicToolFrom,
  openAIFunctionToolFrom,
  openAIResponsesToolFrom,
  type AnthropicTool,
  type OpenAIFunctionTool,
  type OpenAIResponsesFunctionTool,
  type ToolFormatSource,
} from './tool-formats.js';

// Any tool in each provider's format. With no tool, ask_user_question (what these functions did
// before there was more than one tool, and still the common case).

export interface OpenAIToolOptions {
  /**
   * Ask for strict function calling. The parameters then require every field and mark the
   * optional ones nullable (the model sends null for "not used"). Leave it off for
   * OpenAI-compatible servers that do not implement strict mode. Only for a tool with a strict
   * form (`strictJsonSchema`).
   */
  strict?: boolean;
}

export interface AnthropicToolOptions {
  /** Ask for strict tool use. The plain schema qualifies: every object is closed. */
  strict?: boolean;
}

/** What the adapters read from a tool: any `defineTool()` tool (or an object of that shape) fits. */
type StrictSource = Pick<StrictTool, 'name' | 'description' | 'jsonSchema' | 'strictJsonSchema'>;

/** `ask_user_question` as an OpenAI Chat Completions function tool: `{ type: 'function', function: { … } }`. */
export function toOpenAITool(options?: OpenAIToolOptions): OpenAIFunctionTool;
/** A tool with a strict form as an OpenAI Chat Completions function tool, strict or not. */
export function toOpenAITool(tool: StrictSource, options?: OpenAIToolOptions): OpenAIFunctionTool;
/** Any tool as an OpenAI Chat Completions function tool (not strict: the tool has no strict form). */
export function toOpenAITool(tool: ToolFormatSource, options?: { strict?: false }): OpenAIFunctionTool;
/** A tool (default `ask_user_question`) as an OpenAI Chat Completions function tool: `{ type: 'function', function: { … } }`. A fresh copy each time. */
export function toOpenAITool(toolOrOptions?: ToolFormatSource | OpenAIToolOptions, options?: OpenAIToolOptions): OpenAIFunctionTool {
  const [tool, formatOptions] = toolAndOptions(toolOrOptions, options);
  return openAIFunctionToolFrom(tool, formatOptions);
}

/** `ask_user_question` as an OpenAI Responses API function tool: `{ type: 'function', name, description, parameters, strict }`. */
export function toOpenAIResponsesTool(options?: OpenAIToolOptions): OpenAIResponsesFunctionTool;
/** A tool with a strict form as an OpenAI Responses API function tool, strict or not. */
export function toOpenAIResponsesTool(tool: StrictSource, options?: OpenAIToolOptions): OpenAIResponsesFunctionTool;
/** Any tool as an OpenAI Responses API function tool, `strict: false` (the tool has no strict form). */
export function toOpenAIResponsesTool(tool: ToolFormatSource, options?: { strict?: false }): OpenAIResponsesFunctionTool;
/** A tool (default `ask_user_question`) as an OpenAI Responses API function tool. A fresh copy each time. */
export function toOpenAIResponsesTool(toolOrOptions?: ToolFormatSource | OpenAIToolOptions, options?: OpenAIToolOptions): OpenAIResponsesFunctionTool {
  const [tool, formatOptions] = toolAndOptions(toolOrOptions, options);
  return openAIResponsesToolFrom(tool, formatOptions);
}

/** `ask_user_question` as an Anthropic tool: `{ name, description, input_schema }`. */
export function toAnthropicTool(options?: AnthropicToolOptions): AnthropicTool;
/** Any tool as an Anthropic tool: `{ name, description, input_schema }`; strict tool use takes the plain schema. */
export function toAnthropicTool(tool: ToolFormatSource, options?: AnthropicToolOptions): AnthropicTool;
/** A tool (default `ask_user_question`) as an Anthropic tool. A fresh copy each time. */
export function toAnthropicTool(toolOrOptions?: ToolFormatSource | AnthropicToolOptions, options?: AnthropicToolOptions): AnthropicTool {
  const [tool, formatOptions] = toolAndOptions(toolOrOptions, options);
  return anthropicToolFrom(tool, formatOptions);
}

/**
 * Sorts out the two ways to call an adapter: `(options?)` for ask_user_question, `(tool, options?)`
 * for any tool. Options that are not an object are ignored, so `tools.map(toOpenAITool)` (which
 * passes the index second) builds plain definitions at runtime too.
 */
function toolAndOptions(
  toolOrOptions: ToolFormatSource | OpenAIToolOptions | undefined,
  options: OpenAIToolOptions | undefined,
): [ToolFormatSource, OpenAIToolOptions] {
  if (isToolSource(toolOrOptions)) return [toolOrOptions, typeof options === 'object' && options !== null ? options : {}];
  return [askUserQuestionTool, toolOrOptions ?? {}];
}

function isToolSource(value: ToolFormatSource | OpenAIToolOptions | undefined): value is ToolFormatSource {
  return typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string';
}
