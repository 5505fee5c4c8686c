import { askUserQuestionToolDescription, askUserQuestionToolName } from './description.js';
import { executeAskUserQuestion, type AskUserQuestionContext } from './execute.js';
import { askUserQuestionSchemaOriginals, type ToolInputSchema } from './json-schema.js';
import { askUserQuestionArgsSchema } from './schema.js';
import type { AskToolResult } from './result.js';

/** Everything a model loop needs to offer `ask_user_question`, in one object. */
export interface AskUserQuestionTool {
  readonly name: typeof askUserQuestionToolName;
  readonly description: string;
  /** The zod schema of the arguments (optional fields may be left out). */
  readonly parameters: typeof askUserQuestionArgsSchema;
  /** The arguments as JSON Schema, optional fields not required. A fresh, editable copy on every read. */
  readonly jsonSchema: ToolInputSchema;
  /**
   * The arguments as JSON Schema for OpenAI strict mode: all fields required, optional ones
   * nullable. A fresh, editable copy on every read.
   */
  readonly strictJsonSchema: ToolInputSchema;
  execute(args: unknown, context: AskUserQuestionContext): Promise<AskToolResult>;
}

export const askUserQuestionTool: AskUserQuestionTool = Object.freeze({
  name: askUserQuestionToolName,
  description: askUserQuestionToolDescription,
  parameters: askUserQuestionArgsSchema,
  // Getters, so a framework that edits the schema it is given (LangChain's tool()) can, without
  // failing on a frozen object and without changing what the next caller reads.
  get jsonSchema(): ToolInputSchema {
    return structuredClone(askUserQuestionSchemaOriginals.plain);
  },
  get strictJsonSchema(): ToolInputSchema {
    return structuredClone(askUserQuestionSchemaOriginals.strict);
  },
  execute: executeAskUserQuestion,
});
