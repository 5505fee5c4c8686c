import { describe, expectTypeOf, it } from 'vitest';
// The public surface, imported the way users import it.
import {
  answerMismatch,
  askApproval,
  matchesQuestions,
  UserQuestionError,
  UserQuestions,
  type AgentRef,
  type AgentRegistry,
  type AskseamTelemetry,
  type ApprovalDecision,
  type ApprovalTool,
  type AnswerMismatch,
  type AskUserQuestionAnswer,
  type AskUserQuestionAnswerItem,
  type AskUserQuestionInput,
  type AskUserQuestionInputKind,
  type AskUserQuestionIntent,
  type AskUserQuestionItem,
  type AskUserQuestionOption,
  type AskUserQuestionRequest,
  type AskUserQuestionUrgency,
  type ToolApprovalIntent,
  type UserQuestionErrorCode,
  type UserQuestionProvider,
  type AnsweredBy,
  type ApprovalOutcome,
  type ApprovalQuorum,
} from './index.js';

describe('public types', () => {
  it('AskUserQuestionOption is { label; description? }', () => {
    expectTypeOf<AskUserQuestionOption>().toEqualTypeOf<{ label: string; description?: string | undefined }>();
  });

  it('AskUserQuestionIntent is the tagged union of plan review and tool approval', () => {
    expectTypeOf<AskUserQuestionIntent>().toEqualTypeOf<
      | { kind: 'plan-review'; approve: string }
      | {
          kind: 'tool-approval';
          approve: string;
          tool: { name: string; input: unknown; description?: string | undefined };
          quorum?: ApprovalQuorum | undefined;
          allowAgents?: boolean | undefined;
        }
    >();
    expectTypeOf<ApprovalQuorum>().toEqualTypeOf<{
      approvals: number;
      from?: { principal?: string | undefined; group?: string | undefined; channel?: string | undefined }[] | undefined;
    }>();
  });

  it('askApproval resolves to a decision that carries a reason only when denied, and who decided when the provider says', () => {
    expectTypeOf<Awaited<ReturnType<typeof askApproval>>>().toEqualTypeOf<ApprovalOutcome>();
    expectTypeOf<ApprovalOutcome>().toEqualTypeOf<ApprovalDecision & { by?: readonly AnsweredBy[] }>();
    expectTypeOf<ApprovalDecision>().toEqualTypeOf<{ approved: true } | { approved: false; reason?: string }>();
    expectTypeOf<ToolApprovalIntent['tool']>().toEqualTypeOf<ApprovalTool>();
  });

  it('AskUserQuestionItem has exactly the contract fields', () => {
    expectTypeOf<AskUserQuestionItem>().toEqualTypeOf<{
      id: string;
      question: string;
      header?: string | undefined;
      detail?: string | undefined;
      options?: AskUserQuestionOption[] | undefined;
      multiSelect?: boolean | undefined;
      intent?: AskUserQuestionIntent | undefined;
      input?: AskUserQuestionInput | undefined;
      required?: boolean | undefined;
      placeholder?: string | undefined;
      sensitive?: boolean | undefined;
    }>();
  });

  it('AskUserQuestionInput is a union tagged by kind, each kind with only its own bounds', () => {
    expectTypeOf<AskUserQuestionInputKind>().toEqualTypeOf<'text' | 'textarea' | 'number' | 'select' | 'multi_select' | 'checkbox' | 'date'>();
    expectTypeOf<AskUserQuestionInput>().toEqualTypeOf<
      | { kind: 'text'; maxLength?: number | undefined }
      | { kind: 'textarea'; maxLength?: number | undefined }
      | { kind: 'number'; min?: number | undefined; max?: number | undefined; step?: number | undefined }
      | { kind: 'select' }
      | { kind: 'multi_select' }
      | { kind: 'checkbox' }
      | { kind: 'date'; min?: string | undefined; max?: string | undefined }
    >();
  });

  it('answers are { answers: { id; selected; custom? }[] }', () => {
    expectTypeOf<AskUserQuestionAnswerItem>().toEqualTypeOf<{ id: string; selected: string[]; custom?: string | undefined }>();
    expectTypeOf<AskUserQuestionAnswer>().toEqualTypeOf<{ answers: AskUserQuestionAnswerItem[] }>();
  });

  it('AskUserQuestionRequest carries questions, agent, signal, timeoutMs and urgency', () => {
    expectTypeOf<AskUserQuestionUrgency>().toEqualTypeOf<'low' | 'medium' | 'high'>();
    expectTypeOf<AskUserQuestionRequest>().toEqualTypeOf<{
      questions: AskUserQuestionItem[];
      agent?: AgentRef;
      signal?: AbortSignal;
      timeoutMs?: number;
      urgency?: AskUserQuestionUrgency;
      answeredBy?: (people: readonly AnsweredBy[]) => void;
    }>();
    expectTypeOf<AnsweredBy>().toEqualTypeOf<{ principalId: string; via: string; user?: string; destination?: string }>();
  });

  it('agents are { id } and the registry offers get and roots', () => {
    expectTypeOf<AgentRef>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<AgentRegistry['get']>().toEqualTypeOf<(id: string) => AgentRef | undefined>();
    expectTypeOf<AgentRegistry['roots']>().toEqualTypeOf<() => Iterable<AgentRef>>();
  });

  it('a provider is one ask(request) returning a promised answer', () => {
    expectTypeOf<UserQuestionProvider>().toEqualTypeOf<{ ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> }>();
  });

  it('UserQuestionErrorCode is exactly the twelve codes', () => {
    expectTypeOf<UserQuestionErrorCode>().toEqualTypeOf<
      | 'ASK_ABORTED'
      | 'EMPTY_QUESTIONS'
      | 'INVALID_QUESTIONS'
      | 'CALLER_NOT_LIVE'
      | 'DELEGATED_CALLER'
      | 'BAD_INTENT'
      | 'NO_PROVIDER'
      | 'DUPLICATE_PROVIDER'
      | 'BAD_ANSWER'
      | 'ASK_TIMEOUT'
      | 'ASK_MISSING_AGENT'
      | 'ASK_CANCELLED'
    >();
    expectTypeOf<UserQuestionError['code']>().toEqualTypeOf<UserQuestionErrorCode>();
    expectTypeOf<'NOT_A_CODE'>().not.toExtend<UserQuestionErrorCode>();
  });

  it('UserQuestionError is an Error and isInstance narrows unknown to it', () => {
    expectTypeOf<UserQuestionError>().toExtend<Error>();
    const value: unknown = undefined;
    if (UserQuestionError.isInstance(value)) expectTypeOf(value).toEqualTypeOf<UserQuestionError>();
  });

  it('UserQuestions.ask takes a request and promises an answer; registerProvider returns a disposer', () => {
    expectTypeOf<UserQuestions['ask']>().parameters.toEqualTypeOf<[AskUserQuestionRequest]>();
    expectTypeOf<UserQuestions['ask']>().returns.toEqualTypeOf<Promise<AskUserQuestionAnswer>>();
    expectTypeOf<UserQuestions['registerProvider']>().toEqualTypeOf<(provider: UserQuestionProvider) => () => void>();
    expectTypeOf(UserQuestions).constructorParameters.toEqualTypeOf<[options?: { agents?: AgentRegistry; telemetry?: AskseamTelemetry }]>();
  });

  it('matchesQuestions narrows an unknown answer; answerMismatch returns a reason or undefined', () => {
    const received: unknown = { answers: [] };
    if (matchesQuestions([], received)) expectTypeOf(received).toEqualTypeOf<AskUserQuestionAnswer>();
    expectTypeOf(answerMismatch).returns.toEqualTypeOf<AnswerMismatch | undefined>();
    expectTypeOf<AnswerMismatch['questionId']>().toEqualTypeOf<string | undefined>();
  });
});
