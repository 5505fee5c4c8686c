import { AskseamConsoleElement } from './console-element.js';

/**
 * Register `<askseam-console>` (or `tagName`). Safe to call more than once: a name that is already
 * defined is left as it is. Returns the class registered under that name.
 */
export function defineAskseamConsole(tagName = 'askseam-console'): CustomElementConstructor {
  const existing = customElements.get(tagName);
  if (existing) return existing;
  // The registry refuses one constructor under two names, so a second name gets a subclass.
  const taken = customElements.getName?.(AskseamConsoleElement) != null;
  const elementClass = taken ? class extends AskseamConsoleElement {} : AskseamConsoleElement;
  customElements.define(tagName, elementClass);
  return elementClass;
}
