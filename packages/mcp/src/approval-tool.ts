import { errorResult, toolErrorResult, toolJsonSchema, type ToolInputSchema } from '@askseam/tool-ask-user';
import { askApproval, isBlankText, type AgentRef, type UserQuestions } from '@askseam/user-questions';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

/** The name of the approval tool this package serves. */
export const approveToolCallToolName = 'approve_tool_call';

export const approveToolCallDescription =
  'Ask the user whether a tool call may run, before running it. Give the tool\'s name, the exact arguments it would run with, ' +
  'and in `reason` why you want to run it. The result is JSON: {"behavior":"allow","updatedInput":{…}} means run it with ' +
  'updatedInput; {"behavior":"deny","message":"…"} means do not run it, and the message says why. An error result also means ' +
  'do not run it: nobody decided.';

export const approveToolCallArgsSchema = z.strictObject({
  tool_name: z.string().describe('The name of the tool you want to run.'),
  input: z.record(z.string(), z.unknown()).describe('The arguments the tool would run with, exactly.'),
  reason: z.string().optional().describe('Why you want to run it, in one or two sentences (Markdown).'),
  tool_description: z.string().optional().describe('What the tool does, in one sentence.'),
  tool_use_id: z.string().optional().describe('The id of the tool call, when your runtime gives one.'),
});

export type ApproveToolCallArgs = z.infer<typeof approveToolCallArgsSchema>;

export interface ApproveToolCallContext {
  userQuestions: UserQuestions;
  agent?: AgentRef | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** Why an approval call failed: the seam's and the tool's codes. */
export type ApproveToolCallResult = Awaited<ReturnType<typeof executeApproveToolCall>>;

/**
 * Run one `approve_tool_call`: check the arguments, ask through the seam's tool-approval intent,
 * and answer in the permission-prompt shape (`behavior: allow | deny`). Never throws.
 */
export async function executeApproveToolCall(args: unknown, context: ApproveToolCallContext) {
  const parsed = approveToolCallArgsSchema.safeParse(args);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`);
    return errorResult('INVALID_ARGUMENTS', `The approval request is malformed: ${problems.join('; ')}.`, 'Fix the arguments as described above and call the tool again.');
  }
  const { tool_name: name, input, reason, tool_description: description } = parsed.data;
  try {
    const decision = await askApproval(context.userQuestions, {
      tool: description === undefined || isBlankText(description) ? { name, input } : { name, input, description },
      ...(reason === undefined || isBlankText(reason) ? {} : { reason }),
      ...(context.agent === undefined ? {} : { agent: context.agent }),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      ...(context.timeoutMs === undefined ? {} : { timeoutMs: context.timeoutMs }),
    });
    if (decision.approved) return { isError: false as const, text: JSON.stringify({ behavior: 'allow', updatedInput: input }) };
    const message = decision.reason === undefined ? `The user denied running ${name}.` : `The user denied running ${name}: ${decision.reason}`;
    return { isError: false as const, text: JSON.stringify({ behavior: 'deny', message }) };
  } catch (error) {
    // Nobody decided (dismissed, timed out, withdrawn) or the request could not be asked: never
    // an approval. The text is still a deny, so a runtime reading `behavior` does not run the tool.
    const failure = toolErrorResult(error);
    return { ...failure, text: JSON.stringify({ behavior: 'deny', message: `No decision (${failure.code}). ${failure.text}` }) };
  }
}

const jsonSchemaOriginal = toolJsonSchema(approveToolCallArgsSchema);

/** `approve_tool_call` in the shape of every askseam tool object. */
export const approveToolCallTool = Object.freeze({
  name: approveToolCallToolName,
  description: approveToolCallDescription,
  parameters: approveToolCallArgsSchema,
  get jsonSchema(): ToolInputSchema {
    return structuredClone(jsonSchemaOriginal);
  },
  execute: executeApproveToolCall,
});
