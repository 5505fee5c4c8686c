// Type test (tsconfig.test.json, `dom` lib): the tag name map and the typed events.
import { expectTypeOf } from 'vitest';
import type { AskseamAnsweredDetail, AskseamQuestionsElement } from '../../src/index.js';

export function typedLookup(): void {
  const element = document.createElement('askseam-questions');
  expectTypeOf(element).toEqualTypeOf<AskseamQuestionsElement>();
  expectTypeOf(document.querySelector('askseam-questions')).toEqualTypeOf<AskseamQuestionsElement | null>();
  element.addEventListener('askseam-answered', (event) => expectTypeOf(event.detail).toEqualTypeOf<AskseamAnsweredDetail>());
  // Bubbling and composed: an ancestor's listener is typed too.
  document.body.addEventListener('askseam-pendingchange', (event) => expectTypeOf(event.detail.count).toEqualTypeOf<number>());
  // @ts-expect-error the cancelled detail has no answer.
  element.addEventListener('askseam-cancelled', (event) => event.detail.answer);
}
