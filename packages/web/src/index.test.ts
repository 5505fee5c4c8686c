import { describe, expect, expectTypeOf, it } from 'vitest';
import * as web from './index.js';

describe('@askseam/web entry', () => {
  it('exports exactly its public surface', () => {
    expect(Object.keys(web).sort()).toEqual(['AskseamConsoleElement', 'AskseamQuestionsElement', 'askseamPageContentSecurityPolicy', 'browserBundleUrl', 'consoleBundleUrl', 'defineAskseamConsole', 'defineAskseamQuestions', 'isFormBatch']);
  });

  it('can be imported where there is no DOM, without registering anything', () => {
    // This file runs in Node: no HTMLElement, no customElements. Importing must not throw.
    expect(typeof web.AskseamQuestionsElement).toBe('function');
    expect('customElements' in globalThis).toBe(false);
  });

  it('points at the browser bundle inside this package', () => {
    expect(web.browserBundleUrl().pathname).toMatch(/\/packages\/web\/dist\/browser\/askseam-questions\.js$/);
  });

  it('types the client property as a question client', () => {
    expectTypeOf<web.AskseamQuestionsElement['client']>().toEqualTypeOf<import('@askseam/client').QuestionClient | undefined>();
  });
});
