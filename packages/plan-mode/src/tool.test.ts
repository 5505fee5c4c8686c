import { describe, expect, it } from 'vitest';
import { exitPlanModeToolDescription } from './description.js';
import { executeExitPlanMode } from './execute.js';
import { exitPlanModeTool } from './tool.js';
import { exitPlanModeJsonSchema, toAnthropicExitPlanModeTool, toOpenAIExitPlanModeTool, toOpenAIResponsesExitPlanModeTool } from './tool-definitions.js';

// This one closed object with its only field required meets both providers' documented strict rules:
// root type object, additionalProperties: false, every property required, no $schema or length keywords.
const expectedSchema = {
  type: 'object',
  properties: { plan: { type: 'string', description: expect.stringContaining('"# " title') } },
  required: ['plan'],
  additionalProperties: false,
};

describe('exit_plan_mode definitions', () => {
  it('describes { plan } as one required string in a closed object', () => {
    expect(exitPlanModeJsonSchema).toEqual(expectedSchema);
  });

  it('builds an OpenAI-style function tool, strict on request', () => {
    expect(toOpenAIExitPlanModeTool()).toEqual({
      type: 'function',
      function: { name: 'exit_plan_mode', description: exitPlanModeToolDescription, parameters: expectedSchema },
    });
    expect(toOpenAIExitPlanModeTool({ strict: true }).function.strict).toBe(true);
  });

  it('builds an OpenAI Responses function tool, strict on request', () => {
    expect(toOpenAIResponsesExitPlanModeTool()).toEqual({
      type: 'function',
      name: 'exit_plan_mode',
      description: exitPlanModeToolDescription,
      parameters: expectedSchema,
      strict: false,
    });
    expect(toOpenAIResponsesExitPlanModeTool({ strict: true }).strict).toBe(true);
  });

  it('hands out editable schema copies: an edit (as LangChain’s tool() makes) reaches no one else', () => {
    const read = exitPlanModeTool.jsonSchema;
    expect(() => Object.assign(read, { title: 'edited' })).not.toThrow();
    expect(() => Object.assign(exitPlanModeJsonSchema, { title: 'edited' })).not.toThrow();
    try {
      expect(exitPlanModeTool.jsonSchema).toEqual(expectedSchema);
      expect(toOpenAIExitPlanModeTool({ strict: true }).function.parameters).toEqual(expectedSchema);
      expect(toAnthropicExitPlanModeTool().input_schema).toEqual(expectedSchema);
    } finally {
      delete (exitPlanModeJsonSchema as { title?: string }).title;
    }
  });

  it('builds an Anthropic tool', () => {
    expect(toAnthropicExitPlanModeTool()).toEqual({ name: 'exit_plan_mode', description: exitPlanModeToolDescription, input_schema: expectedSchema });
  });

  it('bundles name, description, schemas and execute in one tool object', () => {
    expect(exitPlanModeTool).toMatchObject({ name: 'exit_plan_mode', description: exitPlanModeToolDescription, jsonSchema: exitPlanModeJsonSchema });
    expect(exitPlanModeTool.execute).toBe(executeExitPlanMode);
    expect(exitPlanModeTool.parameters.safeParse({ plan: '# A' }).success).toBe(true);
  });

  it('teaches when to call it and what the plan must look like', () => {
    expect(exitPlanModeToolDescription).toMatch(/only while you are in plan mode/);
    expect(exitPlanModeToolDescription).toMatch(/starting with a "# " title line/);
    expect(exitPlanModeToolDescription).toMatch(/Otherwise you stay in plan mode/);
  });
});
