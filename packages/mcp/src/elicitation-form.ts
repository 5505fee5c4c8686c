import {
  checkboxAnswerValues,
  isBlankText,
  isMultiSelect,
  isValueInput,
  revealBidiControls,
  toolInputKeys,
  toolInputText,
  type AskUserQuestionAnswer,
  type AskUserQuestionAnswerItem,
  type AskUserQuestionItem,
} from '@askseam/user-questions';
import type { ElicitRequestFormParams, PrimitiveSchemaDefinition } from '@modelcontextprotocol/sdk/types.js';

// askseam questions → one elicitation form (the restricted schema of the MCP spec: a flat object
// of primitive fields), and the accepted content → an askseam answer. docs/mcp.md has the table.

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];
type FormContent = Record<string, string | number | boolean | string[]>;

/** Where each question's answer sits in the form. */
interface QuestionFields {
  question: AskUserQuestionItem;
  /** The field of the choice or the typed value. */
  main: string;
  /** The free-text field beside the options ("Other"), for questions with options. */
  other: string | undefined;
}

export interface ElicitationForm {
  message: string;
  requestedSchema: RequestedSchema;
  fields: QuestionFields[];
}

/** The suffix of the free-text field beside a question's options. */
export const otherFieldSuffix = '_other';

/**
 * The form for a batch: one field per question (keyed by its id), plus an `<id>_other` text field
 * beside options, since every askseam choice question also takes the person's own words. What
 * the schema cannot say (header and detail, option descriptions, number step, date bounds, "an
 * option or other text is required") goes into the message or titles, and is checked after accept.
 */
export function elicitationFormFor(questions: readonly AskUserQuestionItem[]): ElicitationForm {
  const taken = new Set(questions.map((question) => question.id));
  const properties: Record<string, PrimitiveSchemaDefinition> = {};
  const required: string[] = [];
  const fields: QuestionFields[] = [];
  for (const question of questions) {
    const main = question.id;
    properties[main] = mainField(question);
    let other: string | undefined;
    if (!isValueInput(question.input) && (question.options?.length ?? 0) > 0) {
      other = freeName(`${question.id}${otherFieldSuffix}`, taken);
      properties[other] = {
        type: 'string',
        title: 'Other (your own answer)',
        description: isMultiSelect(question) ? 'Optional: add your own answer beside the options you chose.' : 'Instead of choosing an option, write your own answer.',
      };
    } else if (question.required === true) {
      // A value question has one field, so "required" is exactly expressible.
      required.push(main);
    }
    fields.push({ question, main, other });
  }
  const requestedSchema: RequestedSchema = { type: 'object', properties };
  if (required.length > 0) requestedSchema.required = required;
  return { message: formMessage(questions), requestedSchema, fields };
}

function mainField(question: AskUserQuestionItem): PrimitiveSchemaDefinition {
  const base = { title: question.header ?? question.question, ...(question.header === undefined ? {} : { description: question.question }) };
  const placeholder = question.placeholder === undefined ? {} : { description: `${base.description ?? ''}${base.description ? ' ' : ''}(e.g. ${question.placeholder})` };
  const input = question.input;
  switch (input?.kind) {
    case 'text':
    case 'textarea':
      return { type: 'string', ...base, ...placeholder, ...(input.maxLength === undefined ? {} : { maxLength: input.maxLength }) };
    case 'number': {
      const whole = Number.isInteger(input.step ?? 1) && Number.isInteger(input.min ?? 0);
      return {
        type: whole && input.step !== undefined ? 'integer' : 'number',
        ...base,
        ...placeholder,
        ...(input.min === undefined ? {} : { minimum: input.min }),
        ...(input.max === undefined ? {} : { maximum: input.max }),
      };
    }
    case 'date':
      return { type: 'string', format: 'date', ...base, ...placeholder };
    case 'checkbox':
      return { type: 'boolean', ...base, default: false };
    default:
      break;
  }
  const choices = (question.options ?? []).map((option) => ({
    // The label is the value; "(Recommended)" stays in it, and the description rides in the title.
    const: option.label,
    title: option.description === undefined ? option.label : `${option.label}: ${option.description}`,
  }));
  if (choices.length === 0) return { type: 'string', ...base, ...placeholder };
  if (isMultiSelect(question)) return { type: 'array', ...base, items: { anyOf: choices } };
  return { type: 'string', ...base, oneOf: choices };
}

/** The question texts with their headers and details, since a form field has only a title and a description. */
function formMessage(questions: readonly AskUserQuestionItem[]): string {
  const parts = questions.map((question) => {
    const lines = [question.header === undefined ? question.question : `${question.header}: ${question.question}`];
    const tool = question.intent?.kind === 'tool-approval' ? question.intent.tool : undefined;
    if (tool === undefined) {
      if (question.detail !== undefined) lines.push('', question.detail);
      return lines.join('\n');
    }
    // What will run comes first and names every key, so padding cannot push the one that matters
    // out of view; what the model wrote (the description and the reason) follows, indented under a
    // label that says it is the agent's unverified word, so it cannot pose as the arguments.
    lines.push(`Tool: ${revealBidiControls(tool.name)}`);
    const keys = toolInputKeys(tool.input);
    if (keys !== undefined) lines.push(`Argument names (${keys.length}): ${keys.join(', ')}`);
    lines.push(`Arguments: ${toolInputText(tool.input) ?? 'none'}`);
    const agentWords: string[] = [];
    if (tool.description !== undefined) agentWords.push(...indented(`What it does: ${revealBidiControls(tool.description)}`, '  '));
    if (question.detail !== undefined) agentWords.push('  Why:', ...indented(revealBidiControls(question.detail), '    '));
    if (agentWords.length > 0) lines.push('The agent says (unverified):', ...agentWords);
    return lines.join('\n');
  });
  return parts.join('\n\n');
}

function indented(text: string, prefix: string): string[] {
  return text.split('\n').map((line) => `${prefix}${line}`);
}

function freeName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let n = 2; taken.has(name); n++) name = `${wanted}${n}`;
  taken.add(name);
  return name;
}

/**
 * The askseam answer an accepted form stands for. It is not checked here: the caller checks it
 * with `answerMismatch`, the rule every answer passes.
 */
export function answerFromContent(form: ElicitationForm, content: FormContent | undefined): AskUserQuestionAnswer {
  const values = content ?? {};
  return { answers: form.fields.map((field) => answerItem(field, values)) };
}

function answerItem({ question, main, other }: QuestionFields, content: FormContent): AskUserQuestionAnswerItem {
  const id = question.id;
  const value = content[main];
  if (isValueInput(question.input)) {
    if (value === undefined) return { id, selected: [] };
    if (typeof value === 'boolean') return { id, selected: [], custom: value ? checkboxAnswerValues.checked : checkboxAnswerValues.unchecked };
    if (typeof value === 'number') return { id, selected: [], custom: String(value) };
    if (typeof value === 'string' && isBlankText(value)) return { id, selected: [] };
    return { id, selected: [], custom: String(value) };
  }
  if (!question.options?.length) {
    // A free-text question: its one field is the person's own words.
    return typeof value === 'string' && !isBlankText(value) ? { id, selected: [], custom: value } : { id, selected: [] };
  }
  const selected = Array.isArray(value) ? [...value] : typeof value === 'string' && value !== '' ? [value] : [];
  const ownWords = other === undefined ? undefined : content[other];
  return typeof ownWords === 'string' && !isBlankText(ownWords) ? { id, selected, custom: ownWords } : { id, selected };
}

/** The form's fields filled with a previous answer's content, so a person asked again need not start over. */
export function withDefaults(form: ElicitationForm, content: FormContent): RequestedSchema {
  const properties: Record<string, PrimitiveSchemaDefinition> = {};
  for (const [name, field] of Object.entries(form.requestedSchema.properties)) {
    const value = content[name];
    properties[name] = value === undefined ? field : ({ ...field, default: value } as PrimitiveSchemaDefinition);
  }
  return { ...form.requestedSchema, properties };
}
