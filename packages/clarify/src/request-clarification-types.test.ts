import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import type { JsonValue, MissingField, PendingAction } from './request-clarification-schema.js';
import type { missingFieldSchema, pendingActionSchema } from './request-clarification-schema.js';
import type { ResumedAction } from './pending-action.js';
import { detachedClarificationAsk, type PreparedClarification } from './request-clarification.js';
import type { PhraseMissingFields } from './phrase.js';

describe('the public types of request_clarification', () => {
  it('writes out exactly what the schemas accept', () => {
    expectTypeOf<MissingField>().toEqualTypeOf<z.infer<typeof missingFieldSchema>>();
    expectTypeOf<PendingAction>().toEqualTypeOf<z.infer<typeof pendingActionSchema>>();
  });

  it('lets a pending action be a host\'s JSON state as it is', () => {
    expectTypeOf<PendingAction>().toExtend<JsonValue>();
    expectTypeOf(detachedClarificationAsk).returns.toEqualTypeOf<{ questions: AskUserQuestionItem[]; state: PendingAction }>();
  });

  it('accepts a phrasing step that answers now or later', () => {
    expectTypeOf<() => AskUserQuestionItem[]>().toExtend<PhraseMissingFields>();
    expectTypeOf<() => Promise<AskUserQuestionItem[]>>().toExtend<PhraseMissingFields>();
  });

  it('resumes to the tool and JSON arguments', () => {
    expectTypeOf<ResumedAction['args'][string]>().toEqualTypeOf<JsonValue>();
    expectTypeOf<PreparedClarification['pending']>().toEqualTypeOf<PendingAction>();
  });
});
