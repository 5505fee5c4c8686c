import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type ToolRunnableConfig, type ToolSchemaBase } from '@langchain/core/tools';

/**
 * The fields of an askseam tool (`askUserQuestionTool`, `exitPlanModeTool`, the clarify tools)
 * this adapter uses. Written structurally, so any tool of that shape fits.
 */
export interface AskseamToolShape<Context> {
  readonly name: string;
  readonly description: string;
  /** The arguments as JSON Schema; a fresh, editable copy on every read. */
  readonly jsonSchema: Record<string, unknown>;
  execute(args: unknown, context: Context): Promise<{ isError: boolean; text: string; code?: string }>;
}

/**
 * The schema a LangChain tool is given: a Standard JSON Schema, so LangChain hands the model the
 * askseam JSON Schema exactly as it is, and has no validator of its own to run on the arguments.
 */
export interface AskseamLangChainSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'askseam';
    readonly jsonSchema: {
      readonly input: () => Record<string, unknown>;
      readonly output: () => Record<string, unknown>;
    };
  };
}

/** What `toLangChainTool` returns: a LangChain structured tool, typed as every agent API takes it. */
export type AskseamLangChainTool = DynamicStructuredTool;

/**
 * An askseam tool as a LangChain tool, for `createAgent({ tools })`, `ToolNode` or
 * `model.bindTools`. The model sees the tool's own JSON Schema; its arguments go to askseam's
 * `execute` unchecked by LangChain, so a mistake comes back as askseam's corrective text (a tool
 * message with `status: 'error'`), never LangChain's generic "did not match expected schema".
 * LangChain's run signal (the run was aborted) withdraws the question.
 */
export function toLangChainTool<Context extends { signal?: AbortSignal | undefined }>(
  askseamTool: AskseamToolShape<Context>,
  context: Context,
): AskseamLangChainTool {
  // LangChain's declared schema types predate Standard JSON Schema, which its code reads (toJsonSchema).
  const schema = passThroughSchema(askseamTool) as unknown as ToolSchemaBase;
  return new DynamicStructuredTool({
    name: askseamTool.name,
    description: askseamTool.description,
    schema,
    func: async (args: unknown, _runManager, config?: ToolRunnableConfig) => {
      const signal = config?.signal ?? context.signal;
      const result = await askseamTool.execute(args, signal === undefined ? context : { ...context, signal });
      return toolReply(result, askseamTool.name, config);
    },
  });
}

/** What the tool gives LangChain for an askseam result: the text, or an error tool message. */
export function toolReply(result: { isError: boolean; text: string }, toolName: string, config: ToolRunnableConfig | undefined): string | ToolMessage {
  const toolCallId = config?.toolCall?.id;
  if (!result.isError || toolCallId === undefined) return result.text;
  // An error result stays marked as one, so the agent (and LangSmith) tell it from an answer.
  return new ToolMessage({ content: result.text, tool_call_id: toolCallId, name: toolName, status: 'error' });
}

/** The tool's JSON Schema as LangChain's schema, with no validator of LangChain's own. */
export function passThroughSchema(askseamTool: Pick<AskseamToolShape<unknown>, 'jsonSchema'>): AskseamLangChainSchema {
  // Read on every conversion: the tools hand out a fresh copy per read, which LangChain may edit.
  const jsonSchema = (): Record<string, unknown> => askseamTool.jsonSchema;
  return { '~standard': { version: 1, vendor: 'askseam', jsonSchema: { input: jsonSchema, output: jsonSchema } } };
}
