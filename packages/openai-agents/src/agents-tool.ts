import { tool, type FunctionTool } from '@openai/agents';

/**
 * What this adapter reads from an askseam tool (`askUserQuestionTool`, `exitPlanModeTool`, the
 * clarify tools, or one of your own with the same shape). Structural on purpose: any tool object
 * with these fields works, whichever askseam package made it.
 */
export interface AskseamToolLike<Context> {
  readonly name: string;
  readonly description: string;
  /** The arguments as JSON Schema, optional fields not required. */
  readonly jsonSchema: object;
  /** The arguments as JSON Schema for OpenAI strict mode, when the tool has one. */
  readonly strictJsonSchema?: object;
  /** Never throws at the model loop: a failure is `{ isError: true, text }`, the text written for the model. */
  execute(args: unknown, context: Context): Promise<{ isError: boolean; text: string }>;
}

export interface AgentsToolOptions {
  /**
   * Offer the tool in OpenAI strict mode. Default: `true` when the tool has a `strictJsonSchema`
   * (that schema is sent), otherwise `false` (the plain `jsonSchema` is sent, optional fields
   * optional). `true` on a tool without one lets the SDK make the plain schema strict itself; it
   * throws `UserError` when it cannot.
   */
  strict?: boolean;
}

/** The abort signal of the call: the caller's, the run's, or both (either withdraws the question). */
function callSignal(own: AbortSignal | undefined, run: AbortSignal | undefined): AbortSignal | undefined {
  if (own === undefined) return run;
  if (run === undefined) return own;
  return AbortSignal.any([own, run]);
}

/**
 * An askseam tool as an Agents SDK function tool. The SDK gets a JSON Schema (never a zod schema),
 * so it only parses the JSON and hands the arguments over unchecked: askseam's own reading runs,
 * and a model mistake comes back to the model as askseam's corrective text. The run's abort
 * signal withdraws a question that is still waiting.
 */
export function agentsToolFrom<Context extends { signal?: AbortSignal | undefined }>(
  source: AskseamToolLike<Context>,
  context: Context,
  options: AgentsToolOptions = {},
): FunctionTool {
  const strict = options.strict ?? source.strictJsonSchema !== undefined;
  // Read each getter once: askseam hands out a fresh copy per read, which the SDK may edit.
  const parameters = strict ? (source.strictJsonSchema ?? source.jsonSchema) : source.jsonSchema;
  return tool({
    name: source.name,
    description: source.description,
    // The SDK's types demand `additionalProperties: true` of a non-strict schema; at run time it
    // sends any object schema as it is, and askseam's schemas close their objects on purpose.
    parameters: parameters as never,
    strict: strict as never,
    execute: async (input: unknown, _runContext: unknown, details?: { signal?: AbortSignal }) => {
      const signal = callSignal(context.signal, details?.signal);
      const result = await source.execute(input, signal === undefined ? context : { ...context, signal });
      return result.text;
    },
  }) as FunctionTool;
}
