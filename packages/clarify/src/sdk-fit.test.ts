// The clarification tools' adapters against the real SDK types (openai, @anthropic-ai/sdk,
// devDependencies only): tsc checks the assignments when the tests are type-checked.
import type { BetaTool, BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages';
import type { Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
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
