import { describe, expect, it } from 'vitest';
import { askClarificationTool, requestHumanInputTool, toAnthropicClarifyTool, toOpenAIClarifyTool } from './tools.js';

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

  it('adapts to the OpenAI and Anthropic tool formats, a fresh copy each time', () => {
    const openai = toOpenAIClarifyTool(askClarificationTool);
    expect(openai).toMatchObject({ type: 'function', function: { name: 'ask_clarification', description: askClarificationTool.description } });
    expect(openai.function.parameters).toEqual(askClarificationTool.jsonSchema);
    expect(openai.function.parameters).not.toBe(askClarificationTool.jsonSchema);
    expect(toAnthropicClarifyTool(requestHumanInputTool)).toMatchObject({ name: 'request_human_input', input_schema: requestHumanInputTool.jsonSchema });
  });

  it('freezes the shared tool objects', () => {
    expect(Object.isFrozen(askClarificationTool)).toBe(true);
    expect(Object.isFrozen(askClarificationTool.jsonSchema)).toBe(true);
  });
});
