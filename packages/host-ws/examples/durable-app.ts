// An app whose questions survive restarts: a SQLite store in a data directory, a host on it, and
// the resume handler that finishes what a detached ask started.
import { join } from 'node:path';
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import type { JsonValue } from '@askseam/store';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions } from '@askseam/user-questions';
import { mergeAnswer } from './clarification-resume.js';

export interface DurableApp {
  host: WebSocketHost;
  close(): Promise<void>;
}

/** `runTool` is your business code; `tell` is where the app reports (a log, a chat message). */
export async function startDurableApp(options: {
  dataDir: string;
  token: string;
  runTool: (tool: string, args: Record<string, JsonValue>) => Promise<void>;
  tell?: (line: string) => void;
}): Promise<DurableApp> {
  const { dataDir, token, runTool, tell = console.log } = options;
  // #region durable-host
  // #region store
  // The same file every start: what was pending when the last process stopped is pending again.
  const store = new SqliteQuestionStore(join(dataDir, 'questions.db'));
  // #endregion store
  // #region host
  const host = await createWebSocketHost({
    userQuestions: new UserQuestions(),
    token,
    store,
    notify: (record) => tell(`question ${record.rpcId} waits for an answer in session ${record.sessionId}`),
    onResume: async (record) => {
      const merged = mergeAnswer(record);
      if (!merged.ok) return tell(`not resuming: ${merged.reason}`);
      await runTool(merged.call.tool, merged.call.args);
    },
  });
  // #endregion host
  // #endregion durable-host
  return {
    host,
    async close() {
      // The host first: it waits for the store writes it has started.
      await host.close();
      await store.close();
    },
  };
}
