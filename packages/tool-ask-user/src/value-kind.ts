// Words for what a model sent where something else was expected, shared by every askseam tool so
// their argument errors read alike ("must be an array, not a string").

/** A JSON Schema / zod type name with its article: "an array", "a string". */
export function withArticle(expected: string): string {
  if (expected === 'array') return 'an array';
  if (expected === 'object') return 'an object';
  return `a ${expected}`;
}

/** What kind of JSON value `value` is, with its article: "null", "an array", "a number". */
export function valueKindText(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return withArticle(typeof value);
}
