import { defineTool, type StrictTool } from './define-tool.js';
import { askUserQuestionToolDescription, askUserQuestionToolName } from './description.js';
import { executeAskUserQuestion, type AskUserQuestionContext } from './execute.js';
import type { AskToolErrorCode } from './result.js';
import { askUserQuestionArgsSchema, askUserQuestionStrictArgsSchema } from './schema.js';

/**
 * Everything a model loop needs to offer `ask_user_question`, in one object: the `Tool` shape,
 * with a strict form (`strictJsonSchema`: every field required, optional ones nullable).
 */
export type AskUserQuestionTool = StrictTool<typeof askUserQuestionArgsSchema, AskUserQuestionContext, AskToolErrorCode, typeof askUserQuestionToolName>;

export const askUserQuestionTool: AskUserQuestionTool = defineTool({
  name: askUserQuestionToolName,
  description: askUserQuestionToolDescription,
  parameters: askUserQuestionArgsSchema,
  strictParameters: askUserQuestionStrictArgsSchema,
  execute: executeAskUserQuestion,
});
