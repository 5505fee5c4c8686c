import { askApproval, UserQuestionError, type AgentRef, type ApprovalLang, type UserQuestions } from '@askseam/user-questions';
import type { Agent, AgentInputItem, NonStreamRunOptions, RunResult, RunState, RunToolApprovalItem } from '@openai/agents';
import { approvalToolOf } from './approval-item.js';
import { deniedMessage, undecidedMessage } from './messages.js';

export interface ApprovalOptions {
  /** The seam the approvals are asked through. */
  userQuestions: UserQuestions;
  /** The asking agent, the registry's own object (the WebSocket host routes by it). */
  agent?: AgentRef;
  /** Aborting it withdraws the approval that is waiting and ends the helper with `ASK_ABORTED`. */
  signal?: AbortSignal;
  /** How long the person has for each approval. A timeout reads as "no decision": the call is rejected. */
  timeoutMs?: number;
  /** The words of the card. Default `en`. */
  lang?: ApprovalLang;
}

/** What the helpers read from a run that stopped: `RunResult` and `StreamedRunResult` both fit. */
export interface InterruptedRun {
  readonly state: RunState<any, any>;
  readonly interruptions: readonly RunToolApprovalItem[];
}

/**
 * Ask the person about every tool call the run is waiting on, one after another, and record each
 * decision in the run's state: approved calls run when the run continues, denied ones do not, and
 * the model reads the person's reason as the call's output. A dismissed or timed-out approval
 * rejects the call too (nobody consented). Returns the state to run again.
 *
 * Rejects with the seam's `UserQuestionError` when the approvals could not be asked
 * (`ASK_ABORTED`, `BAD_INTENT`, `NO_PROVIDER`, …); decisions made before that stay in the state.
 */
export async function answerInterruptions<State extends RunState<any, any>>(run: { readonly state: State; readonly interruptions: readonly RunToolApprovalItem[] }, options: ApprovalOptions): Promise<State> {
  const { state } = run;
  for (const item of run.interruptions) {
    const tool = approvalToolOf(item);
    try {
      const decision = await askApproval(options.userQuestions, { tool, agent: options.agent, signal: options.signal, timeoutMs: options.timeoutMs, lang: options.lang });
      if (decision.approved) state.approve(item);
      else state.reject(item, { message: deniedMessage(tool.name, decision) });
    } catch (error) {
      if (UserQuestionError.isInstance(error) && error.code === 'ASK_CANCELLED') state.reject(item, { message: undecidedMessage(tool.name, 'cancelled') });
      else if (UserQuestionError.isInstance(error) && error.code === 'ASK_TIMEOUT') state.reject(item, { message: undecidedMessage(tool.name, 'timed_out') });
      else throw error;
    }
  }
  return state;
}

/** The part of a `Runner` the loop uses. */
export interface AgentRunner {
  run<TAgent extends Agent<any, any>, TContext = undefined>(
    agent: TAgent,
    input: string | AgentInputItem[] | RunState<TContext, TAgent>,
    options?: NonStreamRunOptions<TContext, TAgent>,
  ): Promise<RunResult<TContext, TAgent>>;
}

export interface RunWithApprovalsOptions<TContext> extends ApprovalOptions {
  /** Passed to every `runner.run` (the helper adds `signal`). */
  runOptions?: Omit<NonStreamRunOptions<TContext>, 'signal' | 'stream'>;
}

/**
 * `runner.run(agent, input)`, answering every approval the run stops for through askseam and
 * running again, until the run ends without waiting on anyone. `signal` ends both the run and a
 * waiting approval.
 */
export async function runWithApprovals<TAgent extends Agent<any, any>, TContext = undefined>(
  runner: AgentRunner,
  agent: TAgent,
  input: string | AgentInputItem[] | RunState<TContext, TAgent>,
  options: RunWithApprovalsOptions<TContext>,
): Promise<RunResult<TContext, TAgent>> {
  const runOptions: NonStreamRunOptions<TContext, TAgent> = { ...options.runOptions, ...(options.signal === undefined ? {} : { signal: options.signal }) };
  let result = await runner.run<TAgent, TContext>(agent, input, runOptions);
  while (result.interruptions.length > 0) {
    const state = await answerInterruptions(result, options);
    result = await runner.run<TAgent, TContext>(agent, state, runOptions);
  }
  return result;
}
