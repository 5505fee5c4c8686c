// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { askUserQuestionArgsSchema, askUserQuestionStrictArgsSchema } from './schema.js';

/** A JSON Schema document as zod 4 produces it. */
export type JsonSchema = z.core.JSONSchema.JSONSchema;

/**
 * JSON Schema of a tool's arguments. Every tool format requires an object at the root, and
 * Anthropic's SDK types require `type` to be the literal `'object'`, so the type says so.
 */
export type ToolInputSchema = JsonSchema & { type: 'object' };

/** Whether a JSON Schema has an object at the root, as every tool format requires. */
export function isToolInputSchema(schema: JsonSchema): schema is ToolInputSchema {
  return schema.type === 'object';
}

/**
 * A zod schema of tool arguments (an object) as JSON Schema, straight from zod 4's
 * `z.toJSONSchema`: a new, plain, editable object on every call. The `$schema` dialect marker is
 * left out: tool formats take the schema as a parameter description, and none of them lists
 * `$schema` among the keywords it supports.
 */
export function toolJsonSchema(schema: z.ZodType): ToolInputSchema {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(schema, { io: 'input' });
  if (!isToolInputSchema(parameters)) {
    throw new TypeError(`Tool arguments must be an object schema (z.object); this one has type ${JSON.stringify(parameters.type)}.`);
  }
  return parameters;
}

/**
 * The parameters with optional fields left out of `required`. Every object has
 * `additionalProperties: false`. Use it for Anthropic `input_schema` and non-strict OpenAI tools.
 * A plain object of your own: editing it changes nothing else (`askUserQuestionTool.jsonSchema`
 * gives a fresh copy on every read).
 */
export const askUserQuestionJsonSchema: ToolInputSchema = toolJsonSchema(askUserQuestionArgsSchema);

/**
 * The parameters for OpenAI strict function calling: every property required, the optional ones
 * typed as nullable, `additionalProperties: false` on every object. Editable, like
 * `askUserQuestionJsonSchema`.
 */
export const askUserQuestionStrictJsonSchema: ToolInputSchema = toolJsonSchema(askUserQuestionStrictArgsSchema);
