// Type test (checked by tsc through tsconfig.test.json, against the real @types/react 19): with
// `@askseam/web/react` imported, <askseam-questions> takes its attributes, the `client` property
// and `on<event-name>` listeners with typed details; wrong types are refused.
import { connectQuestions, type QuestionClient } from '@askseam/client';
import type { AskseamQuestionsReactProps } from '@askseam/web/react';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import { useRef, type JSX } from 'react';
import { expectTypeOf } from 'vitest';
import type { AskseamQuestionsElement } from '../../src/index.js';

export function QuestionsPanel({ client, onCount }: { client: QuestionClient; onCount: (count: number) => void }): JSX.Element {
  const ref = useRef<AskseamQuestionsElement>(null);
  return (
    <askseam-questions
      ref={ref}
      client={client}
      lang="zh"
      className="panel"
      onaskseam-answered={(event) => expectTypeOf(event.detail.answer).toEqualTypeOf<AskUserQuestionAnswer>()}
      onaskseam-cancelled={(event) => expectTypeOf(event.detail.rpcId).toEqualTypeOf<string>()}
      onaskseam-pendingchange={(event) => onCount(event.detail.count + event.detail.urgent)}
    />
  );
}

export function ByAttributes(): JSX.Element {
  return <askseam-questions url="/askseam" token="secret" lang="en" />;
}

export function WrongTypes(): JSX.Element[] {
  return [
    // @ts-expect-error `client` is a question client, not a string (React 19 sets it as a property).
    <askseam-questions client="ws://localhost/askseam" />,
    // @ts-expect-error `url` is a string attribute.
    <askseam-questions url={42} />,
    // @ts-expect-error the pendingchange detail has `count` and `urgent`, no `total`.
    <askseam-questions onaskseam-pendingchange={(event) => event.detail.total} />,
  ];
}

expectTypeOf<AskseamQuestionsReactProps['client']>().toEqualTypeOf<QuestionClient | undefined>();
expectTypeOf<JSX.IntrinsicElements['askseam-questions']>().toEqualTypeOf<AskseamQuestionsReactProps>();
// A real client fits the property.
expectTypeOf(connectQuestions).returns.toExtend<NonNullable<AskseamQuestionsReactProps['client']>>();
