// The adapters' output against the real SDK types (openai, @anthropic-ai/sdk, devDependencies
// only): tsc checks the assignments when the tests are type-checked (pnpm lint / pnpm test), and
// the strict schemas are run through openai's own strict-schema transform at runtime.
import type { BetaTool, BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages';
import type { Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { toStrictJsonSchema } from 'openai/lib/transform';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { askUserQuestionStrictJsonSchema, askUserQuestionTool, toAnthropicTool, toOpenAIResponsesTool, toOpenAITool } from './index.js';

describe('fit with the openai SDK', () => {
  it('types both Chat Completions tools as ChatCompletionTool', () => {
    const plain: ChatCompletionTool = toOpenAITool();
    const strict: ChatCompletionTool = toOpenAITool({ strict: true });
    expectTypeOf(toOpenAITool).returns.toExtend<ChatCompletionTool>();
    expect([plain.type, strict.type]).toEqual(['function', 'function']);
  });

  it('types both Responses tools as FunctionTool', () => {
    const plain: FunctionTool = toOpenAIResponsesTool();
    const strict: FunctionTool = toOpenAIResponsesTool({ strict: true });
    expectTypeOf(toOpenAIResponsesTool).returns.toExtend<FunctionTool>();
    expect([plain.strict, strict.strict]).toEqual([false, true]);
  });

  it('hands out strict parameters that openai’s own strict transform leaves unchanged', () => {
    const chat = toOpenAITool({ strict: true }).function.parameters;
    const responses = toOpenAIResponsesTool({ strict: true }).parameters;
    for (const schema of [chat, responses, askUserQuestionStrictJsonSchema, askUserQuestionTool.strictJsonSchema]) {
      expect(toStrictJsonSchema(schema as Parameters<typeof toStrictJsonSchema>[0])).toEqual(schema);
    }
  });

  it('the transform check can fail: it refuses the plain schema, whose optional fields are not strict-ready', () => {
    const plain = toOpenAITool().function.parameters;
    expect(() => toStrictJsonSchema(plain as Parameters<typeof toStrictJsonSchema>[0])).toThrow(/optional/);
  });
});

describe('fit with the @anthropic-ai/sdk SDK', () => {
  it('types the tool (plain and strict) as Tool, ToolUnion, BetaTool and BetaToolUnion', () => {
    const tools: Tool[] = [toAnthropicTool(), toAnthropicTool({ strict: true })];
    const union: ToolUnion[] = tools;
    const beta: BetaTool[] = [toAnthropicTool(), toAnthropicTool({ strict: true })];
    const betaUnion: BetaToolUnion[] = beta;
    expectTypeOf(toAnthropicTool).returns.toExtend<Tool>();
    expectTypeOf(toAnthropicTool).returns.toExtend<BetaTool>();
    expect([...union, ...betaUnion].map((tool) => ('input_schema' in tool ? tool.input_schema.type : undefined))).toEqual([
      'object',
      'object',
      'object',
      'object',
    ]);
  });
});

describe('the generic adapters given ask_user_question, and the SDKs', () => {
  it('type every format, plain and strict, as the SDK’s tool types, equal to the no-argument form', () => {
    const chat: ChatCompletionTool[] = [toOpenAITool(askUserQuestionTool), toOpenAITool(askUserQuestionTool, { strict: true })];
    const responses: FunctionTool[] = [toOpenAIResponsesTool(askUserQuestionTool), toOpenAIResponsesTool(askUserQuestionTool, { strict: true })];
    const anthropic: Tool[] = [toAnthropicTool(askUserQuestionTool), toAnthropicTool(askUserQuestionTool, { strict: true })];
    const beta: BetaToolUnion[] = anthropic;
    expect(chat).toEqual([toOpenAITool(), toOpenAITool({ strict: true })]);
    expect(responses).toEqual([toOpenAIResponsesTool(), toOpenAIResponsesTool({ strict: true })]);
    expect(beta).toEqual([toAnthropicTool(), toAnthropicTool({ strict: true })]);
  });

  it('hand out strict parameters that openai’s own strict transform leaves unchanged', () => {
    for (const schema of [toOpenAITool(askUserQuestionTool, { strict: true }).function.parameters, toOpenAIResponsesTool(askUserQuestionTool, { strict: true }).parameters]) {
      expect(toStrictJsonSchema(schema as Parameters<typeof toStrictJsonSchema>[0])).toEqual(schema);
    }
  });
});
