import { isBlankText, namesSecret, type AskUserQuestionAnswer, type AskUserQuestionItem } from '@askseam/user-questions';

// An MCP server's requested form (the spec's restricted schema) → askseam questions, and the
// person's answer → content valid against that schema. Anything outside the subset is refused.

type Content = Record<string, string | number | boolean | string[]>;
type Choice = { value: string; label: string };

interface FieldPlan {
  name: string;
  kind: 'choice' | 'choices' | 'string' | 'number' | 'integer' | 'boolean';
  choices: Choice[];
  field: Record<string, unknown>;
}

export type RequestedForm = { ok: true; questions: AskUserQuestionItem[]; plans: FieldPlan[] } | { ok: false; reason: string };

const common = ['type', 'title', 'description', 'default'];
const allowedKeys: Record<string, string[]> = {
  string: [...common, 'minLength', 'maxLength', 'format', 'enum', 'enumNames', 'oneOf'],
  number: [...common, 'minimum', 'maximum'],
  integer: [...common, 'minimum', 'maximum'],
  boolean: common,
  array: [...common, 'items', 'minItems', 'maxItems'],
};

/** The questions a requested form becomes, or why it is outside the spec's subset. */
export function questionsForForm(message: string, schema: { properties?: Record<string, unknown>; required?: string[] }): RequestedForm {
  const required = new Set(schema.required ?? []);
  const plans: FieldPlan[] = [];
  const questions: AskUserQuestionItem[] = [];
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    if (typeof raw !== 'object' || raw === null) return { ok: false, reason: `Field "${name}" has no schema.` };
    const field = raw as Record<string, unknown>;
    const type = typeof field.type === 'string' ? field.type : '';
    const allowed = allowedKeys[type];
    if (allowed === undefined) return { ok: false, reason: `Field "${name}" has type ${JSON.stringify(field.type)}, which elicitation forms do not allow.` };
    const extra = Object.keys(field).filter((key) => !allowed.includes(key));
    if (extra.length > 0) return { ok: false, reason: `Field "${name}" uses ${extra.join(', ')}, outside the elicitation schema subset.` };
    const choices = choicesOf(field);
    if (choices === 'bad') return { ok: false, reason: `Field "${name}" lists its options in a shape elicitation forms do not allow.` };
    const question: AskUserQuestionItem = { id: name, question: stringOr(field.title, name) };
    const notes = [typeof field.description === 'string' ? field.description : undefined, field.default === undefined ? undefined : `Default: ${JSON.stringify(field.default)}`].filter(Boolean);
    if (notes.length > 0) question.detail = notes.join('\n\n');
    if (required.has(name)) question.required = true;
    let kind: FieldPlan['kind'];
    if (type === 'array') {
      if (choices === undefined) return { ok: false, reason: `Field "${name}" is an array without a list of options.` };
      kind = 'choices';
      question.options = choices.map(({ label }) => ({ label }));
      question.multiSelect = true;
    } else if (choices !== undefined) {
      kind = 'choice';
      question.options = choices.map(({ label }) => ({ label }));
    } else if (type === 'boolean') {
      kind = 'boolean';
      question.input = { kind: 'checkbox' };
    } else if (type === 'number' || type === 'integer') {
      kind = type;
      question.input = { kind: 'number', ...numberBound('min', field.minimum), ...numberBound('max', field.maximum), ...(type === 'integer' ? { step: 1 } : {}) };
    } else {
      kind = 'string';
      question.input = field.format === 'date' ? { kind: 'date' } : { kind: 'text', ...(typeof field.maxLength === 'number' && field.maxLength > 0 ? { maxLength: field.maxLength } : {}) };
      // The spec has no password format, so a secret is known by its name, title or description.
      if (field.format !== 'date' && [name, field.title, field.description].some((text) => typeof text === 'string' && namesSecret(text))) question.sensitive = true;
    }
    if (new Set((choices ?? []).map((choice) => choice.label)).size !== (choices ?? []).length) return { ok: false, reason: `Field "${name}" shows two options with the same title.` };
    plans.push({ name, kind, choices: choices ?? [], field });
    questions.push(question);
  }
  if (questions.length === 0) {
    // A form with no fields is a confirmation: one question that the person acknowledges.
    questions.push({ id: 'confirm', question: message, options: [{ label: 'OK' }], required: true });
    return { ok: true, questions, plans };
  }
  questions[0] = { ...questions[0]!, detail: [message, questions[0]!.detail].filter((part) => part !== undefined && part !== '').join('\n\n') };
  return { ok: true, questions, plans };
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && !isBlankText(value) ? value : fallback;
}

function numberBound(key: 'min' | 'max', value: unknown): Record<string, number> {
  return typeof value === 'number' && Number.isFinite(value) ? { [key]: value } : {};
}

function choicesOf(field: Record<string, unknown>): Choice[] | undefined | 'bad' {
  const source = field.type === 'array' ? (field.items as Record<string, unknown> | undefined) : field;
  if (source === undefined) return undefined;
  if (Array.isArray(source.enum)) {
    const names = Array.isArray(source.enumNames) ? source.enumNames : undefined;
    return source.enum.every((value) => typeof value === 'string') ? source.enum.map((value: string, index) => ({ value, label: stringOr(names?.[index], value) })) : 'bad';
  }
  const titled = source.oneOf ?? source.anyOf;
  if (Array.isArray(titled)) {
    const ok = titled.every((entry) => typeof entry === 'object' && entry !== null && typeof (entry as { const?: unknown }).const === 'string');
    return ok ? titled.map((entry: { const: string; title?: unknown }) => ({ value: entry.const, label: stringOr(entry.title, entry.const) })) : 'bad';
  }
  return field.type === 'array' ? 'bad' : undefined;
}

/** The content the answer stands for, or the first problem that keeps it from fitting the requested schema. */
export function contentFromAnswer(plans: readonly FieldPlan[], answer: AskUserQuestionAnswer): { ok: true; content: Content } | { ok: false; problem: string } {
  const content: Content = {};
  for (const [index, plan] of plans.entries()) {
    const item = answer.answers[index];
    if (item === undefined) continue;
    const { field } = plan;
    if (plan.kind === 'choice' || plan.kind === 'choices') {
      if (item.custom !== undefined) return { ok: false, problem: `"${plan.name}" takes only the options offered, not your own words.` };
      const values = item.selected.map((label) => plan.choices.find((choice) => choice.label === label)!.value);
      if (plan.kind === 'choice') {
        if (values[0] !== undefined) content[plan.name] = values[0];
        continue;
      }
      if (values.length === 0 && item.selected.length === 0 && !(typeof field.minItems === 'number' && field.minItems > 0)) continue;
      if (typeof field.minItems === 'number' && values.length < field.minItems) return { ok: false, problem: `"${plan.name}" needs at least ${field.minItems} option(s).` };
      if (typeof field.maxItems === 'number' && values.length > field.maxItems) return { ok: false, problem: `"${plan.name}" takes at most ${field.maxItems} option(s).` };
      content[plan.name] = values;
      continue;
    }
    if (item.custom === undefined) continue;
    const text = item.custom;
    if (plan.kind === 'boolean') content[plan.name] = text === 'true';
    else if (plan.kind === 'number' || plan.kind === 'integer') content[plan.name] = Number(text);
    else {
      const length = [...text].length;
      if (typeof field.minLength === 'number' && length < field.minLength) return { ok: false, problem: `"${plan.name}" needs at least ${field.minLength} characters.` };
      const formatProblem = stringFormatProblem(field.format, text);
      if (formatProblem !== undefined) return { ok: false, problem: `"${plan.name}" ${formatProblem}` };
      content[plan.name] = text;
    }
  }
  return { ok: true, content };
}

function stringFormatProblem(format: unknown, text: string): string | undefined {
  if (format === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) return 'takes an email address.';
  if (format === 'uri' && !URL.canParse(text)) return 'takes a full address (like https://example.com).';
  if (format === 'date-time' && !(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && !Number.isNaN(Date.parse(text)))) {
    return 'takes a date and time like 2026-05-01T09:30:00Z.';
  }
  return undefined;
}
