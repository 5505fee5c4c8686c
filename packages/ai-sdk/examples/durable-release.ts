// An approval that outlives the process: the run stops at the SDK's approval request, the
// conversation is saved, askseam keeps the question in SQLite, and whichever process is up when
// the person decides continues the run. docs/ai-sdk.md quotes this file; the tests run it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pendingApprovalRequests, toolApprovalResponse } from '@askseam/ai-sdk';
import { approvalFromRecord, askApprovalDetached, createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import type { UserQuestions } from '@askseam/user-questions';
import { generateText, stepCountIs, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';

/** One conversation on disk: its messages, and the approvals already acted on (onResume is at-least-once). */
interface SavedConversation {
  messages: ModelMessage[];
  resumed: string[];
}

export interface DurableReleaseOptions {
  dataDir: string;
  token: string;
  userQuestions: UserQuestions;
  model: LanguageModel;
  tools: ToolSet;
  /** Told the model's last words of each continued run. */
  tell?: (line: string) => void;
}

export async function startDurableRelease(options: DurableReleaseOptions) {
  const { dataDir, token, userQuestions, model, tools, tell = console.log } = options;
  const store = new SqliteQuestionStore(join(dataDir, 'questions.db'));
  const file = (conversation: string) => join(dataDir, `${conversation}.json`);
  const load = (conversation: string): SavedConversation => JSON.parse(readFileSync(file(conversation), 'utf8'));
  const save = (conversation: string, saved: SavedConversation) => writeFileSync(file(conversation), JSON.stringify(saved));

  const host: WebSocketHost = await createWebSocketHost({
    userQuestions,
    token,
    store,
    onResume: async (record) => {
      // #region resume-detached
      const approval = approvalFromRecord(record);
      if (approval === undefined || approval.outcome === 'pending') return;
      const { approvalId, conversation } = approval.state as { approvalId: string; conversation: string };
      if (!existsSync(file(conversation))) return;
      const saved = load(conversation);
      if (saved.resumed.includes(approval.rpcId)) return; // delivered again after a crash: already done
      const decision = approval.outcome === 'answered' ? approval.decision : { approved: false as const, reason: `Not run: nobody decided (${approval.outcome}).` };
      const messages: ModelMessage[] = [...saved.messages, { role: 'tool', content: [toolApprovalResponse(approvalId, decision)] }];
      const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(6) });
      // #endregion resume-detached
      save(conversation, { messages: [...messages, ...result.response.messages], resumed: [...saved.resumed, approval.rpcId] });
      tell(result.text);
    },
  });

  return {
    host,
    /** Run until the first approval request, save the conversation, and leave the approval with askseam. */
    async start(conversation: string, sessionId: string, prompt: string): Promise<string[]> {
      const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
      // #region start-detached
      const first = await generateText({ model, tools, messages, toolApproval: () => 'user-approval', stopWhen: stepCountIs(6) });
      save(conversation, { messages: [...messages, ...first.response.messages], resumed: [] });
      const rpcIds: string[] = [];
      for (const request of pendingApprovalRequests(first.content)) {
        const tool = { name: request.toolCall.toolName, input: request.toolCall.input };
        const { rpcId } = await askApprovalDetached(host, { sessionId, tool, state: { approvalId: request.approvalId, conversation } });
        rpcIds.push(rpcId);
      }
      // #endregion start-detached
      return rpcIds;
    },
    async close() {
      await host.close();
      await store.close();
    },
  };
}
