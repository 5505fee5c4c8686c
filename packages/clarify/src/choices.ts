// What models really send where a list of choices belongs, read into a clean list of labels:
//
//   ["React", "Vue"]                      as it should be
//   '["React","Vue"]'                     the list as a JSON string
//   "React"                               a single string: one choice
//   "- React\n- Vue" / "1. React\n2. Vue" a string with one choice per line (bullets and numbers dropped)
//   {"a": "React", "b": "Vue"}            an object: its leaf values, in order
//   [{"label": "React"}, {"value": "Vue"}] objects naming their label, value, name, text or title
//   [1, 2, true]                          numbers and booleans: their text ("1", "2", "true")
//   ["React", " ", "react", null]         blanks and nulls dropped; duplicates (by case and width) kept once
//   null / undefined / []                 no choices
//
// Anything deeper than a few levels, or of another kind, is dropped rather than guessed at.

const maxDepth = 4;
const labelKeys = ['label', 'value', 'name', 'text', 'title'] as const;
const listMarker = /^\s*(?:[-*•·]\s+|\d{1,3}(?:[.)]\s+|、\s*)|[a-z][.)]\s+)/iu;

/** A model's choices as distinct, non-blank labels in the order given. */
export function normalizeChoices(raw: unknown): string[] {
  const labels: string[] = [];
  const seen = new Set<string>();
  for (const label of leaves(raw, 0)) {
    const text = label.trim();
    const key = text.normalize('NFKC').toLowerCase();
    if (text === '' || seen.has(key)) continue;
    seen.add(key);
    labels.push(text);
  }
  return labels;
}

function leaves(value: unknown, depth: number): string[] {
  if (depth > maxDepth || value === null || value === undefined) return [];
  if (typeof value === 'number') return Number.isFinite(value) ? [String(value)] : [];
  if (typeof value === 'boolean') return [String(value)];
  if (typeof value === 'string') return depth === 0 ? fromString(value) : [value];
  if (Array.isArray(value)) return value.flatMap((item) => leaves(item, depth + 1));
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // An option object names its label; a plain map of choices is read by its values.
    const key = labelKeys.find((name) => typeof record[name] === 'string' || typeof record[name] === 'number');
    if (key !== undefined) return [String(record[key])];
    return Object.values(record).flatMap((item) => leaves(item, depth + 1));
  }
  return [];
}

/** A string where a list belongs: JSON text of a list or object, lines of a list, or one choice. */
function fromString(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    try {
      return leaves(JSON.parse(trimmed), 1);
    } catch {
      // Not JSON after all: a choice that happens to start with a bracket.
    }
  }
  const lines = trimmed.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length > 1) return lines.map((line) => line.replace(listMarker, ''));
  return [trimmed];
}

/** The descriptions that option objects in a list carry, by their label. */
export function choiceDescriptions(raw: unknown): Map<string, string> {
  const descriptions = new Map<string, string>();
  if (!Array.isArray(raw)) return descriptions;
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    const key = labelKeys.find((name) => typeof record[name] === 'string' || typeof record[name] === 'number');
    const description = record.description;
    if (key !== undefined && typeof description === 'string' && description.trim() !== '') descriptions.set(String(record[key]).trim(), description.trim());
  }
  return descriptions;
}
