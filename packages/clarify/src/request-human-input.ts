// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { askUserQuestionUrgencySchema, type AskUserQuestionItem, type AskUserQuestionUrgency } from '@askseam/user-questions';
import type { TextLang } from '@askseam/text';
import type { ClarifyDegradation } from './ask-clarification-args.js';
import { singleQuestionId } from './ask-clarification-compile.js';
import { normalizeChoices } from './choices.js';
import { assemble, type CompileOptions, type CompileResult } from './compiled.js';
import { degradedDetail } from './degraded-form.js';
import { langOf } from './lang.js';
import { clarifyLimits } from './limits.js';

// request_human_input with the 12-factor agent fields (seed 002): question, context, urgency,
// format, choices. The seed nests the last three under "options"; both shapes are read.

export const humanInputFormats = ['free_text', 'yes_no', 'multiple_choice'] as const;
export type HumanInputFormat = (typeof humanInputFormats)[number];

export const requestHumanInputFieldDescriptions = {
  question: 'The question for the person, one clear sentence.',
  context: 'What the person needs to know to answer: what is at stake, what you found so far.',
  urgency: 'How soon the person should look: low, medium or high.',
  format: 'How the person answers: free_text, yes_no, or multiple_choice (then give choices).',
  choices: 'The choices for multiple_choice, as short strings.',
} as const;

export const requestHumanInputArgsSchema = z.object({
  question: z.string().describe(requestHumanInputFieldDescriptions.question),
  context: z.string().optional().describe(requestHumanInputFieldDescriptions.context),
  urgency: askUserQuestionUrgencySchema.optional().describe(requestHumanInputFieldDescriptions.urgency),
  format: z.enum(humanInputFormats).optional().describe(requestHumanInputFieldDescriptions.format),
  choices: z.array(z.string()).optional().describe(requestHumanInputFieldDescriptions.choices),
});

export type RequestHumanInputArgs = z.infer<typeof requestHumanInputArgsSchema>;

export type ReadRequestHumanInputResult =
  | { ok: true; value: { args: RequestHumanInputArgs; degraded?: ClarifyDegradation } }
  | { ok: false; error: { code: 'INVALID_ARGUMENTS'; message: string } };

const urgencyWords: Readonly<Record<string, AskUserQuestionUrgency>> = {
  low: 'low', minor: 'low', whenever: 'low',
  medium: 'medium', normal: 'medium', moderate: 'medium', default: 'medium',
  high: 'high', urgent: 'high', critical: 'high', asap: 'high', immediate: 'high',
};

const formatWords: Readonly<Record<string, HumanInputFormat>> = {
  free_text: 'free_text', text: 'free_text', free: 'free_text', open: 'free_text', freeform: 'free_text',
  yes_no: 'yes_no', yesno: 'yes_no', 'yes/no': 'yes_no', boolean: 'yes_no', bool: 'yes_no', confirm: 'yes_no', confirmation: 'yes_no', approval: 'yes_no',
  multiple_choice: 'multiple_choice', choice: 'multiple_choice', choices: 'multiple_choice', select: 'multiple_choice', options: 'multiple_choice',
};

/**
 * Read what a model sent as request_human_input arguments, flat or with the seed's nested
 * `options: { urgency, format, choices }`. Only a missing question is an error. multiple_choice
 * without choices, or with choices past the limits, is asked as free text.
 */
export function readRequestHumanInputArgs(input: unknown): ReadRequestHumanInputResult {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch {
      raw = undefined;
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return invalid('the arguments must be an object like {"question": "…", "format": "yes_no", "urgency": "high"}.');
  }
  const record = raw as Record<string, unknown>;
  const nested = typeof record.options === 'object' && record.options !== null && !Array.isArray(record.options) ? (record.options as Record<string, unknown>) : {};
  const question = text(record.question);
  if (question === undefined) return invalid('"question" is missing or blank; say what you need the person to decide or tell you.');

  const args: RequestHumanInputArgs = { question };
  const context = text(record.context);
  if (context !== undefined) args.context = context;
  const urgency = urgencyWords[word(record.urgency ?? nested.urgency)];
  if (urgency !== undefined) args.urgency = urgency;
  const choices = normalizeChoices(record.choices ?? nested.choices ?? (Array.isArray(record.options) ? record.options : undefined));
  const format = formatWords[word(record.format ?? nested.format)] ?? (choices.length > 0 ? 'multiple_choice' : 'free_text');
  if (format !== 'multiple_choice') return checked({ args: { ...args, format } });

  const size = new TextEncoder().encode(typeof input === 'string' ? input : (JSON.stringify(input) ?? '')).length;
  const tooLong = choices.find((choice) => [...choice].length > clarifyLimits.textLength);
  const degraded =
    size > clarifyLimits.argumentBytes
      ? `The arguments are ${size} bytes, over the ${clarifyLimits.argumentBytes}-byte limit.`
      : choices.length > clarifyLimits.options
        ? `There are ${choices.length} choices, over the limit of ${clarifyLimits.options}.`
        : tooLong !== undefined
          ? `A choice is ${[...tooLong].length} characters long, over the limit of ${clarifyLimits.textLength}.`
          : undefined;
  if (degraded !== undefined) {
    const reason = size > clarifyLimits.argumentBytes ? 'too-large' : choices.length > clarifyLimits.options ? 'too-many-options' : 'text-too-long';
    return checked({ args: { ...args, format: 'free_text' }, degraded: { reason, message: degraded, options: choices, fields: [] } });
  }
  if (choices.length === 0) return checked({ args: { ...args, format: 'free_text' } });
  return checked({ args: { ...args, format, choices } });
}

function invalid(problem: string): ReadRequestHumanInputResult {
  return { ok: false, error: { code: 'INVALID_ARGUMENTS', message: `Invalid arguments for request_human_input: ${problem}` } };
}

function checked(value: { args: RequestHumanInputArgs; degraded?: ClarifyDegradation }): ReadRequestHumanInputResult {
  const parsed = requestHumanInputArgsSchema.safeParse(value.args);
  return parsed.success ? { ok: true, value } : invalid(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
}

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function word(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_') : '';
}

const yesNo: Readonly<Record<TextLang, [string, string]>> = { en: ['Yes', 'No'], zh: ['是', '否'] };

/**
 * request_human_input as one seam question (`answer`): yes_no offers Yes and No (是 / 否 for a
 * Chinese question), multiple_choice its choices, free_text a text box. The urgency rides on the
 * request, where providers and UIs see it.
 */
export function compileRequestHumanInput(args: unknown, options: CompileOptions = {}): CompileResult {
  const read = readRequestHumanInputArgs(args);
  if (!read.ok) return read;
  const { question, context, urgency, format = 'free_text', choices = [] } = read.value.args;
  const { degraded } = read.value;
  const lang = options.lang ?? langOf(question, context);
  const labels = format === 'yes_no' ? yesNo[lang] : format === 'multiple_choice' ? choices : [];
  const item: AskUserQuestionItem =
    labels.length > 0
      ? { id: singleQuestionId, question, options: labels.map((label) => ({ label })), input: { kind: 'select' } }
      : { id: singleQuestionId, question, input: { kind: 'textarea' } };
  const detail = degraded === undefined ? context : degradedDetail(item, context, degraded, lang, options.budget);
  if (detail !== undefined) item.detail = detail;
  return assemble({
    source: 'request_human_input',
    tool: 'request_human_input',
    question,
    context,
    questions: [item],
    inputMode: labels.length > 0 ? 'choice' : 'text',
    ...(urgency === undefined ? {} : { urgency }),
    ...(degraded === undefined ? {} : { degraded }),
    budget: options.budget,
    lang,
  });
}
