import type { AskUserQuestionItem } from '@askseam/user-questions';
import type { MissingField } from './request-clarification-schema.js';

/**
 * The id of the question that asks for the missing field at `index`: `field-1`, `field-2`, … By
 * position, never the field's name, so an internal name cannot surface through an id (a UI or a
 * text reply may show or accept ids); the pending action maps it back to the name.
 */
export function clarificationQuestionId(index: number): string {
  return `field-${index + 1}`;
}

/**
 * What a missing field allows as an answer, as a seam question: id, input kind, options and
 * `required` come from the field alone. The wording (question, header, detail, placeholder) is laid
 * over it by the phrasing step, which therefore cannot change which answers fit.
 */
export function fieldQuestion(field: MissingField, index: number, question: string): AskUserQuestionItem {
  const item: AskUserQuestionItem = { id: clarificationQuestionId(index), question, input: { kind: field.type } };
  if (field.type === 'select' || field.type === 'multi_select') item.options = field.options.map((label) => ({ label }));
  // Readers that know only multiSelect (older UIs) still let the user pick several.
  if (field.type === 'multi_select') item.multiSelect = true;
  if (field.required) item.required = true;
  return item;
}
