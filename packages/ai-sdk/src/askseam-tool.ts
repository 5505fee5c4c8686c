/**
 * The structural shape of an askseam tool object (`askUserQuestionTool` of @askseam/tool-ask-user,
 * `exitPlanModeTool` of @askseam/plan-mode, the clarify tools), limited to the fields this package
 * reads, so any tool of that shape (a `defineTool()` tool included) can be offered to the AI SDK.
 */
export interface AskseamTool<Context> {
  readonly name: string;
  readonly description: string;
  /** The input as JSON Schema: a fresh copy per read. */
  readonly jsonSchema: object;
  /** Never throws: a model mistake or a failed ask is an error result with corrective text. */
  execute(args: unknown, context: Context): Promise<AskseamToolOutput>;
}

/**
 * What an askseam tool returns and what the AI SDK keeps as the tool call's output (in
 * `result.toolResults`, `onStepFinish`, UI messages). The model reads only `text`.
 */
export type AskseamToolOutput = { isError: false; text: string } | { isError: true; text: string; code: string };
