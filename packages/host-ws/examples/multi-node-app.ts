// One node of a multi-node deployment (docs/scaling.md): every node runs this same code behind a
// load balancer, pointed at one Redis. A question asked on any node is shown and answerable on
// every node, and the answer reaches the asker wherever it waits.
import { RedisQuestionBus } from '@askseam/bus-redis';
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import type { QuestionRecord } from '@askseam/store';
import { RedisQuestionStore } from '@askseam/store-redis';
import { UserQuestions } from '@askseam/user-questions';

export interface NodeOptions {
  /** `redis://host:port`: the same for every node. */
  redisUrl: string;
  /** Shared by every node of this app (and only this app) on that Redis. */
  keyPrefix: string;
  token: string;
  userQuestions: UserQuestions;
  /**
   * A secret every node shares (32 bytes or more, from your secret store): nodes then take each
   * other's news without reading it back from Redis. Optional; without it news is a hint.
   */
  sealKey?: string;
  /** Answers whose asker is gone (a detached ask, a node that died): one node's handler gets each. */
  onResume: (record: QuestionRecord) => void | Promise<void>;
}

export interface RunningNode {
  host: WebSocketHost;
  stop(): Promise<void>;
}

export async function startNode(options: NodeOptions): Promise<RunningNode> {
  // #region store
  // The store is the truth (who answered first is decided there); the bus only carries news.
  const store = new RedisQuestionStore({ url: options.redisUrl, keyPrefix: options.keyPrefix });
  const bus = new RedisQuestionBus({ url: options.redisUrl, keyPrefix: options.keyPrefix, sealKey: options.sealKey });
  const host = await createWebSocketHost({
    userQuestions: options.userQuestions,
    token: options.token,
    store,
    bus,
    onResume: options.onResume,
  });
  // #endregion store
  return {
    host,
    // The host leaves the bus as it closes; the store is ours to close after it.
    async stop() {
      await host.close();
      await store.close();
    },
  };
}
