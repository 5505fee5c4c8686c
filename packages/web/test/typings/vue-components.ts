// Type test (checked by tsc through tsconfig.test.json, against the real `vue` types): with
// `@askseam/web/vue` imported, Vue's GlobalComponents knows <askseam-questions>: its attributes,
// the `client` property and typed listeners, which is what Vue's template checker (vue-tsc) reads.
import type { QuestionClient } from '@askseam/client';
import type { AskseamQuestionsVueProps } from '@askseam/web/vue';
import type { GlobalComponents } from 'vue';
import { expectTypeOf } from 'vitest';
import type { AskseamPendingChangeDetail, AskseamQuestionsElement } from '../../src/index.js';

type Registered = InstanceType<GlobalComponents['askseam-questions']>;

expectTypeOf<Registered>().toExtend<AskseamQuestionsElement>();
expectTypeOf<Registered['$props']>().toEqualTypeOf<AskseamQuestionsVueProps>();
expectTypeOf<AskseamQuestionsVueProps['client']>().toEqualTypeOf<QuestionClient | undefined>();

export function templateProps(client: QuestionClient): AskseamQuestionsVueProps {
  return {
    client,
    url: '/askseam',
    lang: 'en',
    onAskseamPendingchange: (event) => expectTypeOf(event.detail).toEqualTypeOf<AskseamPendingChangeDetail>(),
    onAskseamAnswered: (event) => expectTypeOf(event.detail.sessionId).toEqualTypeOf<string>(),
  };
}

// @ts-expect-error `client` is a question client, not a string.
export const wrongClient: AskseamQuestionsVueProps = { client: 'ws://localhost/askseam' };
// @ts-expect-error `token` is a string attribute.
export const wrongToken: AskseamQuestionsVueProps = { token: 7 };

export function emitTyped(element: Registered, detail: AskseamPendingChangeDetail): void {
  element.$emit('askseam-pendingchange', new CustomEvent('askseam-pendingchange', { detail }));
  // @ts-expect-error no such event.
  element.$emit('askseam-closed', new CustomEvent('x'));
}
