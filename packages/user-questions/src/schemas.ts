// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

// These schemas are the contract of docs/design.md ("The seam's types"). Field names are part of it.

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

/** The tool call a person is asked to approve, shown by a UI as the approval card. */
export const approvalToolSchema = z.object({
  /** The tool's name, shown as text. Gate 6 refuses a blank one. */
  name: z.string(),
  /**
   * The call's arguments. Typed `unknown` here so that gate 6, not the schema, judges them: it
   * refuses anything that is not plain JSON or is over `toolApprovalInputMaxBytes`, as BAD_INTENT
   * with the fault named, and the seam keeps its own copy of what it checked.
   */
  input: z.unknown(),
  /** What the tool does, shown as text (never Markdown). */
  description: z.string().optional(),
});

/**
 * Who may vote on a quorum approval: `{ principal }` (a principal by id), `{ group }` (every
 * principal whose `authenticate` result lists the group) or `{ channel }` (whoever answers through
 * that channel destination, `slack:C0123`): the shapes a host's route names answerers with. One
 * strict object with three optional keys, so the browser's plain validator can read it; gate 6
 * insists on exactly one non-blank key.
 */
export const quorumAnswererSchema = z.strictObject({
  principal: z.string().optional(),
  group: z.string().optional(),
  channel: z.string().optional(),
});

/** The most approvals a quorum may ask for. */
export const quorumMaxApprovals = 100;

/**
 * Several people must approve (a two-person rule): `approvals` distinct principals' Approve
 * settle it as approved; any one Deny settles it as denied. `from` limits who may vote. Gate 6
 * checks the rest: at most `quorumMaxApprovals`, a non-empty `from`, reachable with the people it names.
 */
export const approvalQuorumSchema = z.strictObject({
  approvals: z.int().positive(),
  from: z.array(quorumAnswererSchema).optional(),
});

export const toolApprovalIntentSchema = z.object({
  kind: z.literal('tool-approval'),
  /** The label of the option that means "run it"; any other answer is a denial. */
  approve: z.string(),
  tool: approvalToolSchema,
  /** Absent: the first person's answer decides, as for any question. */
  quorum: approvalQuorumSchema.optional(),
  /** True lets an agent answerer of a host route (docs/routing.md) answer this approval; by default only people may. */
  allowAgents: z.boolean().optional(),
});

/** Changes presentation only, never which answers are reachable. A tagged union open to more kinds. */
export const askUserQuestionIntentSchema = z.discriminatedUnion('kind', [planReviewIntentSchema, toolApprovalIntentSchema]);

// Typed inputs (the forms work, docs/forms.md). Each kind is a strict object: a bound that does not
// belong to the kind (maxLength on a number, min on a checkbox) is a contradiction to report, not
// a key to drop silently. How each kind is answered is defined in inputs.ts.

/** A finite JSON number (zod 4 already refuses NaN and ±Infinity). */
const bound = z.number();

export const textInputSchema = z.strictObject({
  kind: z.literal('text'),
  /** At most this many characters (Unicode code points). A single line: no line breaks. */
  maxLength: z.int().positive().optional(),
});

export const textareaInputSchema = z.strictObject({
  kind: z.literal('textarea'),
  /** At most this many characters (Unicode code points); line breaks allowed. */
  maxLength: z.int().positive().optional(),
});

export const numberInputSchema = z.strictObject({
  kind: z.literal('number'),
  min: bound.optional(),
  max: bound.optional(),
  /** The answer minus `min` (or minus 0 without `min`) is a whole multiple of `step`, computed exactly in decimal. */
  step: bound.positive().optional(),
});

export const dateInputSchema = z.strictObject({
  kind: z.literal('date'),
  /** Earliest allowed day, `YYYY-MM-DD`. */
  min: z.string().optional(),
  /** Latest allowed day, `YYYY-MM-DD`. */
  max: z.string().optional(),
});

export const selectInputSchema = z.strictObject({ kind: z.literal('select') });
export const multiSelectInputSchema = z.strictObject({ kind: z.literal('multi_select') });
export const checkboxInputSchema = z.strictObject({ kind: z.literal('checkbox') });

/** How the answer is entered. Absent: the question behaves exactly as before typed inputs existed. */
export const askUserQuestionInputSchema = z.discriminatedUnion('kind', [
  textInputSchema,
  textareaInputSchema,
  numberInputSchema,
  selectInputSchema,
  multiSelectInputSchema,
  checkboxInputSchema,
  dateInputSchema,
]);

export const askUserQuestionItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  header: z.string().optional(),
  /** Markdown context for the question (for example a whole plan). Only in-process callers set it. */
  detail: z.string().optional(),
  options: z.array(askUserQuestionOptionSchema).optional(),
  multiSelect: z.boolean().optional(),
  intent: askUserQuestionIntentSchema.optional(),
  /** The input kind and its bounds. */
  input: askUserQuestionInputSchema.optional(),
  /** A skip (`{ id, selected: [] }`) does not answer a required question. */
  required: z.boolean().optional(),
  /** A hint shown inside an empty input, never a value. */
  placeholder: z.string().optional(),
  /**
   * The answer is a secret (a password, a key): a UI masks the input, and logs and events carry
   * "[redacted]" instead of the typed text. The asker still gets the real answer. Questions whose
   * wording names a secret count as sensitive without it (`isSensitiveQuestion`).
   */
  sensitive: z.boolean().optional(),
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

/** How soon a human should look: carried to providers (and on the wire) as a presentation hint. */
export const askUserQuestionUrgencySchema = z.enum(['low', 'medium', 'high']);

export type AskUserQuestionOption = z.infer<typeof askUserQuestionOptionSchema>;
export type PlanReviewIntent = z.infer<typeof planReviewIntentSchema>;
export type ApprovalTool = z.infer<typeof approvalToolSchema>;
export type ToolApprovalIntent = z.infer<typeof toolApprovalIntentSchema>;
export type ApprovalQuorum = z.infer<typeof approvalQuorumSchema>;
export type QuorumAnswerer = z.infer<typeof quorumAnswererSchema>;
export type AskUserQuestionIntent = z.infer<typeof askUserQuestionIntentSchema>;
export type AskUserQuestionInput = z.infer<typeof askUserQuestionInputSchema>;
export type AskUserQuestionInputKind = AskUserQuestionInput['kind'];
export type AskUserQuestionItem = z.infer<typeof askUserQuestionItemSchema>;
export type AskUserQuestionUrgency = z.infer<typeof askUserQuestionUrgencySchema>;
export type AskUserQuestionAnswerItem = z.infer<typeof askUserQuestionAnswerItemSchema>;
export type AskUserQuestionAnswer = z.infer<typeof askUserQuestionAnswerSchema>;
