// The wiring docs/claude-agent-sdk.md shows, compiled and run by claude-app.test.ts.
import { query, type Options, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { askDeferredToolUse, askseamCanUseTool, deferToolUse, deferredToolUseFromRecord, resumeDeferredToolUse } from '@askseam/claude-agent-sdk';
import type { DetachedAsker } from '@askseam/host-ws';
import type { QuestionRecord } from '@askseam/store';
import type { AgentRef, UserQuestions } from '@askseam/user-questions';

// #region live
/** A run that waits for the person: AskUserQuestion and every tool approval go through askseam. */
export async function runWithAskseam(userQuestions: UserQuestions, agent: AgentRef, prompt: string, options: Options): Promise<string | undefined> {
  const canUseTool = askseamCanUseTool(userQuestions, { agent });
  for await (const message of query({ prompt, options: { ...options, canUseTool } })) {
    if (message.type === 'result') return message.subtype === 'success' ? message.result : undefined;
  }
  return undefined;
}
// #endregion live

// #region deferred
/** The options of a run that does not wait: the calls a person must answer end it instead. */
export function deferringOptions(userQuestions: UserQuestions, agent: AgentRef, options: Options): Options {
  return {
    ...options,
    // Still needed: the CLI offers AskUserQuestion only with it, and asks it for a turn of several tool calls.
    canUseTool: askseamCanUseTool(userQuestions, { agent }),
    hooks: { PreToolUse: [{ matcher: 'AskUserQuestion|Bash', hooks: [deferToolUse] }] },
  };
}

/** Run (or resume) until Claude finishes or a call waits for a person; that call is saved, so this process may exit. */
async function untilDoneOrDeferred(host: DetachedAsker, agent: AgentRef, messages: AsyncIterable<SDKMessage>): Promise<string | undefined> {
  for await (const message of messages) {
    if (message.type !== 'result') continue;
    if (message.terminal_reason === 'tool_deferred') {
      await askDeferredToolUse(host, message, { agent });
      return undefined;
    }
    return message.subtype === 'success' ? message.result : undefined;
  }
  return undefined;
}

export function startDeferredRun(host: DetachedAsker, agent: AgentRef, prompt: string, options: Options): Promise<string | undefined> {
  return untilDoneOrDeferred(host, agent, query({ prompt, options }));
}

/** The host's onResume: in this process or after a restart, the answer resumes the Claude session. */
export function resumeClaude(host: DetachedAsker, agent: AgentRef, options: Options, done: (result: string | undefined) => void) {
  return async (record: QuestionRecord): Promise<void> => {
    const deferred = deferredToolUseFromRecord(record);
    if (deferred === undefined) return; // another kind of detached question
    done(await untilDoneOrDeferred(host, agent, resumeDeferredToolUse(deferred, options)));
  };
}
// #endregion deferred
