import { askUserQuestionToolDescription, askUserQuestionToolName } from './description.js';
import { executeAskUserQuestion, type AskUserQuestionContext } from './execute.js';
import { askUserQuestionJsonSchema, askUserQuestionStrictJsonSchema, type JsonSchema } from './json-schema.js';
import { askUserQuestionArgsSchema } from './schema.js';
import type { AskToolResult } from './result.js';

/** Everything a model loop needs to offer `ask_user_question`, in one object. */
export interface AskUserQuestionTool {
  readonly name: typeof askUserQuestionToolName;
  readonly description: string;
  /** The zod schema of the arguments (optional fields may be left out). */
  readonly parameters: typeof askUserQuestionArgsSchema;
  /** The arguments as JSON Schema, optional fields not required. */
  readonly jsonSchema: JsonSchema;
  /** The arguments as JSON Schema for OpenAI strict mode: all fields required, optional ones nullable. */
  readonly strictJsonSchema: JsonSchema;
  execute(args: unknown, context: AskUserQuestionContext): Promise<AskToolResult>;
}

export const askUserQuestionTool: AskUserQuestionTool = Object.freeze({
  name: askUserQuestionToolName,
  description: askUserQuestionToolDescription,
  parameters: askUserQuestionArgsSchema,
  jsonSchema: askUserQuestionJsonSchema,
  strictJsonSchema: askUserQuestionStrictJsonSchema,
  execute: executeAskUserQuestion,
});
