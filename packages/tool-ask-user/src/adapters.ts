import { askUserQuestionToolDescription, askUserQuestionToolName } from './description.js';
import { askUserQuestionJsonSchema, askUserQuestionStrictJsonSchema, type JsonSchema } from './json-schema.js';

// Plain objects in the shapes the providers document, so no SDK is needed to use the tool.

/** An OpenAI-style (Chat Completions) function tool definition. */
export interface OpenAIFunctionTool {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: JsonSchema;
    strict?: boolean;
  };
}

/** An Anthropic Messages API tool definition. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
  strict?: boolean;
}

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

/** `ask_user_question` as an OpenAI-style function tool: `{ type: 'function', function: { … } }`. */
export function toOpenAITool(options: OpenAIToolOptions = {}): OpenAIFunctionTool {
  const fn = {
    name: askUserQuestionToolName,
    description: askUserQuestionToolDescription,
    parameters: structuredClone(options.strict === true ? askUserQuestionStrictJsonSchema : askUserQuestionJsonSchema),
  };
  return { type: 'function', function: options.strict === true ? { ...fn, strict: true } : fn };
}

/** `ask_user_question` as an Anthropic tool: `{ name, description, input_schema }`. */
export function toAnthropicTool(options: AnthropicToolOptions = {}): AnthropicTool {
  const tool = {
    name: askUserQuestionToolName,
    description: askUserQuestionToolDescription,
    // A copy each time: a caller that edits the definition must not change everyone's schema.
    input_schema: structuredClone(askUserQuestionJsonSchema),
  };
  return options.strict === true ? { ...tool, strict: true } : tool;
}
