import {
  answerText,
  askToolErrorHints,
  askUserQuestionTool,
  errorResult,
  parseAskUserQuestionArgs,
  type AskToolResult,
} from '@askseam/tool-ask-user';
import { answerMismatch, type AskUserQuestionAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import { DynamicStructuredTool, type ToolRunnableConfig, type ToolSchemaBase } from '@langchain/core/tools';
import { interrupt } from '@langchain/langgraph';
import { passThroughSchema, toolReply, type AskseamLangChainTool } from './tool.js';

/** The value the tool pauses the thread with: the questions as askseam asks them, every field kept. */
export interface AskUserQuestionInterrupt {
  questions: AskUserQuestionItem[];
}

/**
 * `ask_user_question` as a LangChain tool that pauses the LangGraph thread instead of waiting for
 * the person: the model's call becomes `interrupt({ questions })`, saved by the graph's
 * checkpointer, and the thread is resumed later (by `langGraphInterrupts`, or your own
 * `new Command({ resume })`) with the person's answer `{ answers }`, in this process or the next.
 *
 * The model sees askseam's schema and description. Its arguments are read by askseam, not
 * LangChain: a mistake comes back as askseam's corrective text (an error tool message) and
 * nothing is asked; a valid call keeps every field (`header`, option descriptions, `multi_select`).
 * The answer it is resumed with is checked against the questions before the model reads it.
 */
export function createAskUserQuestionInterruptTool(): AskseamLangChainTool {
  const name = askUserQuestionTool.name;
  // LangChain's declared schema types predate Standard JSON Schema, which its code reads (toJsonSchema).
  const schema = passThroughSchema(askUserQuestionTool) as unknown as ToolSchemaBase;
  return new DynamicStructuredTool({
    name,
    description: askUserQuestionTool.description,
    schema,
    func: async (args: unknown, _runManager, config?: ToolRunnableConfig) => toolReply(pauseFor(args), name, config),
  });
}

function pauseFor(args: unknown): AskToolResult {
  const parsed = parseAskUserQuestionArgs(args);
  // A bad call never pauses the thread: the model reads how to fix it and calls again.
  if (!parsed.ok) return errorResult('INVALID_ARGUMENTS', parsed.error.message, askToolErrorHints.INVALID_ARGUMENTS);
  const questions = parsed.value;
  // Throws LangGraph's GraphInterrupt the first time; on resume the node runs again and the same
  // call returns the resume value, so the questions above are read again from the same arguments.
  const answer: unknown = interrupt<AskUserQuestionInterrupt, unknown>({ questions });
  // The resume value comes from whoever resumed the thread, not from the host's checked answer.
  const mismatch = answerMismatch(questions, answer);
  if (mismatch !== undefined) {
    return errorResult('BAD_ANSWER', `The thread was resumed with an answer that does not fit the questions: ${mismatch.message}`, askToolErrorHints.BAD_ANSWER);
  }
  // answerMismatch found nothing wrong: it is an answer to these questions.
  return { isError: false, text: answerText(answer as AskUserQuestionAnswer) };
}
