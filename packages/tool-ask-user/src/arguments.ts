import { compiledSafeParse, type AskUserQuestionItem } from '@askseam/user-questions';
import type { z } from 'zod';
import { askUserQuestionArgsSchema, type AskUserQuestionArgs } from './schema.js';
import { valueKindText, withArticle } from './value-kind.js';

/** The outcome of reading the model's arguments. Never throws: a bad call is a value. */
export type ParsedAskUserQuestionArgs =
  | { ok: true; value: AskUserQuestionItem[] }
  | { ok: false; error: { code: 'INVALID_ARGUMENTS'; message: string } };

// Every tool call is read here: the compiled parser gives the schema's answers, faster.
const parseArgs = compiledSafeParse(askUserQuestionArgsSchema);

// At most this many problems are listed, so one broken batch does not flood the model's context.
const maxProblemsListed = 3;

const allowedFields = {
  arguments: ['questions'],
  question: ['id', 'question', 'header', 'options', 'multi_select'],
  option: ['label', 'description'],
} as const;

// Keys a model is likely to send by habit, with what to send instead.
const fieldAdvice: Readonly<Record<string, string>> = {
  multiSelect: 'use "multi_select"',
  detail: 'put any context into the question text',
  intent: 'not available to this tool',
  value: 'the label is the value',
  recommended: 'append " (Recommended)" to the label instead',
};

/**
 * Read the model's arguments into the seam's questions, or say exactly how to fix the call.
 * Accepts the arguments object or its JSON text (as OpenAI-style APIs deliver it). In strict mode
 * unused optional fields arrive as null; they are read as left out. Every batch rule of the seam
 * is checked here too, so a bad call never reaches it.
 */
export function parseAskUserQuestionArgs(args: unknown): ParsedAskUserQuestionArgs {
  const raw = typeof args === 'string' ? parseJson(args) : { ok: true as const, value: args };
  if (!raw.ok) return invalid(raw.message);

  const input = withoutNullOptionals(raw.value);
  const parsed = parseArgs(input, { reportInput: true });
  if (!parsed.success) return invalid(listProblems(parsed.error.issues.map((issue) => describeIssue(issue, input))));

  const problem = batchProblem(parsed.data);
  if (problem) return invalid(problem);
  return { ok: true, value: parsed.data.questions.map(toSeamQuestion) };
}

function invalid(problems: string): ParsedAskUserQuestionArgs {
  return { ok: false, error: { code: 'INVALID_ARGUMENTS', message: `Invalid arguments for ask_user_question: ${problems}` } };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: 'the arguments are not valid JSON. Send an object like {"questions":[{"id":"scope","question":"…"}]}.' };
  }
}

/**
 * A copy in which optional fields sent as null (strict function calling) are simply absent; the
 * arguments themselves when none is null (the schema's parse copies them anyway, and does not change its input).
 */
function withoutNullOptionals(args: unknown): unknown {
  if (!isRecord(args) || !Array.isArray(args.questions) || !args.questions.some(hasNullOptional)) return args;
  return {
    ...args,
    questions: args.questions.map((question: unknown) => {
      if (!isRecord(question)) return question;
      const copy = dropNullKeys(question, ['header', 'options', 'multi_select']);
      if (Array.isArray(copy.options)) {
        copy.options = copy.options.map((option: unknown) => (isRecord(option) ? dropNullKeys(option, ['description']) : option));
      }
      return copy;
    }),
  };
}

function hasNullOptional(question: unknown): boolean {
  if (!isRecord(question)) return false;
  if (question.header === null || question.options === null || question.multi_select === null) return true;
  return Array.isArray(question.options) && question.options.some((option: unknown) => isRecord(option) && option.description === null);
}

function dropNullKeys(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const copy = { ...record };
  for (const key of keys) if (copy[key] === null) delete copy[key];
  return copy;
}

function listProblems(problems: string[]): string {
  const listed = problems.slice(0, maxProblemsListed).join(' ');
  const more = problems.length - maxProblemsListed;
  return more > 0 ? `${listed} (and ${more} more problem${more === 1 ? '' : 's'})` : listed;
}

/** One schema issue as a sentence naming the field by path, and the question by its id when it has one. */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const where = pathText(issue.path, input);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.path.length === 0) return `the arguments must be an object {"questions":[...]}, not ${valueKindText(issue.input)}.`;
      // zod leaves `input` off the issue when the key is missing altogether.
      if (!('input' in issue) || issue.input === undefined) return `${where} is missing; it must be ${withArticle(issue.expected)}.`;
      return `${where} must be ${withArticle(issue.expected)}, not ${valueKindText(issue.input)}.`;
    }
    case 'unrecognized_keys': {
      const allowed = allowedFields[levelOf(issue.path)];
      const keys = issue.keys.map((key) => (Object.hasOwn(fieldAdvice, key) ? `"${key}" (${fieldAdvice[key]})` : `"${key}"`));
      return `${where} has unknown field${keys.length === 1 ? '' : 's'} ${keys.join(', ')}; the allowed fields are ${allowed.join(', ')}.`;
    }
    default:
      return `${where}: ${issue.message}.`;
  }
}

function pathText(path: readonly PropertyKey[], input: unknown): string {
  if (path.length === 0) return 'the arguments';
  const text = path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
  const id = questionIdAt(input, path);
  return id === undefined ? text : `${text} (question "${id}")`;
}

function questionIdAt(input: unknown, path: readonly PropertyKey[]): string | undefined {
  if (path[0] !== 'questions' || typeof path[1] !== 'number' || !isRecord(input) || !Array.isArray(input.questions)) return undefined;
  const question: unknown = input.questions[path[1]];
  const id = isRecord(question) ? question.id : undefined;
  return typeof id === 'string' && id.trim() !== '' ? id : undefined;
}

function levelOf(path: readonly PropertyKey[]): keyof typeof allowedFields {
  if (path.length >= 4) return 'option';
  if (path.length >= 2) return 'question';
  return 'arguments';
}



const pairwiseUpTo = 16;
const idOf = (question: { id: string }): string => question.id;
const labelOf = (option: { label: string }): string => option.label;

/** The index of the first item before `index` with the same key as the item at `index`, if any. */
function firstIndexOf<T>(items: readonly T[], index: number, key: (item: T) => string): number | undefined {
  const wanted = key(items[index]!);
  for (let earlier = 0; earlier < index; earlier++) if (key(items[earlier]!) === wanted) return earlier;
  return undefined;
}

/** The seam's batch rules, reported with snake_case paths the model can act on. */
function batchProblem(args: AskUserQuestionArgs): string | undefined {
  const { questions } = args;
  if (questions.length === 0) return 'questions is empty; ask at least one question.';
  // Short lists are searched pairwise for a repeat (no Map or Set per call); long ones use a Map/Set.
  const seenIds = questions.length > pairwiseUpTo ? new Map<string, number>() : undefined;
  // Every call is read here: the paths in the messages are only built for a batch that breaks a rule.
  for (let index = 0; index < questions.length; index++) {
    const question = questions[index]!;
    const at = () => `questions[${index}]`;
    if (question.id.trim() === '') return `${at()}.id is blank; give every question a short, stable id such as "database".`;
    const firstIndex = seenIds === undefined ? firstIndexOf(questions, index, idOf) : seenIds.get(question.id);
    if (firstIndex !== undefined) {
      return `${at()}.id "${question.id}" is already used by questions[${firstIndex}]; every question needs its own id.`;
    }
    seenIds?.set(question.id, index);
    if (question.question.trim() === '') return `${at()}.question (question "${question.id}") is blank; write the question out.`;
    const options = question.options ?? [];
    const seenLabels = options.length > pairwiseUpTo ? new Set<string>() : undefined;
    for (let optionIndex = 0; optionIndex < options.length; optionIndex++) {
      const option = options[optionIndex]!;
      const optionAt = () => `${at()}.options[${optionIndex}].label (question "${question.id}")`;
      if (option.label.trim() === '') return `${optionAt()} is blank; every option needs a label.`;
      const repeated = seenLabels === undefined ? firstIndexOf(options, optionIndex, labelOf) !== undefined : seenLabels.has(option.label);
      if (repeated) return `${optionAt()} "${option.label}" is offered twice; labels must be unique within a question.`;
      seenLabels?.add(option.label);
    }
  }
  return undefined;
}

function toSeamQuestion(question: AskUserQuestionArgs['questions'][number]): AskUserQuestionItem {
  const item: AskUserQuestionItem = { id: question.id, question: question.question };
  if (question.header !== undefined) item.header = question.header;
  if (question.options !== undefined) {
    item.options = question.options.map(({ label, description }) => (description === undefined ? { label } : { label, description }));
  }
  if (question.multi_select !== undefined) item.multiSelect = question.multi_select;
  return item;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
