// exit_plan_mode's adapters against the real SDK types (openai, @anthropic-ai/sdk, devDependencies
// only): tsc checks the assignments, and openai's own strict transform runs at runtime.
import type { BetaTool, BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages';
import type { Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { toStrictJsonSchema } from 'openai/lib/transform';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { toAnthropicTool, toOpenAIResponsesTool, toOpenAITool } from '@askseam/tool-ask-user';
import { exitPlanModeTool, toAnthropicExitPlanModeTool, toOpenAIExitPlanModeTool, toOpenAIResponsesExitPlanModeTool } from './index.js';

describe('exit_plan_mode and the openai SDK', () => {
  it('types the Chat Completions and Responses tools, plain and strict, as the SDK’s tool types', () => {
    const chat: ChatCompletionTool[] = [toOpenAIExitPlanModeTool(), toOpenAIExitPlanModeTool({ strict: true })];
    const responses: FunctionTool[] = [toOpenAIResponsesExitPlanModeTool(), toOpenAIResponsesExitPlanModeTool({ strict: true })];
    expectTypeOf(toOpenAIExitPlanModeTool).returns.toExtend<ChatCompletionTool>();
    expectTypeOf(toOpenAIResponsesExitPlanModeTool).returns.toExtend<FunctionTool>();
    expect(chat.map((tool) => tool.type)).toEqual(['function', 'function']);
    expect(responses.map((tool) => [tool.name, tool.strict])).toEqual([
      ['exit_plan_mode', false],
      ['exit_plan_mode', true],
    ]);
  });

  it('hands out strict parameters that openai’s own strict transform leaves unchanged', () => {
    const chat = toOpenAIExitPlanModeTool({ strict: true }).function.parameters;
    const responses = toOpenAIResponsesExitPlanModeTool({ strict: true }).parameters;
    for (const schema of [chat, responses]) {
      expect(toStrictJsonSchema(schema as Parameters<typeof toStrictJsonSchema>[0])).toEqual(schema);
    }
  });
});

describe('exit_plan_mode and the @anthropic-ai/sdk SDK', () => {
  it('types the tool (plain and strict) as Tool, ToolUnion, BetaTool and BetaToolUnion', () => {
    const tools: Tool[] = [toAnthropicExitPlanModeTool(), toAnthropicExitPlanModeTool({ strict: true })];
    const union: ToolUnion[] = tools;
    const beta: BetaTool[] = [toAnthropicExitPlanModeTool(), toAnthropicExitPlanModeTool({ strict: true })];
    const betaUnion: BetaToolUnion[] = beta;
    expectTypeOf(toAnthropicExitPlanModeTool).returns.toExtend<Tool>();
    expect([...union, ...betaUnion]).toHaveLength(4);
    expect(tools.map((tool) => tool.input_schema.type)).toEqual(['object', 'object']);
  });
});

describe('the generic adapters given exit_plan_mode, and the SDKs', () => {
  it('type every format, plain and strict, as the SDK’s tool types, equal to the deprecated aliases', () => {
    const chat: ChatCompletionTool[] = [toOpenAITool(exitPlanModeTool), toOpenAITool(exitPlanModeTool, { strict: true })];
    const responses: FunctionTool[] = [toOpenAIResponsesTool(exitPlanModeTool), toOpenAIResponsesTool(exitPlanModeTool, { strict: true })];
    const anthropic: Tool[] = [toAnthropicTool(exitPlanModeTool), toAnthropicTool(exitPlanModeTool, { strict: true })];
    const beta: BetaToolUnion[] = anthropic;
    expect(chat).toEqual([toOpenAIExitPlanModeTool(), toOpenAIExitPlanModeTool({ strict: true })]);
    expect(responses).toEqual([toOpenAIResponsesExitPlanModeTool(), toOpenAIResponsesExitPlanModeTool({ strict: true })]);
    expect(beta).toEqual([toAnthropicExitPlanModeTool(), toAnthropicExitPlanModeTool({ strict: true })]);
    expect(toOpenAITool(exitPlanModeTool).function.name).toBe('exit_plan_mode');
  });

  it('hand out strict parameters that openai’s own strict transform leaves unchanged', () => {
    for (const schema of [toOpenAITool(exitPlanModeTool, { strict: true }).function.parameters, toOpenAIResponsesTool(exitPlanModeTool, { strict: true }).parameters, exitPlanModeTool.strictJsonSchema]) {
      expect(toStrictJsonSchema(schema as Parameters<typeof toStrictJsonSchema>[0])).toEqual(schema);
    }
  });
});
