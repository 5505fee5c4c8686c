// An AI SDK agent that asks the person through askseam: questions with ask_user_question, and
// approval before it deletes a branch. docs/ai-sdk.md and the README quote this file; the tests run it.
import { answerApprovalRequests, askseamToolApproval, createAskUserQuestionTool, pendingApprovalRequests } from '@askseam/ai-sdk';
import type { AgentRef, UserQuestions } from '@askseam/user-questions';
import { generateText, stepCountIs, tool, ToolLoopAgent, type LanguageModel, type ModelMessage } from 'ai';
import { z } from 'zod';

export interface ReleaseAgentOptions {
  model: LanguageModel;
  userQuestions: UserQuestions;
  agent: AgentRef;
  /** Your code that really deletes the branch. */
  removeBranch: (branch: string) => Promise<void>;
}

function releaseTools({ userQuestions, agent, removeBranch }: ReleaseAgentOptions) {
  return {
    // #region tools
    ask_user_question: createAskUserQuestionTool({ userQuestions, agent }),
    delete_branch: tool({
      description: 'Deletes a git branch on the remote.',
      inputSchema: z.object({ branch: z.string() }),
      execute: async ({ branch }) => {
        await removeBranch(branch);
        return `Deleted ${branch}.`;
      },
    }),
    // #endregion tools
  };
}

/**
 * One run of the release agent. The agent is built per run: its approval must know the run's abort
 * signal, which the SDK does not give `toolApproval`.
 */
export function runReleaseAgent(options: ReleaseAgentOptions, prompt: string, signal: AbortSignal) {
  const { userQuestions, agent, model } = options;
  // #region agent
  const releaseAgent = new ToolLoopAgent({
    model,
    tools: releaseTools(options),
    // The same signal as the run's: stopping the run withdraws the card, and the tool does not run.
    toolApproval: askseamToolApproval({ userQuestions, agent, signal, tools: ['delete_branch'] }),
    stopWhen: stepCountIs(6),
  });
  return releaseAgent.generate({ prompt, abortSignal: signal });
  // #endregion agent
}

/** One run that can be stopped: the same signal stops the run and withdraws an open approval card. */
export function runRelease(options: ReleaseAgentOptions, prompt: string, signal: AbortSignal) {
  const { userQuestions, agent, model } = options;
  // #region run-with-signal
  return generateText({
    model,
    tools: releaseTools(options),
    prompt,
    abortSignal: signal,
    toolApproval: askseamToolApproval({ userQuestions, agent, signal, tools: ['delete_branch'] }),
    stopWhen: stepCountIs(6),
  });
  // #endregion run-with-signal
}

/**
 * The 'user-approval' round trip: the run stops at the approval request (the messages can be
 * saved), askseam asks the person, and the run continues from their decision.
 */
export async function releaseWithApprovalStop(options: ReleaseAgentOptions, messages: ModelMessage[]) {
  const { userQuestions, agent, model } = options;
  const tools = releaseTools(options);
  // #region approval-round-trip
  const first = await generateText({ model, tools, messages, toolApproval: { delete_branch: 'user-approval' }, stopWhen: stepCountIs(6) });
  const decided = await answerApprovalRequests({ userQuestions, agent, tools, requests: pendingApprovalRequests(first.content) });
  if (decided === undefined) return first;
  return generateText({ model, tools, messages: [...messages, ...first.response.messages, decided], stopWhen: stepCountIs(6) });
  // #endregion approval-round-trip
}
