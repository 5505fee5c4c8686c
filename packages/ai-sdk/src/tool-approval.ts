import { askClarificationToolName, requestClarificationToolName, requestHumanInputToolName } from '@askseam/clarify';
import { exitPlanModeToolName } from '@askseam/plan-mode';
import { askUserQuestionToolName } from '@askseam/tool-ask-user';
import {
  askApproval,
  type AgentRef,
  type ApprovalLang,
  type AskApprovalOptions,
  type AskUserQuestionUrgency,
  type UserQuestions,
} from '@askseam/user-questions';
import type { ToolApprovalStatus, ToolSet } from 'ai';
import { AiSdkError } from './errors.js';
import { abortedReason, noDecisionReason } from './no-decision.js';
import { checkSignal, checkTimeout, describe, requireOptions, requireSeam } from './options.js';

/** The tool call an approval is about, as the SDK hands it to `toolApproval`. */
export interface ApprovalToolCall {
  toolName: string;
  toolCallId: string;
  input: unknown;
}

/** What every approval helper takes: the seam, who asks, and how the card reads. */
export interface ApprovalCardOptions {
  /** The seam the approval card goes through. */
  userQuestions: UserQuestions;
  /** The asking agent (the WebSocket host routes by it). */
  agent?: AgentRef;
  /** Why the agent wants to run the tool, shown on the card (Markdown). */
  reason?: (toolCall: ApprovalToolCall) => string | undefined;
  /** Aborting it withdraws the open card (`ASK_ABORTED`): the tool does not run. */
  signal?: AbortSignal;
  /** Give up after this many milliseconds: the tool does not run. No timeout by default. */
  timeoutMs?: number;
  /** The card's language (`en` default, `zh`). */
  lang?: ApprovalLang;
  urgency?: AskUserQuestionUrgency;
}

export interface AskseamToolApprovalOptions extends ApprovalCardOptions {
  /**
   * The tools whose calls the person approves. Default: every tool except askseam's own question
   * tools (asking whether the agent may ask a question would be one question too many).
   */
  tools?: readonly string[];
  /**
   * The `abortSignal` you give `generateText` / `streamText` / `agent.generate`. Required: the
   * SDK's `toolApproval` hook gets no abort signal and keeps waiting after the run is aborted, so
   * without it a card would outlive its run and a later Approve would run the tool. With it,
   * stopping the run withdraws the card, and a decision that comes after the stop is a denial.
   * A run that is never stopped can pass `new AbortController().signal`.
   */
  signal: AbortSignal;
}

/** What `askseamToolApproval` returns: the SDK's generic `toolApproval` function. */
export type AskseamToolApproval = (options: { toolCall: ApprovalToolCall; tools: ToolSet | undefined }) => Promise<ToolApprovalStatus>;

/** The names of askseam's own tools, which never need a person's approval by default. */
export const askseamQuestionToolNames: readonly string[] = Object.freeze([
  askUserQuestionToolName,
  exitPlanModeToolName,
  askClarificationToolName,
  requestHumanInputToolName,
  requestClarificationToolName,
]);

/**
 * The `toolApproval` option of `generateText`, `streamText` and `ToolLoopAgent`: each tool call
 * that needs approval is shown to a person as askseam's approval card. Approve → `'approved'`
 * (the tool runs); Deny → `{ type: 'denied', reason }` with the person's own words, which the
 * model reads in the SDK's `execution-denied` output. When nobody decides (dismissed, timed out,
 * withdrawn, or the card could not be asked) the tool does not run either: the result is a
 * denial whose reason says nobody decided. Never throws into the loop.
 */
export function askseamToolApproval(options: AskseamToolApprovalOptions): AskseamToolApproval {
  const ask = approvalAsker('askseamToolApproval', options, { signalRequired: true });
  const needsApproval = approvalFilter(options.tools);
  return async ({ toolCall, tools }) => {
    if (!needsApproval(toolCall.toolName)) return 'not-applicable';
    return ask(toolCall, toolDescription(tools, toolCall.toolName));
  };
}

/** The same for one entry of a per-tool `toolApproval` map, whose function is not told the tool's name. */
export function askseamToolApprovalFor(
  toolName: string,
  options: ApprovalCardOptions & { signal: AbortSignal; description?: string },
): (input: unknown, call: { toolCallId: string }) => Promise<ToolApprovalStatus> {
  if (typeof toolName !== 'string' || toolName.trim() === '') {
    throw new AiSdkError('INVALID_OPTIONS', `askseamToolApprovalFor: the first argument must be the tool's name as in your tools map; it is ${describe(toolName)}.`);
  }
  const ask = approvalAsker('askseamToolApprovalFor', options, { signalRequired: true });
  return (input, { toolCallId }) => ask({ toolName, toolCallId, input }, options.description);
}

/** The tool's description when it is a plain string (own properties only: the name comes from a model). */
export function toolDescription(tools: ToolSet | undefined, toolName: string): string | undefined {
  if (tools === undefined || !Object.hasOwn(tools, toolName)) return undefined;
  const description: unknown = tools[toolName]?.description;
  return typeof description === 'string' ? description : undefined;
}

export type Asker = (toolCall: ApprovalToolCall, description: string | undefined) => Promise<ToolApprovalStatus>;

export function approvalAsker(factory: string, options: ApprovalCardOptions, { signalRequired }: { signalRequired: boolean }): Asker {
  requireOptions(factory, options);
  requireSeam(factory, options.userQuestions);
  checkTimeout(factory, options.timeoutMs);
  checkSignal(factory, options.signal);
  if (signalRequired && options.signal === undefined) {
    throw new AiSdkError(
      'INVALID_OPTIONS',
      `${factory}: signal is required: pass the abortSignal you give the run (the SDK gives toolApproval none), so stopping the run withdraws the card and a later Approve runs nothing. A run that is never stopped can pass new AbortController().signal.`,
    );
  }
  if (options.reason !== undefined && typeof options.reason !== 'function') {
    throw new AiSdkError('INVALID_OPTIONS', `${factory}: reason must be a function of the tool call or left out; it is ${describe(options.reason)}.`);
  }
  const { userQuestions, agent, reason, signal, timeoutMs, lang, urgency } = options;
  return async (toolCall, description) => {
    try {
      const request: AskApprovalOptions = { tool: { name: toolCall.toolName, input: toolCall.input } };
      if (description !== undefined) request.tool.description = description;
      const why = reason?.(toolCall);
      if (why !== undefined) request.reason = why;
      Object.assign(request, definedOnly({ agent, signal, timeoutMs, lang, urgency }));
      const decision = await askApproval(userQuestions, request);
      // Fail closed: the run may have been stopped while the decision was on its way, and the SDK
      // would still run the tool on 'approved' after the abort.
      if (signal?.aborted === true) return { type: 'denied', reason: abortedReason(toolCall.toolName) };
      if (decision.approved) return 'approved';
      return decision.reason === undefined ? 'denied' : { type: 'denied', reason: decision.reason };
    } catch (error) {
      // Nobody decided: the tool must not run, and a throw here would end the whole run.
      return { type: 'denied', reason: noDecisionReason(toolCall.toolName, error) };
    }
  };
}

function approvalFilter(tools: unknown): (toolName: string) => boolean {
  if (tools === undefined) return (toolName) => !askseamQuestionToolNames.includes(toolName);
  if (!Array.isArray(tools) || tools.some((name) => typeof name !== 'string' || name.trim() === '')) {
    throw new AiSdkError('INVALID_OPTIONS', `askseamToolApproval: tools must be an array of tool names (non-blank strings) or left out; it is ${describe(tools)}.`);
  }
  const names = new Set<string>(tools as string[]);
  return (toolName) => names.has(toolName);
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
