// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

// The arguments of ask_clarification as DeerFlow defines them (seed 000): what the model is told to
// send. What models actually send is read far more leniently (ask-clarification-args.ts) and then
// checked against this schema.

export const clarificationTypes = ['missing_info', 'ambiguous_requirement', 'approach_choice', 'risk_confirmation', 'suggestion'] as const;
export type ClarificationType = (typeof clarificationTypes)[number];

export const clarificationFieldTypes = ['text', 'textarea', 'number', 'select', 'multi_select', 'checkbox', 'date'] as const;
export type ClarificationFieldType = (typeof clarificationFieldTypes)[number];

export const askClarificationFieldDescriptions = {
  question: 'The question to ask, one clear sentence. For a form, what the fields are for ("Please complete the project setup").',
  clarificationType:
    'Why you ask: missing_info (a fact you need), ambiguous_requirement (the request can be read several ways), approach_choice (several valid ways to proceed), risk_confirmation (confirm before something risky or irreversible), suggestion (you propose something and want a yes or no).',
  context: 'Optional: what you know so far and why it matters, in a sentence or two.',
  options: 'Optional: the choices for a single-choice question, as a list of short strings. Put a recommended choice first and append " (Recommended)".',
  fields: 'Optional: several values to collect at once, as a form. Use either options or fields for the main question, not both.',
  fieldName: 'The key the value comes back under, in snake_case (for example "project_name"). Unique within the form.',
  fieldLabel: 'What the user sees, for example "Project name".',
  fieldType: 'text (one line), textarea, number, select (one of options), multi_select (any of options), checkbox (yes/no), or date (YYYY-MM-DD).',
  fieldRequired: 'true when the user must fill this field in.',
  fieldOptions: 'The choices of a select or multi_select field.',
  fieldPlaceholder: 'An example value shown in the empty field.',
} as const;

export const clarificationFieldSchema = z.object({
  name: z.string().describe(askClarificationFieldDescriptions.fieldName),
  label: z.string().optional().describe(askClarificationFieldDescriptions.fieldLabel),
  type: z.enum(clarificationFieldTypes).optional().describe(askClarificationFieldDescriptions.fieldType),
  required: z.boolean().optional().describe(askClarificationFieldDescriptions.fieldRequired),
  options: z.array(z.string()).optional().describe(askClarificationFieldDescriptions.fieldOptions),
  placeholder: z.string().optional().describe(askClarificationFieldDescriptions.fieldPlaceholder),
});

export const askClarificationArgsSchema = z.object({
  question: z.string().describe(askClarificationFieldDescriptions.question),
  clarification_type: z.enum(clarificationTypes).describe(askClarificationFieldDescriptions.clarificationType),
  context: z.string().optional().describe(askClarificationFieldDescriptions.context),
  options: z.array(z.string()).optional().describe(askClarificationFieldDescriptions.options),
  fields: z.array(clarificationFieldSchema).optional().describe(askClarificationFieldDescriptions.fields),
});

export type ClarificationField = z.infer<typeof clarificationFieldSchema>;
export type AskClarificationArgs = z.infer<typeof askClarificationArgsSchema>;
