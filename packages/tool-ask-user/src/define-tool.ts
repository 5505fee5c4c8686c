import type * as z from 'zod';
import { toolJsonSchema, type ToolInputSchema } from './json-schema.js';
import type { AskToolResult } from './result.js';

// The one tool shape every askseam tool has (ask_user_question, exit_plan_mode, the clarification
// tools), and the one function that builds it. Provider formats (tool-formats.ts, adapters.ts) and
// framework adapters read only this shape, so a new tool needs nothing but a `defineTool()` call.

/**
 * What a tool hands back to the model loop: `{ isError: false, text }`, or
 * `{ isError: true, text, code }` with the text saying what went wrong and what to do now.
 */
export type ToolResult<Code extends string = string> = AskToolResult<Code>;

/**
 * One tool, everything a model loop or a framework adapter needs: the name and description the
 * model reads, the zod schema of the arguments, the same as JSON Schema, and `execute`.
 *
 * `Schema` is the zod schema of the arguments (the inferred arguments are `z.input<Schema>`),
 * `Context` what the host passes with each call, `Code` the codes an error result can carry.
 */
export interface Tool<Schema extends z.ZodType = z.ZodType, Context = never, Code extends string = string, Name extends string = string> {
  readonly name: Name;
  readonly description: string;
  /** The zod schema of the arguments the model is told to send. */
  readonly parameters: Schema;
  /** The arguments as JSON Schema, optional fields not required. A fresh, editable copy on every read. */
  readonly jsonSchema: ToolInputSchema;
  /**
   * The arguments for OpenAI strict mode (every field required, optional ones nullable), a fresh
   * copy on every read; `undefined` when the tool has no strict form.
   */
  readonly strictJsonSchema: ToolInputSchema | undefined;
  /**
   * Run one call with the model's raw arguments (an object or its JSON text). Resolves to a result
   * for every input, failures included: it never rejects at the model loop.
   */
  execute(rawArgs: unknown, context: Context): Promise<ToolResult<Code>>;
}

/** A tool that has a strict form: `toOpenAITool(tool, { strict: true })` accepts it. */
export type StrictTool<Schema extends z.ZodType = z.ZodType, Context = never, Code extends string = string, Name extends string = string> = Tool<
  Schema,
  Context,
  Code,
  Name
> & { readonly strictJsonSchema: ToolInputSchema };

/** Any tool, whatever its schema, context and codes: what the adapters accept. */
// `any` for the context: a function taking one specific context is not callable with another, and
// reading a tool's name and schemas does not call it.
export type AnyTool = Tool<z.ZodType, any, string, string>;

/** What `defineTool()` takes. */
export interface ToolDefinition<Schema extends z.ZodType, Context, Code extends string, Name extends string> {
  /** What the model calls the tool: 1–64 letters, digits, `_` or `-` (the rule of OpenAI and Anthropic). */
  name: Name;
  /** What the model reads to decide when and how to call it. Not blank. */
  description: string;
  /** The zod schema of the arguments; an object at the root. */
  parameters: Schema;
  /**
   * The arguments in OpenAI strict form (every field required, optional ones nullable). Pass
   * `parameters` itself when it already qualifies (every field required, every object closed).
   * Leave it out when the tool has no strict form.
   */
  strictParameters?: z.ZodType | undefined;
  /** Runs one call. Must resolve to a result for every input, never reject. */
  execute(rawArgs: unknown, context: Context): Promise<ToolResult<Code>>;
}

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** Define a tool that has a strict form (`strictParameters` given). */
export function defineTool<Schema extends z.ZodType, Context, Code extends string, Name extends string>(
  definition: ToolDefinition<Schema, Context, Code, Name> & { strictParameters: z.ZodType },
): StrictTool<Schema, Context, Code, Name>;
/** Define a tool. */
export function defineTool<Schema extends z.ZodType, Context, Code extends string, Name extends string>(
  definition: ToolDefinition<Schema, Context, Code, Name>,
): Tool<Schema, Context, Code, Name>;
/**
 * Build a tool: checks the definition (a mistake here is a programming error, so a `TypeError`),
 * turns the zod schemas into JSON Schema once, and returns a frozen tool whose `jsonSchema` and
 * `strictJsonSchema` hand out fresh copies. `execute` is the definition's own function.
 */
export function defineTool<Schema extends z.ZodType, Context, Code extends string, Name extends string>(
  definition: ToolDefinition<Schema, Context, Code, Name>,
): Tool<Schema, Context, Code, Name> {
  const { name, description, parameters, strictParameters, execute } = definition;
  if (typeof name !== 'string' || !toolNamePattern.test(name)) {
    throw new TypeError(`A tool name must be 1–64 letters, digits, "_" or "-" (what OpenAI and Anthropic accept); got ${JSON.stringify(name)}.`);
  }
  if (typeof description !== 'string' || description.trim() === '') {
    throw new TypeError(`Tool "${name}" needs a description: the model reads it to decide when and how to call the tool.`);
  }
  if (typeof execute !== 'function') throw new TypeError(`Tool "${name}" needs an execute(rawArgs, context) function.`);

  // The originals stay in this closure; readers get copies, so a framework that edits the schema it
  // is given (LangChain's tool() does) neither fails on a frozen object nor changes the next read.
  const plain = toolJsonSchema(parameters);
  const strict = strictParameters === undefined ? undefined : strictParameters === parameters ? plain : toolJsonSchema(strictParameters);
  return Object.freeze({
    name,
    description,
    parameters,
    get jsonSchema(): ToolInputSchema {
      return structuredClone(plain);
    },
    get strictJsonSchema(): ToolInputSchema | undefined {
      return strict === undefined ? undefined : structuredClone(strict);
    },
    execute,
  });
}
