// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { askUserQuestionArgsSchema, askUserQuestionStrictArgsSchema } from './schema.js';

/** A JSON Schema document as zod 4 produces it. */
export type JsonSchema = z.core.JSONSchema.JSONSchema;

/**
 * A zod schema of tool arguments as frozen JSON Schema, straight from zod 4's `z.toJSONSchema`.
 * The `$schema` dialect marker is left out: tool formats take the schema as a parameter
 * description, and none of them lists `$schema` among the keywords it supports.
 */
export function toolJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(schema, { io: 'input' });
  return deepFreeze(parameters);
}

// Shared module-level constants: frozen so one caller's edit cannot change every tool definition.
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The parameters with optional fields left out of `required`. Every object has
 * `additionalProperties: false`. Use it for Anthropic `input_schema` and non-strict OpenAI tools.
 */
export const askUserQuestionJsonSchema: JsonSchema = toolJsonSchema(askUserQuestionArgsSchema);

/**
 * The parameters for OpenAI strict function calling: every property required, the optional ones
 * typed as nullable, `additionalProperties: false` on every object.
 */
export const askUserQuestionStrictJsonSchema: JsonSchema = toolJsonSchema(askUserQuestionStrictArgsSchema);
