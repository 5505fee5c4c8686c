import { query, type HookCallback, type HookCallbackMatcher, type HookEvent, type Options, type SDKMessage, type SDKUserMessage, type SyncHookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { approvalFromRecord } from '@askseam/host-ws';
import type { JsonValue, QuestionRecord } from '@askseam/store';
import type { ApprovalDecision, AskUserQuestionAnswer } from '@askseam/user-questions';
import { deniedMessage } from './can-use-tool.js';
import { askUserQuestionToolName, claudeAnswersOf, parseClaudeQuestions } from './claude-questions.js';
import { deferredStateKey } from './defer.js';
import { ClaudeAgentSdkError } from './errors.js';
import { unavailableError, waitForDeferredTool } from './unavailable.js';

// The second half of a long wait: the saved question came back settled (in `onResume`), and the
// Claude session is resumed. On resume the CLI re-runs the PreToolUse hooks for the deferred call;
// ours answers it (allow with the answers, or deny with the reason) and Claude reads the result.

type Settled = 'answered' | 'cancelled' | 'aborted' | 'timed_out' | 'pending';

/** A deferred Claude tool call read back from its askseam record. */
export type DeferredToolUse = {
  rpcId: string;
  /** The Claude session to resume. */
  claudeSessionId: string;
  /** The deferred call's `tool_use_id`. */
  toolUseId: string;
  toolName: string;
  /** The `state` given to `askDeferredToolUse`. */
  state?: JsonValue;
} & (
  | { kind: 'questions'; outcome: 'answered'; answer: AskUserQuestionAnswer }
  | { kind: 'approval'; outcome: 'answered'; decision: ApprovalDecision }
  /** Nobody decided: Claude is told so, and the tool does not run. */
  | { kind: 'questions' | 'approval'; outcome: Exclude<Settled, 'answered'> }
);

interface SavedCall {
  claudeSessionId: string;
  toolUseId: string;
  toolName: string;
}

function savedCall(state: JsonValue | undefined): SavedCall | undefined {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return undefined;
  const call = state[deferredStateKey];
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return undefined;
  const { claudeSessionId, toolUseId, toolName } = call;
  if (typeof claudeSessionId !== 'string' || typeof toolUseId !== 'string' || typeof toolName !== 'string') return undefined;
  return { claudeSessionId, toolUseId, toolName };
}

/**
 * The deferred call in `record`, or `undefined` when the record was not saved by
 * `askDeferredToolUse` (so one `onResume` serves every kind of detached question).
 */
export function deferredToolUseFromRecord(record: QuestionRecord): DeferredToolUse | undefined {
  const call = savedCall(record.state);
  if (call === undefined) return undefined;
  const stateObject = record.state as { app?: JsonValue };
  const common = { rpcId: record.rpcId, ...call, ...(stateObject.app === undefined ? {} : { state: stateObject.app }) };
  const approval = approvalFromRecord(record);
  if (approval !== undefined) {
    return approval.outcome === 'answered' ? { ...common, kind: 'approval', outcome: 'answered', decision: approval.decision } : { ...common, kind: 'approval', outcome: approval.outcome };
  }
  if (record.outcome === 'answered' && record.answer !== undefined) return { ...common, kind: 'questions', outcome: 'answered', answer: record.answer };
  return { ...common, kind: 'questions', outcome: record.outcome === undefined || record.outcome === 'answered' ? 'pending' : record.outcome };
}

const unsettledWords: Record<Exclude<Settled, 'answered' | 'pending'>, string> = {
  cancelled: 'The user dismissed it without answering. Do not assume an answer: continue without it, or ask again in another way.',
  timed_out: 'Nobody answered it in the time allowed. Do not assume an answer.',
  aborted: 'It was withdrawn before anyone answered.',
};

/** What the PreToolUse hook returns for the deferred call, given the call's input as the CLI re-sends it. */
export function deferredDecision(deferred: DeferredToolUse, toolInput: unknown): SyncHookJSONOutput {
  const deny = (reason: string): SyncHookJSONOutput => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
  if (deferred.outcome === 'pending') throw new ClaudeAgentSdkError('NOT_SETTLED', `The askseam question ${deferred.rpcId} is still waiting for a person; resume the Claude session from onResume, once it is settled.`);
  if (deferred.outcome !== 'answered') return deny(unsettledWords[deferred.outcome]);
  if (deferred.kind === 'approval') {
    if (!deferred.decision.approved) return deny(deniedMessage(deferred.toolName, deferred.decision.reason));
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
  }
  const parsed = deferred.toolName === askUserQuestionToolName ? parseClaudeQuestions(toolInput) : undefined;
  if (parsed === undefined || !parsed.ok) return deny(parsed?.problem ?? `The deferred ${deferred.toolName} call was saved as questions, which only AskUserQuestion asks.`);
  // AskUserQuestion runs only with `answers` in its input: `allow` alone would leave it unanswered.
  const updatedInput = { ...(toolInput as Record<string, unknown>), ...claudeAnswersOf(parsed.questions, deferred.answer) };
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput } };
}

/**
 * Your hooks with the deferred call answered: our PreToolUse hook answers that one call, and your
 * own PreToolUse hooks are skipped for it only (a `deferToolUse` among them would defer it again).
 */
export function hooksAnswering(deferred: DeferredToolUse, hooks: Options['hooks'] = {}): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  const isDeferredCall = (input: Parameters<HookCallback>[0]) => input.hook_event_name === 'PreToolUse' && input.tool_use_id === deferred.toolUseId;
  const answer: HookCallback = async (input) => (isDeferredCall(input) && input.hook_event_name === 'PreToolUse' ? deferredDecision(deferred, input.tool_input) : {});
  const yours = (hooks.PreToolUse ?? []).map((matcher) => ({
    ...matcher,
    hooks: matcher.hooks.map((hook): HookCallback => async (input, toolUseId, options) => (isDeferredCall(input) ? {} : hook(input, toolUseId, options))),
  }));
  return { ...hooks, PreToolUse: [{ hooks: [answer] }, ...yours] };
}

/**
 * The resumed run's input: it sends nothing (a string prompt would add a user turn after the
 * answer, and an input that ends at once would interrupt the deferred call before its hook runs)
 * until `retry()` sends one empty user message, which makes a CLI still holding a deferred call it
 * found unavailable try that call again, adding no words for Claude to read.
 */
function resumeInput(): { messages: AsyncGenerator<SDKUserMessage, void>; retry(): void; end(): void } {
  let wake!: () => void;
  let woken = new Promise<void>((resolve) => (wake = resolve));
  let state: 'waiting' | 'retry' | 'ended' = 'waiting';
  async function* messages(): AsyncGenerator<SDKUserMessage, void> {
    for (;;) {
      await woken;
      if (state === 'ended') return;
      state = 'waiting';
      woken = new Promise<void>((resolve) => (wake = resolve));
      yield { type: 'user', message: { role: 'user', content: [] }, parent_tool_use_id: null };
    }
  }
  return {
    messages: messages(),
    retry: () => {
      if (state !== 'waiting') return;
      state = 'retry';
      wake();
    },
    end: () => {
      state = 'ended';
      wake();
    },
  };
}

/**
 * Resume the Claude session of a settled deferred call and stream its messages, as `query()` does.
 * Pass the options the first query ran with (cwd, env, tools, mcpServers, hooks, canUseTool …);
 * `resume` and the answering hook are added here. No new prompt is sent: the turn goes on from the
 * deferred call, and the input closes when that turn's result arrives. A result that defers again
 * is handled like the first (`askDeferredToolUse`).
 *
 * A deferred MCP tool whose server has not connected yet when the CLI starts is tried again once
 * its server is connected (the CLI's `tool_deferred_unavailable` result is not streamed). Throws
 * `DEFERRED_TOOL_UNAVAILABLE` when the call cannot run (its tool or server is missing: nothing ran,
 * the person's decision is unused), and `RESUME_FAILED` when the Claude Code process fails before
 * the turn ends. Let either escape `onResume`: the record stays unresumed and the next host started
 * on the store hands it over again. Throws `NOT_SETTLED` for a question still waiting.
 */
export async function* resumeDeferredToolUse(deferred: DeferredToolUse, options: Options = {}): AsyncGenerator<SDKMessage, void> {
  if (deferred.outcome === 'pending') throw new ClaudeAgentSdkError('NOT_SETTLED', `The askseam question ${deferred.rpcId} is still waiting for a person; resume the Claude session from onResume, once it is settled.`);
  // Without a permission host the resumed CLI no longer offers AskUserQuestion and ends with
  // tool_deferred_unavailable instead of reading the answer.
  if (deferred.toolName === askUserQuestionToolName && options.canUseTool === undefined) {
    throw new ClaudeAgentSdkError('MISSING_CAN_USE_TOOL', 'Resuming a deferred AskUserQuestion needs canUseTool in the options (askseamCanUseTool): pass the options the first query ran with.');
  }
  const input = resumeInput();
  const run = query({ prompt: input.messages, options: { ...options, resume: deferred.claudeSessionId, hooks: hooksAnswering(deferred, options.hooks) } });
  let retried = false;
  try {
    for await (const message of run) {
      if (message.type === 'result' && message.terminal_reason === 'tool_deferred_unavailable') {
        // Not streamed: its subtype is "success" and its result the CLI's notice, so a caller
        // reading results would take a call that never ran for one that did.
        if (retried) throw unavailableError(deferred.toolName, deferred.rpcId, 'the CLI still found the tool missing once its MCP server was connected');
        await waitForDeferredTool(run, deferred.toolName, deferred.rpcId);
        retried = true;
        input.retry();
        continue;
      }
      if (message.type === 'result') input.end();
      yield message;
    }
  } catch (error) {
    if (ClaudeAgentSdkError.isInstance(error)) throw error;
    throw new ClaudeAgentSdkError(
      'RESUME_FAILED',
      `The Claude Code process resuming session ${deferred.claudeSessionId} for the deferred ${deferred.toolName} call (askseam question ${deferred.rpcId}) failed before the turn ended: ${error instanceof Error ? error.message : String(error)}. Let the error escape onResume: the question stays unresumed and the next host started on the store hands it over again.`,
      { cause: error },
    );
  } finally {
    input.end();
  }
}
