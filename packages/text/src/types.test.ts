import { describe, expectTypeOf, it } from 'vitest';
import type { AskUserQuestionAnswer, AskUserQuestionAnswerItem, AskUserQuestionItem, AskUserQuestionRequest } from '@askseam/user-questions';
import { parseTextReply, renderText, replyText, type TextLang, type TextReplyProblem, type TextReplyResult } from './index.js';

describe('public types of @askseam/text', () => {
  it('renderText takes a request or a list of questions and returns text', () => {
    expectTypeOf(renderText).parameter(0).toEqualTypeOf<AskUserQuestionRequest | readonly AskUserQuestionItem[]>();
    expectTypeOf(renderText).returns.toEqualTypeOf<string>();
    expectTypeOf<TextLang>().toEqualTypeOf<'en' | 'zh'>();
  });

  it('parseTextReply returns an answer or the problems and what was understood', () => {
    expectTypeOf(parseTextReply).returns.toEqualTypeOf<TextReplyResult>();
    expectTypeOf<TextReplyResult>().toEqualTypeOf<
      { ok: true; answer: AskUserQuestionAnswer } | { ok: false; problems: TextReplyProblem[]; partial: AskUserQuestionAnswerItem[] }
    >();
    expectTypeOf<TextReplyProblem>().toEqualTypeOf<{ questionId?: string; message: string }>();
  });

  it('replyText writes an answer as text', () => {
    expectTypeOf(replyText).toEqualTypeOf<(questions: readonly AskUserQuestionItem[], answer: AskUserQuestionAnswer) => string>();
  });
});
