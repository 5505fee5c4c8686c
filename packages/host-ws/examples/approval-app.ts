// A tool that runs only with a person's approval: asked while the agent waits (askApproval), or
// saved with the agent's state and decided later, even after a restart (askApprovalDetached).
import { join } from 'node:path';
import { approvalFromRecord, askApprovalDetached, createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import type { JsonValue } from '@askseam/store';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { askApproval, UserQuestionError, type AgentRef, type ApprovalTool, type UserQuestions } from '@askseam/user-questions';

/** Delete a branch only if the person approves; what the model reads back either way. */
export async function deleteBranch(userQuestions: UserQuestions, agent: AgentRef, branch: string, remove: (branch: string) => Promise<void>): Promise<string> {
  // #region decision
  try {
    const decision = await askApproval(userQuestions, {
      agent,
      tool: { name: 'delete_branch', input: { branch }, description: 'Deletes a git branch on the remote.' },
      reason: `\`${branch}\` was merged into main.`,
      timeoutMs: 15 * 60_000,
    });
    if (!decision.approved) return `The user denied deleting ${branch}${decision.reason ? `: ${decision.reason}` : '.'}`;
    await remove(branch);
    return `Deleted ${branch}.`;
  } catch (error) {
    // Dismissed (ASK_CANCELLED), timed out or aborted: nobody decided, so nothing runs.
    if (UserQuestionError.isInstance(error)) return `Did not delete ${branch}: no decision (${error.code}).`;
    throw error;
  }
  // #endregion decision
}

export interface ApprovalApp {
  host: WebSocketHost;
  /** Save an approval for `tool` with the agent's `state`; returns at once with its rpcId. */
  requestApproval(sessionId: string, tool: ApprovalTool, state: JsonValue): Promise<string>;
  close(): Promise<void>;
}

/** `runTool` is your business code; it runs once the person approves, in whichever process is up then. */
export async function startApprovalApp(options: {
  dataDir: string;
  token: string;
  userQuestions: UserQuestions;
  runTool: (tool: ApprovalTool, state: JsonValue | undefined) => Promise<void>;
  tell?: (line: string) => void;
}): Promise<ApprovalApp> {
  const { dataDir, token, userQuestions, runTool, tell = console.log } = options;
  const store = new SqliteQuestionStore(join(dataDir, 'approvals.db'));
  const host = await createWebSocketHost({
    userQuestions,
    token,
    store,
    // #region approval
    onResume: async (record) => {
      const approval = approvalFromRecord(record);
      if (approval === undefined) return; // another kind of detached question
      if (approval.outcome !== 'answered') return tell(`${approval.tool.name}: no decision (${approval.outcome}), not run`);
      if (!approval.decision.approved) return tell(`${approval.tool.name}: denied${approval.decision.reason ? `: ${approval.decision.reason}` : ''}`);
      await runTool(approval.tool, approval.state);
    },
    // #endregion approval
  });
  return {
    host,
    async requestApproval(sessionId, tool, state) {
      const { rpcId } = await askApprovalDetached(host, { sessionId, tool, state });
      return rpcId;
    },
    async close() {
      await host.close();
      await store.close();
    },
  };
}
