// Seed 001's pending action on seed 002's loop: a tool call is missing arguments, so the agent
// asks for them *detached* — the pending call is saved as the question's `state` — and its loop
// ends. When the person answers (minutes or days later, after any number of restarts), onResume
// merges the answer into the call's arguments and runs it.
import type { WebSocketHost } from '@askseam/host-ws';
import type { JsonValue, QuestionRecord } from '@askseam/store';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';

/** A business tool call that cannot run yet: which tool, the arguments it has, the ones it lacks. */
export interface PendingToolCall {
  tool: string;
  args: Record<string, JsonValue>;
  missing: string[];
}

/** What to ask for each missing argument; a field with `options` becomes a choice. */
export type FieldQuestions = Record<string, { question: string; options?: string[] }>;

/**
 * Ask for the missing arguments and return at once: the agent loop ends, the call waits in the store.
 * The person sees only the wording in `fields`, never argument or tool names (for model-written
 * wording with that guarantee, see `request_clarification` in @askseam/clarify).
 */
export async function requestClarification(host: WebSocketHost, sessionId: string, call: PendingToolCall, fields: FieldQuestions): Promise<string> {
  const questions: AskUserQuestionItem[] = call.missing.map((name) => {
    const field = fields[name];
    if (field === undefined) throw new Error(`No wording for the missing argument "${name}"; add it to fields.`);
    return {
      id: name,
      question: field.question,
      ...(field.options === undefined ? {} : { options: field.options.map((label) => ({ label })) }),
    };
  });
  // #region state
  const state: JsonValue = { kind: 'pending-tool-call', tool: call.tool, args: call.args, missing: call.missing };
  const { rpcId } = await host.askDetached({ sessionId, questions, state, urgency: 'medium' });
  return rpcId;
  // #endregion state
}

/**
 * The resume step: the saved call with the answer merged into its arguments, or why it cannot
 * run (the person dismissed the question, or skipped a field the call needs).
 */
export function mergeAnswer(record: QuestionRecord): { ok: true; call: { tool: string; args: Record<string, JsonValue> } } | { ok: false; reason: string } {
  const pending = record.state as unknown as PendingToolCall & { kind?: string };
  if (pending?.kind !== 'pending-tool-call') return { ok: false, reason: `question ${record.rpcId} is not a pending tool call` };
  // #region args
  if (record.outcome !== 'answered' || record.answer === undefined) return { ok: false, reason: `the person dismissed the question about ${pending.tool}` };
  const args = { ...pending.args };
  for (const name of pending.missing) {
    const value = valueOf(record.answer, name);
    if (value === undefined) return { ok: false, reason: `"${name}" was skipped, so ${pending.tool} still cannot run` };
    args[name] = value;
  }
  return { ok: true, call: { tool: pending.tool, args } };
  // #endregion args
}

/** Typed text wins over a chosen option; nothing at all is a skip. */
function valueOf(answer: AskUserQuestionAnswer, id: string): string | undefined {
  const item = answer.answers.find((candidate) => candidate.id === id);
  return item?.custom?.trim() || item?.selected[0];
}
