// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

// The model-side arguments of ask_user_question (docs/design.md, "The tool: ask_user_question"). snake_case on purpose:
// it is what function-calling models write most reliably. Objects are strict so that fields the
// model may not send (detail, intent, value, recommended, multiSelect) are refused, not dropped.
// No length or count constraints here: they would appear in the JSON Schema, and Anthropic's strict
// tool use refuses minLength; the tool checks blank ids and empty batches itself (arguments.ts).

/** What each field teaches the model. Shared by the plain and the strict (nullable) schema. */
export const askUserQuestionFieldDescriptions = {
  questions:
    'The questions to ask, in the order the user should see them. Put related questions into one call rather than asking them one at a time.',
  id: 'A short, stable identifier for this question, unique within this call (for example "database"). Its answer comes back under the same id.',
  question: 'The question itself: one clear, complete sentence.',
  header: 'A short chip shown above the question, a few words at most (for example "Database").',
  options:
    'The choices to offer. Leave out for a free-text question. If you recommend one, put it first and append " (Recommended)" to its label.',
  label:
    'What the user picks, and exactly the string you get back in "selected". Keep it short; append " (Recommended)" to the option you recommend.',
  optionDescription: 'One sentence on the trade-off: what choosing this option means or costs.',
  multiSelect: 'true when the user may pick several options; otherwise they pick at most one.',
} as const;

// In strict function calling every field is required, so an unused optional field is sent as null.
const nullNote = ' Use null when not needed.';

export const askUserQuestionOptionArgsSchema = z.strictObject({
  label: z.string().describe(askUserQuestionFieldDescriptions.label),
  description: z.string().optional().describe(askUserQuestionFieldDescriptions.optionDescription),
});

export const askUserQuestionItemArgsSchema = z.strictObject({
  id: z.string().describe(askUserQuestionFieldDescriptions.id),
  question: z.string().describe(askUserQuestionFieldDescriptions.question),
  header: z.string().optional().describe(askUserQuestionFieldDescriptions.header),
  options: z.array(askUserQuestionOptionArgsSchema).optional().describe(askUserQuestionFieldDescriptions.options),
  multi_select: z.boolean().optional().describe(askUserQuestionFieldDescriptions.multiSelect),
});

/** The arguments the model sends: `{ questions: [{ id, question, header?, options?, multi_select? }] }`. */
export const askUserQuestionArgsSchema = z.strictObject({
  questions: z.array(askUserQuestionItemArgsSchema).describe(askUserQuestionFieldDescriptions.questions),
});

/**
 * The same arguments for OpenAI strict function calling: every field required, optional ones
 * nullable. `executeAskUserQuestion` reads null as "left out", so both shapes are accepted.
 */
export const askUserQuestionStrictArgsSchema = z.strictObject({
  questions: z
    .array(
      z.strictObject({
        id: z.string().describe(askUserQuestionFieldDescriptions.id),
        question: z.string().describe(askUserQuestionFieldDescriptions.question),
        header: z.string().nullable().describe(askUserQuestionFieldDescriptions.header + nullNote),
        options: z
          .array(
            z.strictObject({
              label: z.string().describe(askUserQuestionFieldDescriptions.label),
              description: z.string().nullable().describe(askUserQuestionFieldDescriptions.optionDescription + nullNote),
            }),
          )
          .nullable()
          .describe(askUserQuestionFieldDescriptions.options + nullNote),
        multi_select: z.boolean().nullable().describe(askUserQuestionFieldDescriptions.multiSelect + nullNote),
      }),
    )
    .describe(askUserQuestionFieldDescriptions.questions),
});

export type AskUserQuestionArgs = z.infer<typeof askUserQuestionArgsSchema>;
export type AskUserQuestionItemArgs = z.infer<typeof askUserQuestionItemArgsSchema>;
export type AskUserQuestionOptionArgs = z.infer<typeof askUserQuestionOptionArgsSchema>;
export type AskUserQuestionStrictArgs = z.infer<typeof askUserQuestionStrictArgsSchema>;
