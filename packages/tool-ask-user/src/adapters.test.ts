import { describe, expect, it } from 'vitest';
import { anthropicProblems, openAIProblems, openAIStrictProblems } from '../test/schema-rules.js';
import { toAnthropicTool, toOpenAIResponsesTool, toOpenAITool } from './adapters.js';
import { anthropicToolFrom, openAIFunctionToolFrom, openAIResponsesToolFrom } from './tool-formats.js';
import { askUserQuestionToolDescription } from './description.js';
import { askUserQuestionJsonSchema, askUserQuestionStrictJsonSchema } from './json-schema.js';

// OpenAI and Anthropic both document tool names as 1–64 letters, digits, underscores or dashes.
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

describe('toOpenAITool', () => {
  it('builds a function tool with the name, the description and the plain parameters', () => {
    const tool = toOpenAITool();
    expect(tool).toEqual({
      type: 'function',
      function: { name: 'ask_user_question', description: askUserQuestionToolDescription, parameters: askUserQuestionJsonSchema },
    });
    expect(tool.function.name).toMatch(toolNamePattern);
    expect('strict' in tool.function).toBe(false);
  });

  it('builds parameters accepted by the documented non-strict rules', () => {
    expect(openAIProblems(toOpenAITool().function.parameters as Record<string, unknown>)).toEqual([]);
  });

  it('with strict, sets strict: true and uses the strict parameters', () => {
    const tool = toOpenAITool({ strict: true });
    expect(tool.function.strict).toBe(true);
    expect(tool.function.parameters).toEqual(askUserQuestionStrictJsonSchema);
  });

  it('with strict, builds parameters accepted by the documented strict-mode rules', () => {
    expect(openAIStrictProblems(toOpenAITool({ strict: true }).function.parameters as Record<string, unknown>)).toEqual([]);
  });

  it('hands out a fresh copy, so editing one definition leaves the next untouched', () => {
    const edited = toOpenAITool();
    (edited.function.parameters as { properties: Record<string, unknown> }).properties.extra = { type: 'string' };
    expect(toOpenAITool().function.parameters).toEqual(askUserQuestionJsonSchema);
    expect(Object.keys(askUserQuestionJsonSchema.properties ?? {})).toEqual(['questions']);
  });
});

describe('toAnthropicTool', () => {
  it('builds { name, description, input_schema } with the plain parameters', () => {
    const tool = toAnthropicTool();
    expect(tool).toEqual({ name: 'ask_user_question', description: askUserQuestionToolDescription, input_schema: askUserQuestionJsonSchema });
    expect(tool.name).toMatch(toolNamePattern);
  });

  it('builds an input_schema accepted by the documented rules, strict tool use included', () => {
    const schema = toAnthropicTool().input_schema as Record<string, unknown>;
    expect(anthropicProblems(schema)).toEqual([]);
    expect(anthropicProblems(schema, { strict: true })).toEqual([]);
  });

  it('with strict, sets strict: true beside the same input_schema', () => {
    expect(toAnthropicTool({ strict: true })).toEqual({ ...toAnthropicTool(), strict: true });
  });
});

describe('the documented-rules checks themselves', () => {
  // Guards against a checker that passes everything: each broken schema must be refused.
  const open = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
  const optional = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
  const nestedOpen = {
    type: 'object',
    properties: { list: { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] } } },
    required: ['list'],
    additionalProperties: false,
  };

  it('refuses an object without additionalProperties: false, at any depth', () => {
    expect(openAIStrictProblems(open)).toContain('#: additionalProperties must be false');
    expect(openAIStrictProblems(nestedOpen)).toContain('#/properties/list/items: additionalProperties must be false');
    expect(anthropicProblems(nestedOpen, { strict: true })).toContain('#/properties/list/items: additionalProperties must be false');
  });

  it('refuses an optional property in OpenAI strict mode', () => {
    expect(openAIStrictProblems(optional)).toContain('#: property "a" must be listed in required');
  });

  it('refuses a $schema keyword, a non-object root and length constraints', () => {
    expect(openAIStrictProblems({ ...optional, required: ['a'], $schema: 'https://json-schema.org/draft/2020-12/schema' })).toEqual([
      '#: keyword "$schema" is not supported in strict mode',
    ]);
    expect(openAIProblems({ type: 'array' })).toEqual(['#: the root must have type "object"']);
    expect(anthropicProblems({ type: 'string' })).toEqual(['#: input_schema must have type "object"']);
    expect(anthropicProblems({ ...optional, properties: { a: { type: 'string', minLength: 1 } } }, { strict: true })).toEqual([
      '#/properties/a: keyword "minLength" is not supported in strict tool use',
    ]);
  });
});

describe('toOpenAIResponsesTool', () => {
  it('builds a flat Responses function tool with the plain parameters and strict: false', () => {
    expect(toOpenAIResponsesTool()).toEqual({
      type: 'function',
      name: 'ask_user_question',
      description: askUserQuestionToolDescription,
      parameters: askUserQuestionJsonSchema,
      strict: false,
    });
  });

  it('with strict, uses the strict parameters and strict: true', () => {
    const tool = toOpenAIResponsesTool({ strict: true });
    expect(tool.strict).toBe(true);
    expect(tool.parameters).toEqual(askUserQuestionStrictJsonSchema);
    expect(openAIStrictProblems(tool.parameters as Record<string, unknown>)).toEqual([]);
  });
});

describe('the shared tool formats', () => {
  const source = { name: 'lookup', description: 'Look a thing up.', jsonSchema: { type: 'object', properties: {}, additionalProperties: false } } as const;

  it('builds all three formats from one source', () => {
    expect(openAIFunctionToolFrom(source)).toEqual({ type: 'function', function: { name: 'lookup', description: 'Look a thing up.', parameters: source.jsonSchema } });
    expect(openAIResponsesToolFrom(source)).toEqual({ type: 'function', name: 'lookup', description: 'Look a thing up.', parameters: source.jsonSchema, strict: false });
    expect(anthropicToolFrom(source, { strict: true })).toEqual({ name: 'lookup', description: 'Look a thing up.', input_schema: source.jsonSchema, strict: true });
  });

  it('refuses strict mode for a tool without a strict schema, saying what to do', () => {
    expect(() => openAIFunctionToolFrom(source, { strict: true })).toThrow(/"lookup" has no strict JSON Schema; leave strict off/);
    expect(() => openAIResponsesToolFrom(source, { strict: true })).toThrow(TypeError);
  });

  it('refuses a schema whose root is not an object', () => {
    expect(() => anthropicToolFrom({ ...source, jsonSchema: { type: 'string' } })).toThrow(/"lookup" needs a JSON Schema with type "object" at the root; got "string"/);
  });
});
