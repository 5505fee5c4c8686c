import { describe, expect, it } from 'vitest';
import { askUserQuestionJsonSchema, askUserQuestionStrictJsonSchema, toolJsonSchema, type JsonSchema } from './json-schema.js';
import { askUserQuestionArgsSchema, askUserQuestionStrictArgsSchema } from './schema.js';
import { askUserQuestionTool } from './tool.js';
import { toAnthropicTool, toOpenAIResponsesTool, toOpenAITool } from './adapters.js';

// What LangChain's tool() and similar wrappers do to the schema they are given: add keys at the
// root and inside nested objects. On a frozen schema that throws "object is not extensible".
function editLikeAFramework(schema: JsonSchema): void {
  Object.assign(schema, { title: 'edited', $schema: 'http://json-schema.org/draft-07/schema#' });
  const questions = schema.properties?.questions as { items: Record<string, unknown> };
  questions.items.additionalProperties = true;
}

const pristinePlain = toolJsonSchema(askUserQuestionArgsSchema);
const pristineStrict = toolJsonSchema(askUserQuestionStrictArgsSchema);

describe('the JSON Schemas handed out are the caller’s to edit', () => {
  it('gives a fresh, editable copy on every read of askUserQuestionTool.jsonSchema and .strictJsonSchema', () => {
    const plain = askUserQuestionTool.jsonSchema;
    const strict = askUserQuestionTool.strictJsonSchema;
    expect(() => editLikeAFramework(plain)).not.toThrow();
    expect(() => editLikeAFramework(strict)).not.toThrow();
    expect(askUserQuestionTool.jsonSchema).toEqual(pristinePlain);
    expect(askUserQuestionTool.strictJsonSchema).toEqual(pristineStrict);
    expect(askUserQuestionTool.jsonSchema).not.toBe(askUserQuestionTool.jsonSchema);
  });

  it('lets the exported constants be edited without changing the tool or the adapters', () => {
    try {
      expect(() => editLikeAFramework(askUserQuestionJsonSchema)).not.toThrow();
      expect(() => editLikeAFramework(askUserQuestionStrictJsonSchema)).not.toThrow();
      expect(askUserQuestionTool.jsonSchema).toEqual(pristinePlain);
      expect(toOpenAITool().function.parameters).toEqual(pristinePlain);
      expect(toOpenAITool({ strict: true }).function.parameters).toEqual(pristineStrict);
      expect(toOpenAIResponsesTool({ strict: true }).parameters).toEqual(pristineStrict);
      expect(toAnthropicTool().input_schema).toEqual(pristinePlain);
    } finally {
      // Put the module's constants back for the other tests in this file's worker.
      for (const [edited, pristine] of [
        [askUserQuestionJsonSchema, pristinePlain],
        [askUserQuestionStrictJsonSchema, pristineStrict],
      ] as const) {
        for (const key of Object.keys(edited)) delete (edited as Record<string, unknown>)[key];
        Object.assign(edited, structuredClone(pristine));
      }
    }
  });

  it('hands out adapter schemas that can be edited without changing the next definition', () => {
    const first = toAnthropicTool();
    expect(() => editLikeAFramework(first.input_schema)).not.toThrow();
    expect(toAnthropicTool().input_schema).toEqual(pristinePlain);
  });

  it('makes toolJsonSchema return a new editable object on every call', () => {
    const first = toolJsonSchema(askUserQuestionArgsSchema);
    expect(() => editLikeAFramework(first)).not.toThrow();
    expect(toolJsonSchema(askUserQuestionArgsSchema)).toEqual(pristinePlain);
  });

  it('refuses a zod schema whose root is not an object, since no tool format takes one', async () => {
    const z = await import('zod');
    expect(() => toolJsonSchema(z.string())).toThrow(/must be an object schema.*"string"/);
  });
});
