import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';

/** One argument the person can change, and how their answer becomes its new value. */
interface EditableField {
  question: AskUserQuestionItem;
  read(answer: { selected: string[]; custom?: string | undefined }): unknown;
}

/** The questions of an edit form, and how to read the person's answer back into arguments. */
export interface EditForm {
  questions: AskUserQuestionItem[];
  /** The arguments to run with: each field the person filled in, the model's value for every other. */
  argsFrom(answer: AskUserQuestionAnswer): Record<string, unknown>;
}

const fieldIdPrefix = 'edit:';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A typed form of a tool call's arguments: one optional question per top-level argument that a
 * form can hold (text, number, yes/no, one of a list), typed from the tool's JSON Schema when there
 * is one, else from the value the model sent. A field left empty keeps the model's value, so the
 * person changes only what they mean to; arguments a form cannot hold (objects, arrays) are kept.
 */
export function editForm(args: Record<string, unknown>, jsonSchema?: Record<string, unknown>): EditForm {
  const properties = isPlainObject(jsonSchema?.properties) ? jsonSchema.properties : {};
  const names = [...new Set([...Object.keys(properties), ...Object.keys(args)])];
  const fields: EditableField[] = [];
  for (const name of names) {
    const property = properties[name];
    const field = editableField(name, isPlainObject(property) ? property : {}, args[name]);
    if (field !== undefined) fields.push(field);
  }
  return {
    questions: fields.map((field) => field.question),
    argsFrom(answer) {
      const edited: Record<string, unknown> = { ...args };
      for (const field of fields) {
        const item = answer.answers.find((each) => each.id === field.question.id);
        const skipped = item === undefined || (item.selected.length === 0 && (item.custom === undefined || item.custom.trim() === ''));
        if (!skipped) edited[field.question.id.slice(fieldIdPrefix.length)] = field.read(item);
      }
      return edited;
    },
  };
}

function editableField(name: string, property: Record<string, unknown>, current: unknown): EditableField | undefined {
  const base = {
    id: `${fieldIdPrefix}${name}`,
    question: typeof property.description === 'string' && property.description.trim() !== '' ? `${name}: ${property.description}` : name,
    header: name,
    required: false,
    ...(current === undefined ? {} : { placeholder: `Leave empty to keep ${JSON.stringify(current)}` }),
  };
  const choices = Array.isArray(property.enum) && property.enum.length >= 2 && property.enum.every((each) => typeof each === 'string') ? (property.enum as string[]) : undefined;
  if (choices !== undefined) {
    return { question: { ...base, input: { kind: 'select' }, options: choices.map((label) => ({ label })) }, read: (item) => item.selected[0] ?? item.custom };
  }
  switch (typeOf(property, current)) {
    case 'string': {
      const multiline = typeof current === 'string' && /[\r\n]/.test(current);
      return { question: { ...base, input: { kind: multiline ? 'textarea' : 'text' } }, read: (item) => item.custom };
    }
    case 'integer':
      return { question: { ...base, input: { kind: 'number', step: 1, ...numberBounds(property) } }, read: (item) => Number(item.custom) };
    case 'number':
      return { question: { ...base, input: { kind: 'number', ...numberBounds(property) } }, read: (item) => Number(item.custom) };
    case 'boolean':
      return { question: { ...base, input: { kind: 'checkbox' } }, read: (item) => item.custom === 'true' };
    default:
      return undefined;
  }
}

/** The argument's type: the schema's, else that of the value the model sent. */
function typeOf(property: Record<string, unknown>, current: unknown): string | undefined {
  if (typeof property.type === 'string') return property.type;
  if (Array.isArray(property.type)) return property.type.find((each): each is string => typeof each === 'string' && each !== 'null');
  if (typeof current === 'number') return Number.isInteger(current) ? 'integer' : 'number';
  if (typeof current === 'string' || typeof current === 'boolean') return typeof current;
  return undefined;
}

function numberBounds(property: Record<string, unknown>): { min?: number; max?: number } {
  return {
    ...(typeof property.minimum === 'number' ? { min: property.minimum } : {}),
    ...(typeof property.maximum === 'number' ? { max: property.maximum } : {}),
  };
}
