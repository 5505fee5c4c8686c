import { toolErrorResult } from '@askseam/tool-ask-user';
import { jsonSchema, type JSONSchema7, type Tool } from 'ai';
import type { AskseamTool, AskseamToolOutput } from './askseam-tool.js';

/** An askseam tool as the AI SDK sees it: any input (askseam reads it), askseam's result as output. */
export type AskseamAiSdkTool = Tool<unknown, AskseamToolOutput>;

/** What every askseam tool's execute accepts besides the arguments: the signal that withdraws the question. */
interface SignalContext {
  signal?: AbortSignal | undefined;
}

/**
 * Offer an askseam tool to the AI SDK. The input schema is askseam's own JSON Schema, handed over
 * with `jsonSchema()` and NO validator: the SDK then passes whatever the model sent to askseam,
 * which answers a mistake with its corrective text instead of the SDK's generic "Type validation
 * failed". That text reaches the model as the tool's error output (`error-text`), an answer as
 * `text` (the compact JSON askseam returns). The abort signal the SDK gives `execute` withdraws
 * the question (`ASK_ABORTED`), together with any `signal` of `context`.
 */
export function toAiSdkTool<ToolContext extends SignalContext>(askseamTool: AskseamTool<ToolContext>, context: ToolContext): AskseamAiSdkTool {
  // A plain object rather than tool(), which is the identity at runtime and only narrows types.
  const aiSdkTool: AskseamAiSdkTool = {
    description: askseamTool.description,
    inputSchema: jsonSchema<unknown>(askseamTool.jsonSchema as JSONSchema7),
    execute: async (input, options): Promise<AskseamToolOutput> => {
      const signal = combinedSignal(context.signal, options.abortSignal);
      try {
        return await askseamTool.execute(input, signal === undefined ? context : { ...context, signal });
      } catch (error) {
        // askseam's tools never throw; a hand-made tool of the same shape might. The loop must go on.
        return toolErrorResult(error);
      }
    },
    toModelOutput: ({ output }) => (output.isError ? { type: 'error-text', value: output.text } : { type: 'text', value: output.text }),
  };
  return aiSdkTool;
}

function combinedSignal(own: AbortSignal | undefined, sdk: AbortSignal | undefined): AbortSignal | undefined {
  if (own === undefined) return sdk;
  if (sdk === undefined) return own;
  return AbortSignal.any([own, sdk]);
}
