import * as z from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  askUserQuestionTool,
  defineTool,
  errorResult,
  toAnthropicTool,
  toOpenAIResponsesTool,
  toOpenAITool,
  type AnyTool,
  type AskToolErrorCode,
  type AskUserQuestionContext,
  type StrictTool,
  type Tool,
  type ToolInputSchema,
  type ToolResult,
} from './index.js';

// A tool of the reader's own, defined the way every built-in tool is.
const lookupArgsSchema = z.strictObject({ city: z.string().describe('The city to look up.'), units: z.enum(['metric', 'imperial']).optional() });
interface LookupContext {
  temperatures: Map<string, number>;
}
const lookupTool = defineTool({
  name: 'lookup_temperature',
  description: 'Look up the temperature of a city.',
  parameters: lookupArgsSchema,
  async execute(rawArgs: unknown, context: LookupContext): Promise<ToolResult<'INVALID_ARGUMENTS' | 'UNKNOWN_CITY'>> {
    const parsed = lookupArgsSchema.safeParse(rawArgs);
    if (!parsed.success) return errorResult('INVALID_ARGUMENTS', 'The arguments do not fit the schema.', 'Send { city }.');
    const temperature = context.temperatures.get(parsed.data.city);
    if (temperature === undefined) return errorResult('UNKNOWN_CITY', `No temperature for ${parsed.data.city}.`, 'Ask for another city.');
    return { isError: false, text: JSON.stringify({ temperature }) };
  },
});

describe('defineTool', () => {
  it('builds a frozen tool with the name, description, zod schema, JSON Schema and execute', async () => {
    expect(Object.isFrozen(lookupTool)).toBe(true);
    expect(lookupTool).toMatchObject({ name: 'lookup_temperature', description: 'Look up the temperature of a city.', parameters: lookupArgsSchema });
    expect(lookupTool.jsonSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'The city to look up.' }, units: { type: 'string', enum: ['metric', 'imperial'] } },
      required: ['city'],
      additionalProperties: false,
    });
    const context = { temperatures: new Map([['Oslo', 4]]) };
    await expect(lookupTool.execute({ city: 'Oslo' }, context)).resolves.toEqual({ isError: false, text: '{"temperature":4}' });
    await expect(lookupTool.execute({ city: 'Lima' }, context)).resolves.toMatchObject({ isError: true, code: 'UNKNOWN_CITY' });
  });

  it('has no strict form unless strictParameters is given, and refuses a strict definition of a tool without one', () => {
    expect(lookupTool.strictJsonSchema).toBeUndefined();
    expect(() => toOpenAITool(lookupTool as AnyTool as StrictTool, { strict: true })).toThrow(/lookup_temperature.*no strict JSON Schema/);
  });

  it('uses the plain schema as the strict one when strictParameters is the same schema', () => {
    const closed = z.strictObject({ city: z.string() });
    const tool = defineTool({ name: 'strict_lookup', description: 'Look up.', parameters: closed, strictParameters: closed, execute: lookupTool.execute });
    expect(tool.strictJsonSchema).toEqual(tool.jsonSchema);
    expect(toOpenAITool(tool, { strict: true }).function).toMatchObject({ name: 'strict_lookup', strict: true, parameters: tool.jsonSchema });
  });

  it('hands out a fresh copy of each schema on every read, so an edit reaches no one else', () => {
    const edited = lookupTool.jsonSchema;
    (edited.properties as Record<string, unknown>).extra = { type: 'string' };
    const strict = askUserQuestionTool.strictJsonSchema;
    strict.required = [];
    expect(Object.keys(lookupTool.jsonSchema.properties ?? {})).toEqual(['city', 'units']);
    expect(askUserQuestionTool.strictJsonSchema.required).toEqual(['questions']);
  });

  it('keeps the definition’s execute, so a built-in tool runs exactly its execute function', () => {
    const execute = async (): Promise<ToolResult> => ({ isError: false, text: 'ok' });
    expect(defineTool({ name: 'noop', description: 'Nothing.', parameters: z.object({}), execute }).execute).toBe(execute);
  });

  it.each([
    ['an empty name', { name: '' }, /tool name must be 1–64 letters/],
    ['a name with a space', { name: 'look up' }, /got "look up"/],
    ['a name over 64 characters', { name: 'x'.repeat(65) }, /1–64/],
    ['a blank description', { description: '  ' }, /"lookup" needs a description/],
    ['no execute', { execute: undefined }, /"lookup" needs an execute/],
    ['arguments that are not an object', { parameters: z.string() }, /must be an object schema/],
  ])('refuses %s with a TypeError saying what to fix', (_, change, message) => {
    const definition = { name: 'lookup', description: 'Look up.', parameters: z.object({}), execute: lookupTool.execute, ...change };
    expect(() => defineTool(definition as Parameters<typeof defineTool>[0])).toThrow(TypeError);
    expect(() => defineTool(definition as Parameters<typeof defineTool>[0])).toThrow(message);
  });
});

describe('the generic adapters', () => {
  it('take any tool, and still mean ask_user_question when given no tool', () => {
    expect(toOpenAITool()).toEqual(toOpenAITool(askUserQuestionTool));
    expect(toOpenAITool({ strict: true })).toEqual(toOpenAITool(askUserQuestionTool, { strict: true }));
    expect(toOpenAIResponsesTool({ strict: true })).toEqual(toOpenAIResponsesTool(askUserQuestionTool, { strict: true }));
    expect(toAnthropicTool()).toEqual(toAnthropicTool(askUserQuestionTool));
    expect(toOpenAITool(lookupTool)).toEqual({
      type: 'function',
      function: { name: 'lookup_temperature', description: 'Look up the temperature of a city.', parameters: lookupTool.jsonSchema },
    });
    expect(toOpenAIResponsesTool(lookupTool)).toMatchObject({ name: 'lookup_temperature', strict: false, parameters: lookupTool.jsonSchema });
    expect(toAnthropicTool(lookupTool)).toEqual({ name: 'lookup_temperature', description: 'Look up the temperature of a city.', input_schema: lookupTool.jsonSchema });
  });

  it('build plain definitions when handed to map, which passes an index second', () => {
    const tools: AnyTool[] = [askUserQuestionTool, lookupTool];
    const viaMap = tools.map(toOpenAITool as (tool: AnyTool, index: number) => ReturnType<typeof toOpenAITool>);
    expect(viaMap).toEqual(tools.map((tool) => toOpenAITool(tool)));
    expect(viaMap.map((tool) => 'strict' in tool.function)).toEqual([false, false]);
  });
});

describe('the Tool type', () => {
  it('types a defined tool by its schema, context, codes and name', () => {
    expectTypeOf(lookupTool).toEqualTypeOf<Tool<typeof lookupArgsSchema, LookupContext, 'INVALID_ARGUMENTS' | 'UNKNOWN_CITY', 'lookup_temperature'>>();
    expectTypeOf(lookupTool.name).toEqualTypeOf<'lookup_temperature'>();
    expectTypeOf(lookupTool.parameters).toEqualTypeOf<typeof lookupArgsSchema>();
    expectTypeOf(lookupTool.jsonSchema).toEqualTypeOf<ToolInputSchema>();
    expectTypeOf(lookupTool.strictJsonSchema).toEqualTypeOf<ToolInputSchema | undefined>();
    expectTypeOf(lookupTool.execute).parameters.toEqualTypeOf<[unknown, LookupContext]>();
    expectTypeOf(lookupTool.execute).returns.resolves.toEqualTypeOf<ToolResult<'INVALID_ARGUMENTS' | 'UNKNOWN_CITY'>>();
  });

  it('types a result as text, isError and, on an error, a code', () => {
    expectTypeOf<ToolResult<'X'>>().toEqualTypeOf<{ isError: false; text: string } | { isError: true; text: string; code: 'X' }>();
  });

  it('types a tool defined with strictParameters as a StrictTool, whose strict schema is always there', () => {
    expectTypeOf(askUserQuestionTool).toExtend<StrictTool>();
    expectTypeOf(askUserQuestionTool.strictJsonSchema).toEqualTypeOf<ToolInputSchema>();
    expectTypeOf(askUserQuestionTool).toEqualTypeOf<StrictTool<typeof askUserQuestionTool.parameters, AskUserQuestionContext, AskToolErrorCode, 'ask_user_question'>>();
  });

  it('lets any tool be passed where AnyTool is taken, and only a strict one with strict: true', () => {
    expectTypeOf(lookupTool).toExtend<AnyTool>();
    expectTypeOf(askUserQuestionTool).toExtend<AnyTool>();
    // @ts-expect-error: the tool has no strict form, so strict: true is refused at compile time.
    expect(() => toOpenAITool(lookupTool, { strict: true })).toThrow(TypeError);
    // @ts-expect-error: the same for the Responses API.
    expect(() => toOpenAIResponsesTool(lookupTool, { strict: true })).toThrow(TypeError);
  });
});
