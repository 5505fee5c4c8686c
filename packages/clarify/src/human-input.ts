// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { askUserQuestionUrgencySchema, isMultiSelect, type AskUserQuestionItem } from '@askseam/user-questions';
import { clarificationFieldTypes, clarificationTypes, type ClarificationFieldType } from './ask-clarification-schema.js';

// The structured payload a host hands to a UI when it ends the run on a clarification and resumes
// on the user's next turn, the way DeerFlow puts `artifact.human_input` beside the plain-text
// ToolMessage (seed 000). Our own shape, version 1: one list of fields for every mode, so a UI
// renders a single choice, a free answer and a whole form the same way.

export const humanInputOptionSchema = z.object({
  /** Stable within the payload: `<field name>-option-<n>`, numbered from 1. */
  id: z.string(),
  label: z.string(),
  /** What to send back for this option: the label itself, exactly. */
  value: z.string(),
  description: z.string().optional(),
});

export const humanInputFieldSchema = z.object({
  /** The key of this field's value in the response, and the seam question's id. */
  name: z.string(),
  label: z.string(),
  type: z.enum(clarificationFieldTypes),
  required: z.boolean(),
  placeholder: z.string().optional(),
  options: z.array(humanInputOptionSchema).optional(),
  /** Bounds: numbers for a number field, YYYY-MM-DD for a date field. */
  min: z.union([z.number(), z.string()]).optional(),
  max: z.union([z.number(), z.string()]).optional(),
  step: z.number().optional(),
  maxLength: z.number().optional(),
});

export const humanInputRequestSchema = z.object({
  version: z.literal(1),
  kind: z.literal('human_input_request'),
  source: z.enum(['ask_clarification', 'request_human_input']),
  question: z.string(),
  context: z.string().optional(),
  clarificationType: z.enum(clarificationTypes).optional(),
  urgency: askUserQuestionUrgencySchema.optional(),
  /** `choice`: one field with options; `text`: one free field; `form`: several fields. */
  inputMode: z.enum(['choice', 'text', 'form']),
  fields: z.array(humanInputFieldSchema),
  /** The same request as plain text, for a client that renders none of the above. */
  text: z.string(),
  /** Present when the model's form could not be used and one plain question stands in for it. */
  degraded: z.object({ reason: z.string(), message: z.string() }).optional(),
});

export type HumanInputOption = z.infer<typeof humanInputOptionSchema>;
export type HumanInputField = z.infer<typeof humanInputFieldSchema>;
export type HumanInputRequest = z.infer<typeof humanInputRequestSchema>;
export type HumanInputMode = HumanInputRequest['inputMode'];

/** One seam question as a payload field. */
export function humanInputField(question: AskUserQuestionItem): HumanInputField {
  const input = question.input;
  const type: ClarificationFieldType = input?.kind ?? (question.options?.length ? (isMultiSelect(question) ? 'multi_select' : 'select') : 'textarea');
  const field: HumanInputField = { name: question.id, label: question.question, type, required: question.required === true };
  if (question.placeholder !== undefined) field.placeholder = question.placeholder;
  if (question.options?.length) {
    field.options = question.options.map((option, index) => ({
      id: `${question.id}-option-${index + 1}`,
      label: option.label,
      value: option.label,
      ...(option.description === undefined ? {} : { description: option.description }),
    }));
  }
  if (input?.kind === 'number' || input?.kind === 'date') {
    if (input.min !== undefined) field.min = input.min;
    if (input.max !== undefined) field.max = input.max;
  }
  if (input?.kind === 'number' && input.step !== undefined) field.step = input.step;
  if ((input?.kind === 'text' || input?.kind === 'textarea') && input.maxLength !== undefined) field.maxLength = input.maxLength;
  return field;
}
