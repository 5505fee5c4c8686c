// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { clarificationFieldTypes } from './ask-clarification-schema.js';

// request_clarification (seed 001): the model does not word a question. It declares which business
// tool it wants to call, what for, what it already has, and which arguments are missing; the user
// sees wording made from each field's label and description, never the argument names.

export const requestClarificationFieldDescriptions = {
  toolName: 'The tool you want to call once the missing arguments are known, exactly as it is named in your tool list.',
  goal: 'What the user wants done, as a short phrase in the user\'s language (for example "look up today\'s furnace batches"). The user sees it.',
  knownArguments: 'The arguments of that call you already have, exactly as you would pass them to the tool. Leave the missing ones out.',
  missingFields: 'The arguments you cannot fill in without the user, one entry each, in the order they should be asked.',
  fieldName: 'The argument\'s name in the tool\'s parameters (for example "fnCode"). Never shown to the user; the answer is merged into the call under this name.',
  fieldLabel: 'The name the user knows this value by (for example "Furnace"), in the user\'s language. Not the argument name.',
  fieldDescription: 'What the value means and why it is needed, in one sentence; used to word the question for the user.',
  fieldType: 'text (the default), textarea, number, select (one of options), multi_select (any of options), checkbox (yes/no) or date (YYYY-MM-DD).',
  fieldOptions: 'The values the user may choose from, when you know them (for example the furnaces this user can see).',
  fieldRequired: 'false when the tool can run without this value; true by default.',
} as const;

/** One missing argument as the model declares it. */
export const missingFieldArgsSchema = z.strictObject({
  name: z.string().describe(requestClarificationFieldDescriptions.fieldName),
  label: z.string().describe(requestClarificationFieldDescriptions.fieldLabel),
  description: z.string().describe(requestClarificationFieldDescriptions.fieldDescription),
  type: z.enum(clarificationFieldTypes).optional().describe(requestClarificationFieldDescriptions.fieldType),
  options: z.array(z.string()).optional().describe(requestClarificationFieldDescriptions.fieldOptions),
  required: z.boolean().optional().describe(requestClarificationFieldDescriptions.fieldRequired),
});

/**
 * The arguments the model is told to send. `known_arguments` is any object here (a recursive JSON
 * type would put `$defs` into the JSON Schema, which several providers reject); the reader checks
 * that it is plain JSON.
 */
export const requestClarificationArgsSchema = z.strictObject({
  tool_name: z.string().describe(requestClarificationFieldDescriptions.toolName),
  goal: z.string().describe(requestClarificationFieldDescriptions.goal),
  known_arguments: z.record(z.string(), z.unknown()).optional().describe(requestClarificationFieldDescriptions.knownArguments),
  missing_fields: z.array(missingFieldArgsSchema).describe(requestClarificationFieldDescriptions.missingFields),
});

export type MissingFieldArgs = z.infer<typeof missingFieldArgsSchema>;
export type RequestClarificationArgs = z.infer<typeof requestClarificationArgsSchema>;

/** A JSON value: what a pending action holds, so any store can keep it. */
export type JsonValue = z.infer<ReturnType<typeof z.json>>;

/**
 * One missing argument as read: every property present (the type made consistent with the
 * options, `required` decided), so the pending action is plain JSON with nothing left to default.
 */
export const missingFieldSchema = z.strictObject({
  name: z.string().min(1),
  label: z.string().min(1),
  description: z.string(),
  type: z.enum(clarificationFieldTypes),
  /** The choices of a select or multi_select field; empty for every other type. */
  options: z.array(z.string()),
  required: z.boolean(),
});

/**
 * A business tool call waiting for the user: which tool, the arguments it has, the fields it
 * lacks (in the order they are asked) and what the user wanted. JSON, for a host's `state` on a
 * detached ask or any store; `resumePendingAction` merges an answer into it.
 */
export const pendingActionSchema = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.json()),
  missing: z.array(missingFieldSchema).min(1),
  goal: z.string(),
});

// Type aliases, not interfaces: an alias is assignable to a JSON value's index signature, so a
// PendingAction goes into a host's `state` as it is. A type test keeps them equal to the schemas.
export type MissingField = {
  name: string;
  label: string;
  description: string;
  type: (typeof clarificationFieldTypes)[number];
  options: string[];
  required: boolean;
};

export type PendingAction = {
  tool: string;
  args: { [name: string]: JsonValue };
  missing: MissingField[];
  goal: string;
};
