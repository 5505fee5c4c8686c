import { choiceDescriptions, normalizeChoices } from './choices.js';
import { askClarificationArgsSchema, clarificationTypes, type AskClarificationArgs, type ClarificationField, type ClarificationFieldType, type ClarificationType } from './ask-clarification-schema.js';
import { clarifyLimits, isReservedFieldName } from './limits.js';

/** Why a form was shown as one plain question instead of its fields. */
export type ClarifyDegradeReason = 'too-large' | 'unreadable-field' | 'too-many-fields' | 'reserved-name' | 'duplicate-name' | 'too-many-options' | 'text-too-long';

export interface ClarifyDegradation {
  reason: ClarifyDegradeReason;
  /** A sentence for the model and the logs. */
  message: string;
  /** Every choice the question offered (its options), none left out, so the plain question can still name them. */
  options: string[];
  /** Every field the form asked for, with its options, none left out. */
  fields: ClarifyAskedField[];
}

/** One field of a form that was asked as plain text: what the plain question names. */
export interface ClarifyAskedField {
  label: string;
  /** The field's options, if it had any. */
  options: string[];
  /** Whether several of its options may be picked. */
  multiple: boolean;
}

/** ask_clarification's arguments as read: clean, within the limits, and what was given up to get there. */
export interface ReadAskClarification {
  args: AskClarificationArgs;
  /** Descriptions that option objects carried, by label. */
  descriptions: Map<string, string>;
  /** Present when the options or fields were dropped and the question is asked as plain text. */
  degraded?: ClarifyDegradation;
}

export type ReadAskClarificationResult = { ok: true; value: ReadAskClarification } | { ok: false; error: { code: 'INVALID_ARGUMENTS'; message: string } };

/** The id of the top-level choice when a call has both options and fields. */
export const topLevelChoiceId = 'choice';

// Words models use for the seven field types.
const fieldTypeAliases: Readonly<Record<string, ClarificationFieldType>> = {
  text: 'text', string: 'text', str: 'text', input: 'text', short_text: 'text', email: 'text', url: 'text',
  textarea: 'textarea', long_text: 'textarea', multiline: 'textarea', paragraph: 'textarea',
  number: 'number', integer: 'number', int: 'number', float: 'number', decimal: 'number', numeric: 'number',
  select: 'select', dropdown: 'select', radio: 'select', enum: 'select', choice: 'select', single_select: 'select',
  multi_select: 'multi_select', multiselect: 'multi_select', multiple_choice: 'multi_select', checkboxes: 'multi_select', tags: 'multi_select',
  checkbox: 'checkbox', boolean: 'checkbox', bool: 'checkbox', toggle: 'checkbox', switch: 'checkbox', yes_no: 'checkbox',
  date: 'date',
};

/**
 * Read what a model sent as ask_clarification arguments. Only a missing question is an error;
 * everything else is normalised (see choices.ts for options), and a form that breaks a limit or
 * uses a reserved or repeated field name is dropped whole, leaving one plain question.
 */
export function readAskClarificationArgs(input: unknown): ReadAskClarificationResult {
  const raw = typeof input === 'string' ? parseJson(input) : input;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return invalid('the arguments must be an object like {"question": "…", "clarification_type": "missing_info"}.');
  }
  const args = raw as Record<string, unknown>;
  // The question must be text (or a number): an object here means the call went wrong, not a long question.
  const question = typeof args.question === 'object' ? undefined : textOf(args.question);
  if (question === undefined) return invalid('"question" is missing or blank; say what you need to know in one sentence.');

  const base: AskClarificationArgs = { question, clarification_type: clarificationTypeOf(args.clarification_type) };
  const context = textOf(args.context);
  if (context !== undefined) base.context = context;

  const options = normalizeChoices(args.options);
  const fields = readFields(args.fields);
  const descriptions = choiceDescriptions(args.options);
  const degraded = degradation(input, options, fields);
  if (degraded) return checked({ args: base, descriptions: new Map(), degraded });

  const read: AskClarificationArgs = { ...base };
  if (options.length > 0) read.options = options;
  if (fields !== 'unreadable' && fields.length > 0) read.fields = fields;
  return checked({ args: read, descriptions });
}

function invalid(problem: string): ReadAskClarificationResult {
  return { ok: false, error: { code: 'INVALID_ARGUMENTS', message: `Invalid arguments for ask_clarification: ${problem}` } };
}

/** The lenient reading ends where the strict schema starts: what leaves here fits it. */
function checked(value: ReadAskClarification): ReadAskClarificationResult {
  const parsed = askClarificationArgsSchema.safeParse(value.args);
  if (!parsed.success) return invalid(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  return { ok: true, value };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Text where text belongs: strings trimmed, numbers as written, objects as JSON; blank is absent. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'object' && value !== null) return textOf(JSON.stringify(value));
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : text;
}

function clarificationTypeOf(value: unknown): ClarificationType {
  const word = typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_') : '';
  // DeerFlow reads a missing or unknown type as missing_info too.
  return (clarificationTypes as readonly string[]).includes(word) ? (word as ClarificationType) : 'missing_info';
}

export function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (['true', 'yes', '1', 'required'].includes(word)) return true;
  if (['false', 'no', '0', 'optional'].includes(word)) return false;
  return undefined;
}

/** The fields of a form, or 'unreadable' when any of them cannot be made out (the form is then dropped whole). */
function readFields(value: unknown): ClarificationField[] | 'unreadable' {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? parseJson(value.trim()) : value;
  if (list === undefined || list === null) return typeof value === 'string' && value.trim() === '' ? [] : 'unreadable';
  // {"project_name": {"type": "text"}, …}: a map from name to field.
  const entries: unknown[] = Array.isArray(list)
    ? list
    : typeof list === 'object'
      ? Object.entries(list as Record<string, unknown>).map(([name, spec]) => (typeof spec === 'object' && spec !== null ? { ...spec, name } : { name, spec }))
      : [];
  if (!Array.isArray(list) && typeof list !== 'object') return 'unreadable';
  const fields: ClarificationField[] = [];
  for (const entry of entries) {
    const field = readField(entry);
    if (field === undefined) return 'unreadable';
    fields.push(field);
  }
  return fields;
}

function readField(entry: unknown): ClarificationField | undefined {
  if (typeof entry === 'string') return entry.trim() === '' ? undefined : { name: entry.trim(), label: entry.trim(), type: 'text' };
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
  const record = entry as Record<string, unknown>;
  // {"name": "x", "spec": "number"} comes from a map whose values were plain strings.
  const spec = textOf(record.spec);
  const label = textOf(record.label) ?? textOf(record.title) ?? (spec && !isFieldTypeWord(spec) ? spec : undefined);
  const name = textOf(record.name) ?? textOf(record.key) ?? textOf(record.id) ?? label;
  if (name === undefined) return undefined;
  const options = normalizeChoices(record.options ?? record.choices);
  const field: ClarificationField = { name, label: label ?? humanise(name), type: fieldTypeOf(record.type ?? record.input_type ?? record.kind ?? spec, { hasOptions: options.length > 0 }) };
  const required = booleanOf(record.required);
  if (required !== undefined) field.required = required;
  if (options.length > 0 && (field.type === 'select' || field.type === 'multi_select')) field.options = options;
  const placeholder = textOf(record.placeholder);
  if (placeholder !== undefined) field.placeholder = placeholder;
  return field;
}

function isFieldTypeWord(word: string): boolean {
  return Object.hasOwn(fieldTypeAliases, word.toLowerCase().replace(/[\s-]+/g, '_'));
}

/**
 * The field type, made consistent with the options: a choice type without options asks for text;
 * options on a checkbox mean "tick any" (multi_select), on any other type "pick one" (select).
 */
export function fieldTypeOf(value: unknown, { hasOptions }: { hasOptions: boolean }): ClarificationFieldType {
  const word = typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_') : '';
  const type = Object.hasOwn(fieldTypeAliases, word) ? fieldTypeAliases[word]! : hasOptions ? 'select' : 'text';
  if (type === 'select' || type === 'multi_select') return hasOptions ? type : 'text';
  if (!hasOptions) return type;
  return type === 'checkbox' ? 'multi_select' : 'select';
}

/** "project_name" → "Project name": a label for a field the model left unlabelled. */
function humanise(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase();
  return words === '' ? name : words[0]!.toUpperCase() + words.slice(1);
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The first limit the options and fields break, in order of how little of the form could be trusted. */
function degradation(input: unknown, options: string[], fields: ClarificationField[] | 'unreadable'): ClarifyDegradation | undefined {
  const size = typeof input === 'string' ? utf8Bytes(input) : utf8Bytes(JSON.stringify(input) ?? '');
  // Everything the form asked for, whole: the plain question that replaces it names all of it.
  const asked = (fields === 'unreadable' ? [] : fields).map(
    (field): ClarifyAskedField => ({ label: field.label ?? field.name, options: field.options ?? [], multiple: field.type === 'multi_select' }),
  );
  const degrade = (reason: ClarifyDegradeReason, message: string): ClarifyDegradation => ({ reason, message, options, fields: asked });
  const { argumentBytes, fields: maxFields, options: maxOptions, textLength } = clarifyLimits;

  if (size > argumentBytes) return degrade('too-large', `The arguments are ${size} bytes, over the ${argumentBytes}-byte limit.`);
  if (fields === 'unreadable') return degrade('unreadable-field', 'A field could not be read as { name, label, type, required, options, placeholder }.');
  if (fields.length > maxFields) return degrade('too-many-fields', `The form has ${fields.length} fields, over the limit of ${maxFields}.`);
  const reserved = fields.find((field) => isReservedFieldName(field.name));
  if (reserved) return degrade('reserved-name', `The field name "${reserved.name}" is reserved.`);
  const names = fields.map((field) => field.name);
  if (options.length > 0 && fields.length > 0) names.unshift(topLevelChoiceId);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) return degrade('duplicate-name', `The field name "${repeated}" is used twice${repeated === topLevelChoiceId ? ' (it also names the top-level choice)' : ''}.`);
  const longest = Math.max(options.length, ...fields.map((field) => field.options?.length ?? 0));
  if (longest > maxOptions) return degrade('too-many-options', `A question has ${longest} options, over the limit of ${maxOptions}.`);
  const texts = [...options, ...fields.flatMap((field) => [field.name, field.label ?? '', field.placeholder ?? '', ...(field.options ?? [])])];
  const long = texts.find((text) => [...text].length > textLength);
  if (long !== undefined) return degrade('text-too-long', `A field name, label, option or placeholder is ${[...long].length} characters long, over the limit of ${textLength}.`);
  return undefined;
}
