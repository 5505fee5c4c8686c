// A LangGraph thread that pauses for a person and resumes when they answer, even if the process
// was killed in between: the graph's checkpoints and askseam's questions are both SQLite files.
import { createWebSocketHost } from '@askseam/host-ws';
import { langGraphInterrupts } from '@askseam/langchain';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import type { AskUserQuestionAnswer, UserQuestions } from '@askseam/user-questions';
import { Annotation, END, interrupt, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';

const Deployment = Annotation.Root({
  service: Annotation<string>(),
  region: Annotation<string>(),
  log: Annotation<string[]>({ reducer: (all, more) => all.concat(more), default: () => [] }),
});

export interface DurableGraphOptions {
  userQuestions: UserQuestions;
  token: string;
  /** The graph's checkpoints. */
  checkpointFile: string;
  /** askseam's questions. */
  questionFile: string;
  /** Called each time the node that asks starts running (it runs again on resume). */
  onNodeStart?: () => void;
  /** Called with the finished state of a thread that was resumed. */
  onDone?: (threadId: string, state: typeof Deployment.State) => void;
}

export async function startDurableGraph(options: DurableGraphOptions) {
  // #region graph
  const graph = new StateGraph(Deployment)
    .addNode('choose_region', (state) => {
      // On resume this node starts again from its first line: keep code above interrupt() free of
      // side effects (or make them idempotent), and do the work in the next node.
      options.onNodeStart?.();
      const answer: AskUserQuestionAnswer = interrupt({
        questions: [{ id: 'region', question: `Where should ${state.service} run?`, options: [{ label: 'eu-west-1' }, { label: 'us-east-1' }] }],
      });
      const [choice] = answer.answers;
      return { region: choice?.selected[0] ?? choice?.custom ?? 'eu-west-1' };
    })
    .addNode('deploy', (state) => ({ log: [`deployed ${state.service} to ${state.region}`] }))
    .addEdge(START, 'choose_region')
    .addEdge('choose_region', 'deploy')
    .addEdge('deploy', END)
    .compile({ checkpointer: SqliteSaver.fromConnString(options.checkpointFile) });
  // #endregion graph

  // #region bridge
  const interrupts = langGraphInterrupts({
    graph,
    sessionId: 'deployments',
    onDone: (threadId, state) => options.onDone?.(threadId, state as typeof Deployment.State),
  });
  const host = await createWebSocketHost({
    userQuestions: options.userQuestions,
    token: options.token,
    store: new SqliteQuestionStore(options.questionFile),
    onResume: interrupts.onResume,
  });
  interrupts.useHost(host);
  // #endregion bridge

  return {
    host,
    graph,
    /** Start a deployment: the thread pauses at the region question, which is saved and shown. */
    deploy: (service: string, threadId: string) => interrupts.invoke({ service }, threadId),
    close: () => host.close(),
  };
}
