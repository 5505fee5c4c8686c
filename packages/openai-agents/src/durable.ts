import { approvalFromRecord, askApprovalDetached, type DetachedAsker } from '@askseam/host-ws';
import type { JsonValue, QuestionRecord, QuestionUrgency } from '@askseam/store';
import type { AgentRef, ApprovalLang } from '@askseam/user-questions';
import { RunState, type Agent, type NonStreamRunOptions, type RunResult, type RunToolApprovalItem } from '@openai/agents';
import { approvalToolOf, callIdOf } from './approval-item.js';
import type { AgentRunner, InterruptedRun } from './approve-interruptions.js';
import { OpenAIAgentsError } from './errors.js';
import { deniedMessage, undecidedMessage } from './messages.js';

// A durable approval: the paused run, serialised by the SDK (`state.toString()`), is the detached
// question's state. The process may end; whichever process gets the decision restores the run
// (`RunState.fromString`), records the decision and runs on. A step that waits on several calls
// asks about them one at a time, each question carrying the run with the decisions so far.

const savedRunFormat = 'askseam.openai-agents.run/1';

/** The detached question's `state`: the run, and which of its waiting calls this question is about. */
interface SavedRun {
  format: typeof savedRunFormat;
  runState: string;
  /** The call's place among the step's interruptions, the order they are asked in. */
  position: number;
  callId: string | null;
}

function isSavedRun(value: JsonValue | undefined): value is JsonValue & SavedRun {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { format, runState, position, callId } = value;
  return format === savedRunFormat && typeof runState === 'string' && Number.isInteger(position) && (callId === null || typeof callId === 'string');
}

/** Who sees the approvals, and how they are worded. */
export interface DetachedRunApprovalOptions {
  /** The asking agent (its id is the session). Give this or `sessionId`. */
  agent?: AgentRef;
  /** The session whose clients see the approval, when no live agent object is at hand. */
  sessionId?: string;
  lang?: ApprovalLang;
  urgency?: QuestionUrgency;
}

function askAbout(host: DetachedAsker, state: RunState<any, any>, interruptions: readonly RunToolApprovalItem[], position: number, options: DetachedRunApprovalOptions): Promise<{ rpcId: string }> {
  const item = interruptions[position]!;
  const saved: SavedRun = { format: savedRunFormat, runState: state.toString(), position, callId: callIdOf(item) ?? null };
  return askApprovalDetached(host, { tool: approvalToolOf(item), ...options, state: saved as unknown as JsonValue });
}

/**
 * Save the approval a run stopped for, with the run, and return at once with its `rpcId`: the run
 * can end here, and the person may decide hours later, after a restart. The decision reaches the
 * host's `onResume`; hand it to `resumeRunFromApproval`. Rejects `NO_INTERRUPTIONS` for a run that
 * waits on nothing, and like `askApprovalDetached` (`STORE_FAILED`, `BAD_INTENT`, …).
 */
export async function askRunApprovalDetached(host: DetachedAsker, run: InterruptedRun, options: DetachedRunApprovalOptions): Promise<{ rpcId: string }> {
  if (run.interruptions.length === 0) {
    throw new OpenAIAgentsError('NO_INTERRUPTIONS', 'askRunApprovalDetached was given a run that waits on no approval (result.interruptions is empty); there is nothing to ask.');
  }
  return askAbout(host, run.state, run.interruptions, 0, options);
}

export interface ResumeRunOptions<TAgent extends Agent<any, any>, TContext> {
  /** The host to ask the next approval through, if the run stops again. */
  host: DetachedAsker;
  /** The agent the run was started with: the same name, tools and handoffs as when it was saved. */
  agent: TAgent;
  runner: AgentRunner;
  /** Passed to `runner.run` when the run goes on. */
  runOptions?: Omit<NonStreamRunOptions<TContext>, 'stream'>;
  lang?: ApprovalLang;
}

/** Where a resumed run got to. */
export type ResumedRun<TContext, TAgent extends Agent<any, any>> =
  /** It waits on another approval, now saved as `rpcId` (`result` is set when the run went on and stopped again). */
  | { status: 'awaiting-approval'; rpcId: string; result?: RunResult<TContext, TAgent> }
  /** It ran to its end. */
  | { status: 'finished'; result: RunResult<TContext, TAgent> };

/**
 * Call from the host's `onResume`: if `record` is an approval saved by `askRunApprovalDetached`,
 * restore the run, record the person's decision (a denial's reason, or "no decision" for a
 * dismissal, is what the model reads as the call's output) and run on; a tool approved runs then.
 * Returns `undefined` for any other record, so one `onResume` serves every kind of question.
 * Rejects `RUN_STATE_UNREADABLE` when the run cannot be restored for `agent`, and
 * `RUN_STATE_MISMATCH` when it no longer waits on the call that was decided.
 */
export async function resumeRunFromApproval<TAgent extends Agent<any, any>, TContext = undefined>(
  record: QuestionRecord,
  options: ResumeRunOptions<TAgent, TContext>,
): Promise<ResumedRun<TContext, TAgent> | undefined> {
  const approval = approvalFromRecord(record);
  // Still waiting (onResume is never handed one): nothing has been decided, nothing to resume.
  if (approval === undefined || !isSavedRun(approval.state) || approval.outcome === 'pending') return undefined;
  const saved = approval.state;

  let state: RunState<TContext, TAgent>;
  try {
    state = await RunState.fromString<TContext, TAgent>(options.agent, saved.runState);
  } catch (error) {
    throw new OpenAIAgentsError('RUN_STATE_UNREADABLE', `The run saved with approval ${record.rpcId} could not be restored for agent "${options.agent.name}": ${error instanceof Error ? error.message : String(error)} Resume it with the agent it was started with (same name, tools and handoffs).`, { cause: error });
  }
  const interruptions = state.getInterruptions();
  const item = interruptions[saved.position];
  if (item === undefined || (callIdOf(item) ?? null) !== saved.callId) {
    throw new OpenAIAgentsError('RUN_STATE_MISMATCH', `The run saved with approval ${record.rpcId} no longer waits on tool call ${saved.callId ?? `#${saved.position}`}; nothing was run. The saved state was changed after it was asked.`);
  }

  const toolName = approvalToolOf(item).name;
  if (approval.outcome !== 'answered') state.reject(item, { message: undecidedMessage(toolName, approval.outcome === 'cancelled' ? 'cancelled' : 'timed_out') });
  else if (approval.decision.approved) state.approve(item);
  else state.reject(item, { message: deniedMessage(toolName, approval.decision) });

  const next = { sessionId: record.sessionId, ...(options.lang === undefined ? {} : { lang: options.lang }), ...(record.urgency === undefined ? {} : { urgency: record.urgency }) };
  if (saved.position + 1 < interruptions.length) {
    return { status: 'awaiting-approval', ...(await askAbout(options.host, state, interruptions, saved.position + 1, next)) };
  }
  const result = await options.runner.run<TAgent, TContext>(options.agent, state, options.runOptions);
  if (result.interruptions.length > 0) {
    return { status: 'awaiting-approval', ...(await askAbout(options.host, result.state, result.interruptions, 0, next)), result };
  }
  return { status: 'finished', result };
}
