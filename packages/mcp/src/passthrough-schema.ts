// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

/**
 * A zod object schema for `McpServer.registerTool` that lists as exactly `jsonSchema` and lets
 * every argument object through unchanged.
 *
 * Why: `McpServer` validates arguments with the tool's zod schema before the handler runs and
 * answers a misfit with its own generic "Input validation error". askseam's tools check their
 * arguments themselves and answer a model's mistake with a corrective text that says how to fix
 * the call, so the SDK must not check first. zod 4 copies a schema's metadata into its JSON
 * Schema, which is how the model still sees askseam's own schema in `tools/list`.
 */
export function passThroughArguments(jsonSchema: Record<string, unknown>): z.ZodObject {
  return z.looseObject({}).meta(structuredClone(jsonSchema));
}
