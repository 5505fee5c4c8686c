import { answerMismatch, askUserQuestionAnswerSchema, type AskUserQuestionAnswerItem } from '@askseam/user-questions';
import { clarificationQuestionId, fieldQuestion } from './clarification-questions.js';
import { ClarifyError } from './errors.js';
import { isReservedFieldName } from './limits.js';
import { pendingActionSchema, type JsonValue, type MissingField, type PendingAction } from './request-clarification-schema.js';
import { valueOf } from './values.js';

/** The business call, ready to run again: the pending arguments with the answer merged in by field name. */
export interface ResumedAction {
  tool: string;
  args: { [name: string]: JsonValue };
  /** The optional fields the user skipped: left out of `args`. */
  skipped: string[];
}

/** True when `value` is a pending action (for a resume handler that receives other `state` too). */
export function isPendingAction(value: unknown): value is PendingAction {
  return checkPendingAction(value).ok;
}

/**
 * Merge an answer to a pending action's questions into the business call's arguments, by field
 * name, typed the way each field's input encodes it: text, a date (`YYYY-MM-DD`) and a chosen
 * option as strings, a number as a number (as its digits in a string when a JS number would round
 * it), a checkbox as `true` / `false`, a multi_select as a list of labels (the user's own words
 * last). A skipped optional field stays absent.
 *
 * `pending` is what `prepareRequestClarification` returned or a store handed back as `state`, so
 * it is checked. Throws `ClarifyError`: `INVALID_PENDING_ACTION`, `ANSWER_MISMATCH` (the answer
 * does not fit the questions), `REQUIRED_FIELD_MISSING` (naming every required field left out).
 */
export function resumePendingAction(pending: unknown, answer: unknown): ResumedAction {
  const checked = checkPendingAction(pending);
  if (!checked.ok) {
    throw new ClarifyError('INVALID_PENDING_ACTION', `This is not a pending action from request_clarification (${checked.problem}); pass the "pending" of prepareRequestClarification or the "state" saved with the question.`);
  }
  const action = checked.value;
  const parsed = askUserQuestionAnswerSchema.safeParse(answer);
  if (!parsed.success) throw new ClarifyError('ANSWER_MISMATCH', `The answer to the questions for ${action.tool} is not { answers: [{ id, selected, custom? }] }.`);

  const items = itemsById(action, parsed.data.answers);
  const values: Record<string, JsonValue> = {};
  const skipped: string[] = [];
  const left: MissingField[] = [];
  action.missing.forEach((field, index) => {
    const id = clarificationQuestionId(index);
    // `required` is checked below, by field, so the error can name every required field left out.
    const question = { ...fieldQuestion(field, index, field.label), required: false };
    const item = items.get(id);
    const mismatch = item === undefined ? undefined : answerMismatch([question], { answers: [item] });
    if (mismatch) throw new ClarifyError('ANSWER_MISMATCH', `The answer for "${field.label}" (${field.name}) does not fit: ${mismatch.message}`);
    const value = valueOf(question, item);
    if (value !== null) values[field.name] = value;
    else if (field.required) left.push(field);
    else skipped.push(field.name);
  });
  if (left.length > 0) {
    const named = left.map((field) => `"${field.label}" (${field.name})`).join(', ');
    throw new ClarifyError(
      'REQUIRED_FIELD_MISSING',
      `The answer leaves out ${named}, which ${action.tool} needs; ask for ${left.length === 1 ? 'it' : 'them'} again before calling ${action.tool}.`,
    );
  }
  return { tool: action.tool, args: { ...action.args, ...values }, skipped };
}

/** The answer items by question id; an item for no question, or twice for one, does not fit. */
function itemsById(action: PendingAction, answers: AskUserQuestionAnswerItem[]): Map<string, AskUserQuestionAnswerItem> {
  const ids = new Set(action.missing.map((_field, index) => clarificationQuestionId(index)));
  const items = new Map<string, AskUserQuestionAnswerItem>();
  for (const item of answers) {
    if (!ids.has(item.id)) throw new ClarifyError('ANSWER_MISMATCH', `The answer has an item for "${item.id}", which is none of the questions for ${action.tool} (${[...ids].join(', ')}).`);
    if (items.has(item.id)) throw new ClarifyError('ANSWER_MISMATCH', `The answer has two items for "${item.id}".`);
    items.set(item.id, item);
  }
  return items;
}

/** The pending action `value` holds (a fresh copy), or why it holds none. */
function checkPendingAction(value: unknown): { ok: true; value: PendingAction } | { ok: false; problem: string } {
  const parsed = pendingActionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: issue === undefined ? 'not { tool, args, missing, goal }' : `${issue.path.map(String).join('.') || 'the value'}: ${issue.message}` };
  }
  const names = parsed.data.missing.map((field) => field.name);
  const reserved = names.find(isReservedFieldName);
  if (reserved !== undefined) return { ok: false, problem: `the field name "${reserved}" is reserved` };
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) return { ok: false, problem: `the field "${repeated}" is listed twice` };
  return { ok: true, value: parsed.data };
}
