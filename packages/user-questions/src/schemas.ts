// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

// These schemas are the contract of DESIGN.md ("The seam"). Field names are part of it.

export const askUserQuestionOptionSchema = z.object({
  /** Both the text shown and the value returned; a trailing "(Recommended)" stays part of it. */
  label: z.string(),
  description: z.string().optional(),
});

export const planReviewIntentSchema = z.object({
  kind: z.literal('plan-review'),
  /** The label of the option that means "yes", named rather than implied by option order. */
  approve: z.string(),
});

/** Changes presentation only, never which answers are reachable. A tagged union open to more kinds. */
export const askUserQuestionIntentSchema = z.discriminatedUnion('kind', [planReviewIntentSchema]);

export const askUserQuestionItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  header: z.string().optional(),
  /** Markdown context for the question (for example a whole plan). Only in-process callers set it. */
  detail: z.string().optional(),
  options: z.array(askUserQuestionOptionSchema).optional(),
  multiSelect: z.boolean().optional(),
  intent: askUserQuestionIntentSchema.optional(),
});

export const askUserQuestionsSchema = z.array(askUserQuestionItemSchema);

// Answers come from outside (a browser, a webhook): unknown keys are refused, not dropped.
export const askUserQuestionAnswerItemSchema = z.strictObject({
  id: z.string(),
  selected: z.array(z.string()),
  custom: z.string().optional(),
});

export const askUserQuestionAnswerSchema = z.strictObject({
  answers: z.array(askUserQuestionAnswerItemSchema),
});

export const agentRefSchema = z.object({ id: z.string() });

export type AskUserQuestionOption = z.infer<typeof askUserQuestionOptionSchema>;
export type PlanReviewIntent = z.infer<typeof planReviewIntentSchema>;
export type AskUserQuestionIntent = z.infer<typeof askUserQuestionIntentSchema>;
export type AskUserQuestionItem = z.infer<typeof askUserQuestionItemSchema>;
export type AskUserQuestionAnswerItem = z.infer<typeof askUserQuestionAnswerItemSchema>;
export type AskUserQuestionAnswer = z.infer<typeof askUserQuestionAnswerSchema>;
