import type { HookCallback, SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { askApprovalDetached, type DetachedAsker } from '@askseam/host-ws';
import type { JsonValue, QuestionUrgency } from '@askseam/store';
import type { AgentRef, ApprovalLang } from '@askseam/user-questions';
import { askUserQuestionToolName, askseamQuestionsOf, parseClaudeQuestions } from './claude-questions.js';
import { ClaudeAgentSdkError } from './errors.js';

// Long waits. A PreToolUse hook returning `permissionDecision: 'defer'` ends the query with
// `terminal_reason: 'tool_deferred'` and the call in `deferred_tool_use`; the session stays on disk.
// `askDeferredToolUse` saves that call as a detached askseam question, so the process may exit;
// the person's answer reaches the host's `onResume` (here or after a restart), where
// `deferredToolUseFromRecord` and `resumeDeferredToolUse` (resume.ts) finish the call.

/** The key under which a deferred call's own fields sit in the saved question's `state`. */
export const deferredStateKey = 'claudeAgentSdkDeferredToolUse';

/**
 * A PreToolUse hook that defers every tool call it sees. Put it under a matcher naming the tools
 * a person must answer for (`{ matcher: 'AskUserQuestion|Bash', hooks: [deferToolUse] }`); the CLI
 * honours `defer` only when the call is the turn's only tool call, otherwise the call goes on to
 * `canUseTool` (give `askseamCanUseTool` too, so it is still asked).
 */
export const deferToolUse: HookCallback = async (input) => {
  if (input.hook_event_name !== 'PreToolUse') return {};
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer', permissionDecisionReason: 'Waiting for a person to answer through askseam.' } };
};

export interface DeferredAskOptions {
  /** The asking agent; its id is the askseam session. Give this or `sessionId`. */
  agent?: AgentRef;
  /** The askseam session whose clients see the question. */
  sessionId?: string;
  /** Your JSON, handed back as `state` by `deferredToolUseFromRecord`. */
  state?: JsonValue;
  /** The words of an approval card (`en` default, `zh`). */
  lang?: ApprovalLang;
  urgency?: QuestionUrgency;
}

/**
 * Save the call a query deferred as a detached askseam question and return its `{ rpcId }`:
 * AskUserQuestion as its questions, any other tool as an approval. Saved with the Claude session
 * id and the tool call's id, so the answer can resume the session from any process. Rejects with
 * `NOT_DEFERRED` for a result that deferred nothing, `INVALID_DEFERRED_TOOL` for AskUserQuestion
 * input that cannot be asked, and like the host's `askDetached` otherwise.
 */
export async function askDeferredToolUse(host: DetachedAsker, result: SDKResultMessage, options: DeferredAskOptions = {}): Promise<{ rpcId: string }> {
  const deferred = 'deferred_tool_use' in result ? result.deferred_tool_use : undefined;
  if (result.terminal_reason !== 'tool_deferred' || deferred === undefined) {
    throw new ClaudeAgentSdkError('NOT_DEFERRED', `This result deferred no tool call (terminal_reason: ${result.terminal_reason ?? 'none'}); call askDeferredToolUse only for a result whose terminal_reason is "tool_deferred".`);
  }
  const { agent, sessionId, lang, urgency } = options;
  const state = { [deferredStateKey]: { claudeSessionId: result.session_id, toolUseId: deferred.id, toolName: deferred.name }, ...(options.state === undefined ? {} : { app: options.state }) };
  if (deferred.name === askUserQuestionToolName) {
    const parsed = parseClaudeQuestions(deferred.input);
    if (!parsed.ok) throw new ClaudeAgentSdkError('INVALID_DEFERRED_TOOL', parsed.problem);
    return host.askDetached({ questions: askseamQuestionsOf(parsed.questions), agent, sessionId, state, urgency });
  }
  // The tool's input is JSON from the transcript; the host's gate checks it (BAD_INTENT when it is not, or too big).
  return askApprovalDetached(host, { tool: { name: deferred.name, input: deferred.input }, lang, agent, sessionId, state, urgency });
}
