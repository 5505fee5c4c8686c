import { valueKindText, withArticle } from '@askseam/tool-ask-user';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { booleanOf, fieldTypeOf } from './ask-clarification-args.js';
import { normalizeChoices } from './choices.js';
import { internalNameFinder } from './internal-names.js';
import { clarifyLimits, isReservedFieldName } from './limits.js';
import {
  requestClarificationArgsSchema,
  type JsonValue,
  type MissingField,
  type MissingFieldArgs,
  type PendingAction,
  type RequestClarificationArgs,
} from './request-clarification-schema.js';

export type ReadRequestClarificationResult = { ok: true; value: PendingAction } | { ok: false; error: { code: 'INVALID_ARGUMENTS'; message: string } };

// At most this many schema problems are listed, so one broken call does not flood the model's context.
const maxProblemsListed = 3;

const jsonValueSchema = z.json();

const allowedFields = {
  arguments: ['tool_name', 'goal', 'known_arguments', 'missing_fields'],
  field: ['name', 'label', 'description', 'type', 'options', 'required'],
} as const;

/**
 * Read what a model sent as request_clarification arguments into a pending action, or say exactly
 * how to fix the call. Strict about the shape (unknown keys are refused), lenient about the usual
 * slips: the arguments or a nested list as JSON text, optional fields sent as null, `question_goal`
 * (seed 001's name) for `goal`, options as `normalizeChoices` reads them, type words such as
 * `integer` or `boolean`, `required` as `"yes"`. A field whose name is a known argument with the
 * value null is taken as missing.
 */
export function readRequestClarificationArgs(input: unknown): ReadRequestClarificationResult {
  const raw = typeof input === 'string' ? parseJson(input) : input;
  if (!isRecord(raw)) return invalid('the arguments must be an object like {"tool_name": "…", "goal": "…", "missing_fields": [{"name": "…", "label": "…", "description": "…"}]}.');
  const size = new TextEncoder().encode(typeof input === 'string' ? input : (JSON.stringify(input) ?? '')).length;
  if (size > clarifyLimits.argumentBytes) return invalid(`the arguments are ${size} bytes, over the ${clarifyLimits.argumentBytes}-byte limit; ask for fewer fields, with shorter descriptions.`);

  const prepared = lenient(raw);
  const parsed = requestClarificationArgsSchema.safeParse(prepared, { reportInput: true });
  if (!parsed.success) return invalid(listProblems(parsed.error.issues.map(describeIssue)));
  const problem = meaningProblem(parsed.data);
  if (problem !== undefined) return invalid(problem);
  return { ok: true, value: pendingActionOf(parsed.data) };
}

function invalid(problem: string): ReadRequestClarificationResult {
  return { ok: false, error: { code: 'INVALID_ARGUMENTS', message: `Invalid arguments for request_clarification: ${problem}` } };
}

/** The usual slips put right, so that what reaches the strict schema is what the model meant. */
function lenient(raw: Record<string, unknown>): Record<string, unknown> {
  const args = withoutNulls(raw, ['known_arguments']);
  if (args.goal === undefined && Object.hasOwn(args, 'question_goal')) {
    args.goal = args.question_goal;
    delete args.question_goal;
  }
  if (typeof args.known_arguments === 'string') args.known_arguments = parseJson(args.known_arguments);
  if (typeof args.missing_fields === 'string') args.missing_fields = parseJson(args.missing_fields);
  if (Array.isArray(args.missing_fields)) args.missing_fields = args.missing_fields.map((field: unknown) => (isRecord(field) ? lenientField(field) : field));
  return args;
}

function lenientField(raw: Record<string, unknown>): Record<string, unknown> {
  const field = withoutNulls(raw, ['type', 'options', 'required']);
  if (field.options !== undefined) field.options = normalizeChoices(field.options);
  if (typeof field.type === 'string') field.type = fieldTypeOf(field.type, { hasOptions: Array.isArray(field.options) && field.options.length > 0 });
  if (field.required !== undefined && typeof field.required !== 'boolean') field.required = booleanOf(field.required) ?? field.required;
  return field;
}

function withoutNulls(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const copy = { ...record };
  for (const key of keys) if (copy[key] === null) delete copy[key];
  return copy;
}

/** What the schema cannot say: blanks, limits, names that collide, labels that would show a name. */
function meaningProblem(args: RequestClarificationArgs): string | undefined {
  const { tool_name: tool, goal, known_arguments: known = {}, missing_fields: fields } = args;
  const { fields: maxFields, options: maxOptions, textLength } = clarifyLimits;
  if (tool.trim() === '') return 'tool_name is blank; name the tool you want to call.';
  if (goal.trim() === '') return 'goal is blank; say in a short phrase what the user wants done.';
  if (!jsonValueSchema.safeParse(known).success) return 'known_arguments must hold plain JSON values (strings, numbers, booleans, null, lists and objects).';
  if (fields.length === 0) return `missing_fields is empty; if nothing is missing, call ${tool.trim()} directly.`;
  if (fields.length > maxFields) return `missing_fields has ${fields.length} entries, over the limit of ${maxFields}; ask only for what the call cannot run without.`;

  // Labels and options are what the user reads, so no argument or tool name may appear in them.
  const mentionsName = internalNameFinder([tool, ...Object.keys(known), ...fields.map((field) => field.name)]);
  const seen = new Set<string>();
  for (const [index, field] of fields.entries()) {
    const at = `missing_fields[${index}]`;
    const name = field.name.trim();
    if (name === '') return `${at}.name is blank; give the argument's name in ${tool.trim()}'s parameters.`;
    if (isReservedFieldName(name)) return `${at}.name "${name}" is reserved (it names what every object already has); such an argument cannot be merged.`;
    if (seen.has(name)) return `${at}.name "${name}" is listed twice; list each missing argument once.`;
    seen.add(name);
    if (Object.hasOwn(known, name) && known[name] !== null) return `${at}.name "${name}" already has a value in known_arguments; leave it out of one of them.`;
    if (field.label.trim() === '') return `${at}.label (field "${name}") is blank; give the name the user knows this value by.`;
    const tooLong = [name, field.label, ...(field.options ?? [])].find((text) => [...text].length > textLength);
    if (tooLong !== undefined) return `${at} (field "${name}") has a name, label or option of ${[...tooLong].length} characters, over the limit of ${textLength}.`;
    if ((field.options?.length ?? 0) > maxOptions) return `${at}.options (field "${name}") has ${field.options?.length} options, over the limit of ${maxOptions}.`;
    const shown = [field.label, ...(field.options ?? [])].map(mentionsName).find((found) => found !== undefined);
    if (shown !== undefined) return `${at} (field "${name}") shows "${shown}" to the user in its label or options; write the label and options in the user's words, never argument or tool names.`;
  }
  return undefined;
}

function pendingActionOf(args: RequestClarificationArgs): PendingAction {
  const missing = args.missing_fields.map(missingFieldOf);
  const names = new Set(missing.map((field) => field.name));
  const known = Object.entries(args.known_arguments ?? {}).filter(([name]) => !names.has(name));
  return { tool: args.tool_name.trim(), args: Object.fromEntries(known) as Record<string, JsonValue>, missing, goal: args.goal.trim() };
}

function missingFieldOf(field: MissingFieldArgs): MissingField {
  const options = field.options ?? [];
  const type = fieldTypeOf(field.type, { hasOptions: options.length > 0 });
  return {
    name: field.name.trim(),
    label: field.label.trim(),
    description: field.description.trim(),
    type,
    options: type === 'select' || type === 'multi_select' ? options : [],
    // The model calls a field missing because the tool needs it: required unless it says otherwise.
    required: field.required ?? true,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listProblems(problems: string[]): string {
  const listed = problems.slice(0, maxProblemsListed).join(' ');
  const more = problems.length - maxProblemsListed;
  return more > 0 ? `${listed} (and ${more} more problem${more === 1 ? '' : 's'})` : listed;
}

/** One schema issue as a sentence that names the field by its path. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const where = pathText(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.path.length === 0) return 'the arguments must be an object.';
      // zod leaves `input` off the issue when the key is missing altogether.
      if (!('input' in issue) || issue.input === undefined) return `${where} is missing; it must be ${withArticle(issue.expected)}.`;
      return `${where} must be ${withArticle(issue.expected)}, not ${valueKindText(issue.input)}.`;
    case 'unrecognized_keys': {
      const allowed = issue.path.length === 0 ? allowedFields.arguments : allowedFields.field;
      const keys = issue.keys.map((key) => `"${key}"`).join(', ');
      return `${where} has unknown field${issue.keys.length === 1 ? '' : 's'} ${keys}; the allowed fields are ${allowed.join(', ')}.`;
    }
    default:
      return `${where}: ${issue.message}.`;
  }
}

function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the arguments';
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}


