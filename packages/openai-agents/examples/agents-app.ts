// askseam inside the OpenAI Agents SDK: the agent asks the person through askseam, and a tool that
// needs approval is approved (or denied, with a reason) on askseam's approval card. Then the same
// approval made durable: saved with the paused run, decided after a restart.
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { askRunApprovalDetached, createAskUserQuestionTool, resumeRunFromApproval, runWithApprovals, type ResumedRun } from '@askseam/openai-agents';
import type { QuestionStore } from '@askseam/store';
import type { AgentRef, UserQuestions } from '@askseam/user-questions';
import { Agent, Runner, tool, type Model } from '@openai/agents';

/** Your business tool: it runs only once a person approves the call. */
export function deployTool(deploy: (version: string) => Promise<void>) {
  return tool({
    name: 'deploy',
    description: 'Deploys a version to production.',
    parameters: { type: 'object', properties: { version: { type: 'string' } }, required: ['version'], additionalProperties: false },
    needsApproval: true,
    execute: async (input) => {
      const { version } = input as { version: string };
      await deploy(version);
      return `Deployed ${version}.`;
    },
  });
}

/** The agent: it can ask the person, and it can deploy with their approval. */
export function releaseAgent(userQuestions: UserQuestions, agent: AgentRef, model: Model, deploy: (version: string) => Promise<void>) {
  // #region agent
  return new Agent({
    name: 'release-bot',
    model,
    instructions: 'Ship what the user asks for. Ask when something is unclear.',
    tools: [createAskUserQuestionTool({ userQuestions, agent }), deployTool(deploy)],
  });
  // #endregion agent
}

/** One turn while the person is there: questions and approvals are answered as the run goes. */
export async function shipWhileWaiting(userQuestions: UserQuestions, agent: AgentRef, releaseBot: Agent<any, any>, request: string): Promise<unknown> {
  // #region run-with-approvals
  const runner = new Runner();
  const result = await runWithApprovals(runner, releaseBot, request, { userQuestions, agent, timeoutMs: 15 * 60_000 });
  return result.finalOutput;
  // #endregion run-with-approvals
}

/** The durable way: the run stops at the approval and is saved with it; the decision resumes it, in whichever process is up. */
export async function startDurableRelease(options: {
  userQuestions: UserQuestions;
  token: string;
  store: QuestionStore;
  releaseBot: Agent<any, any>;
  onResumed: (resumed: ResumedRun<undefined, Agent<any, any>>) => void;
}): Promise<{ host: WebSocketHost; ship(sessionId: string, request: string): Promise<unknown> }> {
  const { userQuestions, token, store, releaseBot, onResumed } = options;
  const runner = new Runner();
  const host: WebSocketHost = await createWebSocketHost({
    userQuestions,
    token,
    store,
    // #region resume-in-on-resume
    onResume: async (record) => {
      const resumed = await resumeRunFromApproval(record, { host, agent: releaseBot, runner });
      if (resumed !== undefined) onResumed(resumed);
    },
    // #endregion resume-in-on-resume
  });
  return {
    host,
    async ship(sessionId, request) {
      // #region ship-detached
      const result = await runner.run(releaseBot, request);
      if (result.interruptions.length === 0) return result.finalOutput;
      await askRunApprovalDetached(host, result, { sessionId });
      return undefined; // the run goes on in onResume once the person decides
      // #endregion ship-detached
    },
  };
}
