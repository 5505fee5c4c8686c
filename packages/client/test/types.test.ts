import type { AnswerMismatch, AskUserQuestionAnswer, AskUserQuestionUrgency } from '@askseam/user-questions';
import { describe, expectTypeOf, it } from 'vitest';
import type { WebSocket as WsWebSocket } from 'ws';
import {
  connectQuestions,
  parseRecommendedLabel,
  planReviewOf,
  type AcceptedReceipt,
  type ClientStatus,
  type PendingQuestion,
  type QuestionClient,
  type QuestionClientError,
  type QuestionClientErrorCode,
  type QuestionVote,
  type WebSocketConstructorLike,
} from '../src/index.js';

describe('public types', () => {
  it('accepts both the browser WebSocket and the ws package WebSocket as the constructor', () => {
    expectTypeOf<typeof WsWebSocket>().toExtend<WebSocketConstructorLike>();
    expectTypeOf<typeof globalThis.WebSocket>().toExtend<WebSocketConstructorLike>();
  });

  it('returns a QuestionClient whose events carry the agreed payloads', () => {
    expectTypeOf(connectQuestions).returns.toEqualTypeOf<QuestionClient>();
    expectTypeOf<QuestionClient['status']>().toEqualTypeOf<ClientStatus>();
    expectTypeOf<ClientStatus>().toEqualTypeOf<'connecting' | 'open' | 'reconnecting' | 'closed'>();
    expectTypeOf<QuestionClient['pending']>().toEqualTypeOf<ReadonlyMap<string, PendingQuestion>>();
    // Only type-checked, never run: it subscribes listeners whose parameter types are the assertion.
    const subscribe = (client: QuestionClient) => {
      client.on('resolved', (event) => {
        expectTypeOf(event).toEqualTypeOf<{ rpcId: string; sessionId: string; outcome: 'answered' | 'cancelled' | 'gone'; answeredBy?: { principalId: string; via: string } }>();
      });
      client.on('error', (error) => expectTypeOf(error).toEqualTypeOf<QuestionClientError>());
      client.on('requested', (question) => expectTypeOf(question).toEqualTypeOf<PendingQuestion>());
      client.on('status', (status) => expectTypeOf(status).toEqualTypeOf<ClientStatus>());
    };
    expectTypeOf(subscribe).toBeFunction();
  });

  it('resolves answer and cancel to the accepted receipt', () => {
    expectTypeOf<QuestionClient['answer']>().parameters.toEqualTypeOf<[string, AskUserQuestionAnswer]>();
    expectTypeOf<QuestionClient['answer']>().returns.toEqualTypeOf<Promise<AcceptedReceipt>>();
    expectTypeOf<PendingQuestion['cancel']>().returns.toEqualTypeOf<Promise<AcceptedReceipt>>();
    expectTypeOf<PendingQuestion['check']>().returns.toEqualTypeOf<AnswerMismatch | undefined>();
    expectTypeOf<AcceptedReceipt>().toEqualTypeOf<{ rpcId: string; accepted: true; votes?: readonly QuestionVote[] }>();
    expectTypeOf<PendingQuestion['votes']>().toEqualTypeOf<readonly QuestionVote[] | undefined>();
  });

  it('types the urgency of a pending question as the seam\'s levels, optional', () => {
    expectTypeOf<PendingQuestion['urgency']>().toEqualTypeOf<AskUserQuestionUrgency | undefined>();
    expectTypeOf<AskUserQuestionUrgency>().toEqualTypeOf<'low' | 'medium' | 'high'>();
  });

  it('names every rejection code the UI handles', () => {
    expectTypeOf<'invalid-answer' | 'not-pending' | 'bad-response' | 'forbidden' | 'not-connected' | 'closed'>().toExtend<QuestionClientErrorCode>();
  });

  it('types the label and plan-review helpers', () => {
    expectTypeOf(parseRecommendedLabel).returns.toEqualTypeOf<{ label: string; recommended: boolean }>();
    expectTypeOf(planReviewOf).returns.toEqualTypeOf<
      { id: string; question: string; plan: string; approve: string; decline?: string } | undefined
    >();
  });
});
