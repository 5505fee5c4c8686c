import type { UserQuestionErrorCode } from '@askseam/user-questions';
import { describe, expectTypeOf, it } from 'vitest';
import {
  askUserQuestionTool,
  executeAskUserQuestion,
  parseAskUserQuestionArgs,
  toAnthropicTool,
  toOpenAITool,
  toolErrorResult,
  type AskToolErrorCode,
  type AskToolResult,
  type AskUserQuestionArgs,
  type AskUserQuestionContext,
  type AskUserQuestionStrictArgs,
} from './index.js';

describe('public types', () => {
  it('types the model-side arguments in snake_case, without detail or intent', () => {
    expectTypeOf<AskUserQuestionArgs>().toEqualTypeOf<{
      questions: {
        id: string;
        question: string;
        header?: string | undefined;
        options?: { label: string; description?: string | undefined }[] | undefined;
        multi_select?: boolean | undefined;
      }[];
    }>();
    expectTypeOf<AskUserQuestionStrictArgs['questions'][number]['header']>().toEqualTypeOf<string | null>();
  });

  it('types a result as success text or an error with a code', () => {
    expectTypeOf<AskToolResult>().toEqualTypeOf<
      { isError: false; text: string } | { isError: true; text: string; code: AskToolErrorCode }
    >();
    expectTypeOf<AskToolErrorCode>().toEqualTypeOf<UserQuestionErrorCode | 'INVALID_ARGUMENTS' | 'PROVIDER_FAILED'>();
    expectTypeOf<AskToolResult<'NO_AGENT'>>().extract<{ isError: true }>().toHaveProperty('code').toEqualTypeOf<'NO_AGENT'>();
  });

  it('types execute as unknown arguments plus a context, resolving to a result', () => {
    expectTypeOf(executeAskUserQuestion).parameters.toEqualTypeOf<[unknown, AskUserQuestionContext]>();
    expectTypeOf(executeAskUserQuestion).returns.resolves.toEqualTypeOf<AskToolResult>();
    expectTypeOf(askUserQuestionTool.execute).toEqualTypeOf(executeAskUserQuestion);
    expectTypeOf(askUserQuestionTool.name).toEqualTypeOf<'ask_user_question'>();
    expectTypeOf<AskUserQuestionContext>().toHaveProperty('timeoutMs').toEqualTypeOf<number | undefined>();
  });

  it('types toolErrorResult as an error result whatever it is given', () => {
    expectTypeOf(toolErrorResult).parameter(0).toBeUnknown();
    expectTypeOf(toolErrorResult).returns.toMatchTypeOf<AskToolResult>();
    expectTypeOf(toolErrorResult).returns.toHaveProperty('isError').toEqualTypeOf<true>();
  });

  it('types the adapters as plain objects in each format', () => {
    expectTypeOf(toOpenAITool).returns.toHaveProperty('type').toEqualTypeOf<'function'>();
    expectTypeOf(toOpenAITool).returns.toHaveProperty('function').toHaveProperty('strict').toEqualTypeOf<boolean | undefined>();
    expectTypeOf(toAnthropicTool).returns.toHaveProperty('input_schema').toBeObject();
    expectTypeOf(parseAskUserQuestionArgs).returns.extract<{ ok: false }>().toHaveProperty('error').toHaveProperty('code').toEqualTypeOf<'INVALID_ARGUMENTS'>();
  });
});
