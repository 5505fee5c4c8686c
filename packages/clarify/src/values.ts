import {
  answerMismatch,
  checkboxAnswerValues,
  isBlankText,
  isMultiSelect,
  parseDecimalAnswer,
  type AskUserQuestionAnswer,
  type AskUserQuestionAnswerItem,
  type AskUserQuestionItem,
} from '@askseam/user-questions';

/**
 * One answer as the model reads it: the text, number or yes/no the user gave, the labels they
 * picked (with their own words last), or null for a skip.
 */
export type ClarifyValue = string | number | boolean | string[] | null;

/** Every question's answer as a value, keyed by question id (a field's name). */
export function valuesOf(questions: readonly AskUserQuestionItem[], answer: AskUserQuestionAnswer): Record<string, ClarifyValue> {
  // Field names are checked against Object.prototype's names, but a null prototype makes sure.
  const values: Record<string, ClarifyValue> = Object.create(null) as Record<string, ClarifyValue>;
  questions.forEach((question, index) => {
    values[question.id] = valueOf(question, answer.answers[index]);
  });
  return values;
}

/** One question's answer as a value. */
export function valueOf(question: AskUserQuestionItem, item: AskUserQuestionAnswerItem | undefined): ClarifyValue {
  if (item === undefined || (item.selected.length === 0 && item.custom === undefined)) return null;
  const { selected, custom } = item;
  if (isMultiSelect(question)) return custom === undefined ? [...selected] : [...selected, custom];
  switch (question.input?.kind) {
    case 'checkbox':
      return custom === checkboxAnswerValues.checked;
    case 'number':
      return custom === undefined ? null : numberOf(custom);
    default:
      return selected[0] ?? custom ?? null;
  }
}

/** A JSON number when it carries the decimal exactly; otherwise the digits as text, so nothing is rounded away. */
function numberOf(text: string): number | string {
  const value = Number(text);
  const exact = parseDecimalAnswer(text);
  const back = Number.isFinite(value) ? parseDecimalAnswer(plainDigits(value)) : undefined;
  if (exact === undefined || back === undefined) return text;
  // Same value when both, brought to one scale, have the same units.
  const scale = Math.max(exact.scale, back.scale);
  const same = exact.units * 10n ** BigInt(scale - exact.scale) === back.units * 10n ** BigInt(scale - back.scale);
  return same ? value : text;
}

/** A JS number written without an exponent (so it can be compared digit for digit). */
function plainDigits(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/** A value a UI sent back for one field that cannot stand as its answer. */
export interface ValueProblem {
  questionId: string;
  message: string;
}

export type AnswerFromValuesResult = { ok: true; answer: AskUserQuestionAnswer } | { ok: false; problems: ValueProblem[] };

/**
 * The answer a UI's response stands for: `{ [field name]: value }` with the value a string, a
 * number, a boolean (checkbox), a list of labels (multi_select), or null / absent for a skip.
 * Option labels become `selected`; anything else becomes the user's own words. The result is
 * checked by the seam's own rules, so an answer that comes back here always fits.
 */
export function answerFromValues(questions: readonly AskUserQuestionItem[], values: Readonly<Record<string, unknown>>): AnswerFromValuesResult {
  const problems: ValueProblem[] = [];
  const answers = questions.map((question): AskUserQuestionAnswerItem => {
    const value = Object.hasOwn(values, question.id) ? values[question.id] : undefined;
    const item = itemOf(question, value);
    if (typeof item === 'string') {
      problems.push({ questionId: question.id, message: item });
      return { id: question.id, selected: [] };
    }
    const mismatch = answerMismatch([question], { answers: [item] });
    if (mismatch) problems.push({ questionId: question.id, message: mismatch.message });
    return item;
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, answer: { answers } };
}

/** The answer item for one value, or a sentence saying why the value cannot be one. */
function itemOf(question: AskUserQuestionItem, value: unknown): AskUserQuestionAnswerItem | string {
  const { id } = question;
  if (value === undefined || value === null || value === '') return { id, selected: [] };
  const labels = new Set((question.options ?? []).map((option) => option.label));
  const kind = question.input?.kind;
  if (kind === 'checkbox') {
    if (typeof value !== 'boolean') return `Field "${id}" is a checkbox: send true or false.`;
    return { id, selected: [], custom: value ? checkboxAnswerValues.checked : checkboxAnswerValues.unchecked };
  }
  if (kind === 'number') {
    if (typeof value === 'number') return Number.isFinite(value) ? { id, selected: [], custom: plainDigits(value) } : `Field "${id}" needs a finite number.`;
    if (typeof value !== 'string') return `Field "${id}" needs a number.`;
    return isBlankText(value) ? { id, selected: [] } : { id, selected: [], custom: value.trim() };
  }
  if (isMultiSelect(question)) {
    const list = Array.isArray(value) ? value : [value];
    if (!list.every((entry) => typeof entry === 'string')) return `Field "${id}" needs a list of option labels.`;
    const picked = list.filter((entry) => labels.has(entry));
    const own = list.filter((entry) => !labels.has(entry) && !isBlankText(entry));
    return own.length > 0 ? { id, selected: [...new Set(picked)], custom: own.join(', ') } : { id, selected: [...new Set(picked)] };
  }
  if (typeof value !== 'string') return `Field "${id}" needs text.`;
  if (labels.has(value)) return { id, selected: [value] };
  // Blank by the seam's rule (nothing visible, zero-width characters included) is a skip.
  return isBlankText(value) ? { id, selected: [] } : { id, selected: [], custom: value };
}
