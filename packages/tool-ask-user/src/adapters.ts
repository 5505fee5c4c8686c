import { askUserQuestionToolDescription, askUserQuestionToolName } from './description.js';
import { askUserQuestionSchemaOriginals } from './json-schema.js';
import {
  anthropicToolFrom,
  openAIFunctionToolFrom,
  openAIResponsesToolFrom,
  type AnthropicTool,
  type OpenAIFunctionTool,
  type OpenAIResponsesFunctionTool,
  type ToolFormatSource,
} from './tool-formats.js';

// ask_user_question in each provider's format, through the shared tool-formats module.

export interface OpenAIToolOptions {
  /**
   * Ask for strict function calling. The parameters then require every field and mark the
   * optional ones nullable (the model sends null for "not used"). Leave it off for
   * OpenAI-compatible servers that do not implement strict mode.
   */
  strict?: boolean;
}

export interface AnthropicToolOptions {
  /** Ask for strict tool use. The same schema qualifies: every object is closed. */
  strict?: boolean;
}

const askUserQuestionSource: ToolFormatSource = {
  name: askUserQuestionToolName,
  description: askUserQuestionToolDescription,
  jsonSchema: askUserQuestionSchemaOriginals.plain,
  strictJsonSchema: askUserQuestionSchemaOriginals.strict,
};

/** `ask_user_question` as an OpenAI Chat Completions function tool: `{ type: 'function', function: { … } }`. */
export function toOpenAITool(options: OpenAIToolOptions = {}): OpenAIFunctionTool {
  return openAIFunctionToolFrom(askUserQuestionSource, options);
}

/** `ask_user_question` as an OpenAI Responses API function tool: `{ type: 'function', name, description, parameters, strict }`. */
export function toOpenAIResponsesTool(options: OpenAIToolOptions = {}): OpenAIResponsesFunctionTool {
  return openAIResponsesToolFrom(askUserQuestionSource, options);
}

/** `ask_user_question` as an Anthropic tool: `{ name, description, input_schema }`. */
export function toAnthropicTool(options: AnthropicToolOptions = {}): AnthropicTool {
  return anthropicToolFrom(askUserQuestionSource, options);
}
