import { PlanMode } from '@askseam/plan-mode';
import { UserQuestions, type AgentRef, type AgentRegistry } from '@askseam/user-questions';

/** The session id the browser sees: the demo has exactly one agent, so one session. */
export const DEMO_AGENT_ID = 'demo-agent';

/** The in-process world the demo agent lives in: who is alive, the seam, and plan mode. */
export interface DemoRuntime {
  /** The one root agent. The seam compares by identity, so tools must pass this very object. */
  readonly agent: AgentRef;
  readonly agents: AgentRegistry;
  readonly userQuestions: UserQuestions;
  readonly planMode: PlanMode;
}

/** One live root agent, already in plan mode: it may ask and plan, and implements only after approval. */
export function createDemoRuntime(): DemoRuntime {
  const agent: AgentRef = { id: DEMO_AGENT_ID };
  const agents: AgentRegistry = {
    get: (id) => (id === agent.id ? agent : undefined),
    roots: () => [agent],
  };
  const userQuestions = new UserQuestions({ agents });
  // Plan-mode listeners are ours alone; a bug in one should be loud, which is the default.
  const planMode = new PlanMode();
  planMode.enter(agent.id);
  return { agent, agents, userQuestions, planMode };
}
