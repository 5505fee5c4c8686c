/**
 * How big a form may be before it is shown as one plain question instead. Past these a form is
 * unreadable in a chat and costly in a UI, and a model that sends more has usually gone astray.
 */
export const clarifyLimits = Object.freeze({
  /** Fields in one form. */
  fields: 16,
  /** Options of one question or field. */
  options: 24,
  /** Characters of a field name, label, option or placeholder. */
  textLength: 200,
  /** UTF-8 bytes of the arguments as JSON. */
  argumentBytes: 16 * 1024,
});

// Field names become answer keys and ids that hosts and UIs put into plain objects; these would
// collide with what every object already has (or, for __proto__, replace its prototype).
const reserved = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype', 'constructor']);

/** True for names that must not key a form field: `__proto__`, `constructor`, `toString`, `hasOwnProperty`, … */
export function isReservedFieldName(name: string): boolean {
  return reserved.has(name);
}
