// The clarification tools' adapters against the real SDK types (openai, @anthropic-ai/sdk,
// devDependencies only): tsc checks the assignments when the tests are type-checked.
import type { BetaTool, BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages';
import type { Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { toAnthropicTool, toOpenAIResponsesTool, toOpenAITool } from '@askseam/tool-ask-user';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  askClarificationTool,
  requestClarificationTool,
  requestHumanInputTool,
  toAnthropicClarifyTool,
  toOpenAIClarifyTool,
  toOpenAIResponsesClarifyTool,
} from './index.js';

const tools = [askClarificationTool, requestHumanInputTool, requestClarificationTool];

describe('the clarification tools and the SDKs', () => {
  it('types the OpenAI Chat Completions tools as ChatCompletionTool', () => {
    const chat: ChatCompletionTool[] = tools.map(toOpenAIClarifyTool);
    expectTypeOf(toOpenAIClarifyTool).returns.toExtend<ChatCompletionTool>();
    expect(chat.map((tool) => tool.type)).toEqual(['function', 'function', 'function']);
  });

  it('types the OpenAI Responses tools as FunctionTool, not strict (the schemas have optional fields)', () => {
    const responses: FunctionTool[] = tools.map(toOpenAIResponsesClarifyTool);
    expectTypeOf(toOpenAIResponsesClarifyTool).returns.toExtend<FunctionTool>();
    expect(responses.map((tool) => [tool.name, tool.strict])).toEqual(tools.map((tool) => [tool.name, false]));
  });

  it('types the Anthropic tools as Tool, ToolUnion, BetaTool and BetaToolUnion', () => {
    const anthropic: Tool[] = tools.map(toAnthropicClarifyTool);
    const union: ToolUnion[] = anthropic;
    const beta: BetaTool[] = tools.map(toAnthropicClarifyTool);
    const betaUnion: BetaToolUnion[] = beta;
    expectTypeOf(toAnthropicClarifyTool).returns.toExtend<Tool>();
    expect([...union, ...betaUnion]).toHaveLength(6);
    expect(anthropic.map((tool) => tool.input_schema.type)).toEqual(['object', 'object', 'object']);
  });
});

describe('the generic adapters given each clarification tool, and the SDKs', () => {
  it.each(tools)('type $name in every format as the SDK’s tool types, equal to the deprecated aliases', (tool) => {
    const chat: ChatCompletionTool = toOpenAITool(tool);
    const responses: FunctionTool = toOpenAIResponsesTool(tool);
    const anthropic: Tool = toAnthropicTool(tool);
    const beta: BetaTool = toAnthropicTool(tool, { strict: true });
    expect(chat).toEqual(toOpenAIClarifyTool(tool));
    expect(responses).toEqual(toOpenAIResponsesClarifyTool(tool));
    expect(anthropic).toEqual(toAnthropicClarifyTool(tool));
    expect([beta.name, beta.strict, responses.strict]).toEqual([tool.name, true, false]);
  });

  it.each(tools)('refuses a strict OpenAI form of $name, which has optional fields', (tool) => {
    expect(tool.strictJsonSchema).toBeUndefined();
    // @ts-expect-error: the clarification tools have no strict form, so strict: true does not compile.
    expect(() => toOpenAITool(tool, { strict: true })).toThrow(/no strict JSON Schema/);
  });
});
