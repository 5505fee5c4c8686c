import { exitPlanModeTool, PlanMode } from '@askseam/plan-mode';
import { askUserQuestionTool, toOpenAITool } from '@askseam/tool-ask-user';
import { UserQuestions, type AgentRef, type UserQuestionProvider } from '@askseam/user-questions';

export function createPlanningAgent(provider: UserQuestionProvider) {
  const agent: AgentRef = { id: 'assistant' };
  const userQuestions = new UserQuestions({
    agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] },
  });
  const dispose = userQuestions.registerProvider(provider);

  // The agent starts out planning; only the user's approval through exit_plan_mode ends it.
  const planMode = new PlanMode();
  planMode.enter(agent.id);

  return {
    agent,
    planMode,
    tools: [toOpenAITool(askUserQuestionTool, { strict: true }), toOpenAITool(exitPlanModeTool, { strict: true })],

    // Both tools return `{ isError, text }`; the text is what the model reads next.
    async handleToolCall(name: string, args: string) {
      if (name === exitPlanModeTool.name) return exitPlanModeTool.execute(args, { userQuestions, agent, planMode });
      if (name === askUserQuestionTool.name) return askUserQuestionTool.execute(args, { userQuestions, agent });
      return undefined;
    },

    dispose,
  };
}
