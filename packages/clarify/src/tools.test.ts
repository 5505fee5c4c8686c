import { describe, expect, it } from 'vitest';
import {
  askClarificationJsonSchema,
  askClarificationTool,
  requestClarificationJsonSchema,
  requestClarificationTool,
  requestHumanInputJsonSchema,
  requestHumanInputTool,
  toAnthropicClarifyTool,
  toOpenAIClarifyTool,
  toOpenAIResponsesClarifyTool,
} from './tools.js';

describe('the tools as the model sees them', () => {
  it('ask_clarification takes DeerFlow\'s arguments', () => {
    const schema = askClarificationTool.jsonSchema as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(['question', 'clarification_type', 'context', 'options', 'fields']);
    expect(schema.required).toEqual(['question', 'clarification_type']);
    expect(schema.properties.clarification_type?.enum).toEqual(['missing_info', 'ambiguous_requirement', 'approach_choice', 'risk_confirmation', 'suggestion']);
    expect(JSON.stringify(schema)).toContain('"enum":["text","textarea","number","select","multi_select","checkbox","date"]');
  });

  it('request_human_input takes the 12-factor fields', () => {
    const schema = requestHumanInputTool.jsonSchema as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(['question', 'context', 'urgency', 'format', 'choices']);
    expect(schema.required).toEqual(['question']);
    expect(schema.properties.urgency?.enum).toEqual(['low', 'medium', 'high']);
    expect(schema.properties.format?.enum).toEqual(['free_text', 'yes_no', 'multiple_choice']);
  });

  it('request_clarification takes the business tool, the goal, the known arguments and the missing fields, strictly', () => {
    type ObjectSchema = { properties: Record<string, unknown>; required: string[]; additionalProperties: unknown };
    const schema = requestClarificationTool.jsonSchema as unknown as ObjectSchema & { properties: { missing_fields: { items: ObjectSchema } } };
    expect(Object.keys(schema.properties)).toEqual(['tool_name', 'goal', 'known_arguments', 'missing_fields']);
    expect(schema.required).toEqual(['tool_name', 'goal', 'missing_fields']);
    expect(schema.additionalProperties).toBe(false);
    const field = schema.properties.missing_fields.items;
    expect(Object.keys(field.properties)).toEqual(['name', 'label', 'description', 'type', 'options', 'required']);
    expect(field.required).toEqual(['name', 'label', 'description']);
    expect(field.additionalProperties).toBe(false);
    // No $defs or $ref: several providers refuse them in tool parameters.
    expect(JSON.stringify(schema)).not.toMatch(/\$defs|\$ref/);
  });

  it('adapts request_clarification to both formats', () => {
    expect(toOpenAIClarifyTool(requestClarificationTool)).toMatchObject({ type: 'function', function: { name: 'request_clarification', parameters: requestClarificationTool.jsonSchema } });
    expect(toAnthropicClarifyTool(requestClarificationTool)).toEqual({ name: 'request_clarification', description: requestClarificationTool.description, input_schema: requestClarificationTool.jsonSchema });
    expect(Object.isFrozen(requestClarificationTool)).toBe(true);
  });

  it('adapts to the OpenAI and Anthropic tool formats, a fresh copy each time', () => {
    const openai = toOpenAIClarifyTool(askClarificationTool);
    expect(openai).toMatchObject({ type: 'function', function: { name: 'ask_clarification', description: askClarificationTool.description } });
    expect(openai.function.parameters).toEqual(askClarificationTool.jsonSchema);
    expect(openai.function.parameters).not.toBe(askClarificationTool.jsonSchema);
    expect(toAnthropicClarifyTool(requestHumanInputTool)).toMatchObject({ name: 'request_human_input', input_schema: requestHumanInputTool.jsonSchema });
  });

  it('freezes the shared tool objects', () => {
    expect(Object.isFrozen(askClarificationTool)).toBe(true);
  });

  it('hands out editable JSON Schema copies: an edit (as LangChain’s tool() makes) reaches no one else', () => {
    for (const [tool, exported] of [
      [askClarificationTool, askClarificationJsonSchema],
      [requestHumanInputTool, requestHumanInputJsonSchema],
      [requestClarificationTool, requestClarificationJsonSchema],
    ] as const) {
      const pristine = structuredClone(exported);
      const read = tool.jsonSchema;
      expect(() => Object.assign(read, { title: 'edited' })).not.toThrow();
      expect(() => Object.assign(exported, { title: 'edited' })).not.toThrow();
      expect(tool.jsonSchema).toEqual(pristine);
      expect(toOpenAIClarifyTool(tool).function.parameters).toEqual(pristine);
      expect(toOpenAIResponsesClarifyTool(tool).parameters).toEqual(pristine);
      expect(toAnthropicClarifyTool(tool).input_schema).toEqual(pristine);
      delete (exported as { title?: string }).title;
    }
  });
});
