import { AskseamQuestionsElement } from './element.js';

/**
 * Register `<askseam-questions>` (or `tagName`). Safe to call more than once: a name that is
 * already defined is left as it is. Returns the class registered under that name.
 */
export function defineAskseamQuestions(tagName = 'askseam-questions'): CustomElementConstructor {
  const existing = customElements.get(tagName);
  if (existing) return existing;
  // The registry refuses one constructor under two names, so a second name gets a subclass.
  const taken = customElements.getName?.(AskseamQuestionsElement) != null;
  const elementClass = taken ? class extends AskseamQuestionsElement {} : AskseamQuestionsElement;
  customElements.define(tagName, elementClass);
  return elementClass;
}
